package toolsearch

import "time"

// StateStats describe the in-memory store.
type StateStats struct {
	// ThreadCount is the number of threads with state, runs without a
	// thread counting as the one "default" thread.
	ThreadCount int
	// OldestAccess is the least recent use among them (zero when none).
	OldestAccess time.Time
}

// ClearState forgets the tools loaded on a thread ("" is the shared
// entry of runs without a thread). It does nothing with StorageContext,
// whose state is the messages.
func (p *Processor) ClearState(threadID string) {
	if p.mem != nil {
		p.mem.clear(threadID)
	}
}

// ClearAllState forgets every thread's loaded tools (in-memory store
// only).
func (p *Processor) ClearAllState() {
	if p.mem != nil {
		p.mem.clearAll()
	}
}

// StateStats reports on the in-memory store (zero with StorageContext).
func (p *Processor) StateStats() StateStats {
	if p.mem == nil {
		return StateStats{}
	}
	return p.mem.stats()
}

// CleanupNow forgets the threads unused for longer than the TTL and
// reports how many it forgot (0 with StorageContext or no TTL). The
// store also does this by itself as it is used.
func (p *Processor) CleanupNow() int {
	if p.mem == nil {
		return 0
	}
	return p.mem.cleanup()
}
