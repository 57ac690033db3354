package agent

import (
	"context"

	"github.com/gomastra/mastra/storage"
)

// indexedPublisher appends the events of a run on a ReplayingEngine:
// each at once (a driver that is replayed must not leave events to a
// goroutine), and each at its place in the log. The driver publishes the
// same events in the same order each time it runs, so the n-th event
// published belongs at index n: an event the log already holds (a
// replay, or a run again of work whose record was lost with its worker)
// is not appended again.
type indexedPublisher struct {
	store  *storeLog
	runID  string
	owner  RunOwner
	next   int64 // index of the next event published
	held   int64 // events the log held when first read; -1: not read
	failed bool
}

func (s *storeLog) indexedPublisher(runID string, owner RunOwner) publisher {
	return &indexedPublisher{store: s, runID: runID, owner: owner, held: -1}
}

func (p *indexedPublisher) publish(e RunEvent) {
	se, err := encodeEvent(e)
	if err != nil {
		p.store.log.Warn("agent: a run event that cannot be encoded is not logged", "runId", p.runID, "type", e.Type, "error", err)
		return
	}
	p.appendAt(se)
}

// close appends the final event.
func (p *indexedPublisher) close(final string, _ bool) {
	if p.next == 0 {
		return // nothing was published
	}
	p.appendAt(storage.Event{Type: final})
}

// appendAt appends e as event p.next unless the log holds that one.
func (p *indexedPublisher) appendAt(e storage.Event) {
	index := p.next
	p.next++
	if p.failed || !p.readHeld() || index < p.held {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeAppendTimeout)
	defer cancel()
	at, err := p.store.events.AppendEvents(ctx, p.runID, e)
	if err != nil {
		p.fail(err)
		return
	}
	p.held = at + 1
	if at != index {
		p.store.log.Error("agent: a run's event landed out of place: another process appends to its log", "runId", p.runID, "index", index, "at", at)
	}
}

// readHeld learns, once, how many events the log holds, and logs the
// run's owner when the log is new.
func (p *indexedPublisher) readHeld() bool {
	if p.held >= 0 {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeAppendTimeout)
	defer cancel()
	events, err := p.store.events.ReadEvents(ctx, p.runID, 0, 0)
	if err != nil {
		p.fail(err)
		return false
	}
	p.held = int64(len(events))
	if p.held == 0 {
		sp := storePublisher{store: p.store, runID: p.runID, owner: p.owner}
		sp.logOwner()
	}
	return true
}

func (p *indexedPublisher) fail(err error) {
	p.failed = true
	p.store.log.Error("agent: the run's events are no longer logged", "runId", p.runID, "error", storage.ErrorDetail(err))
}
