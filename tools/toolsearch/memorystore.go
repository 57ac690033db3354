package toolsearch

import (
	"sync"
	"time"

	"github.com/gomastra/mastra/model"
)

// defaultThread is the in-memory store's key for runs without a thread:
// they all share it, as in Mastra.
const defaultThread = "default"

// DefaultTTL is how long the in-memory store keeps a thread's loaded tools
// after their last use.
const DefaultTTL = time.Hour

// minSweepInterval bounds how often the in-memory store scans all threads
// for expired state (it scans at most every max(TTL/2, one minute)).
const minSweepInterval = time.Minute

// memoryStore is the "in-memory" store: loaded names per thread, each
// thread forgotten once unused for longer than ttl (never when ttl <= 0).
// Expiry is checked when a thread is used, and all threads are swept at
// most every max(ttl/2, one minute) on any use, so no goroutine is needed.
// It is safe for concurrent use.
type memoryStore struct {
	ttl time.Duration
	now func() time.Time

	mu        sync.Mutex
	threads   map[string]*threadLoads
	nextSweep time.Time
}

type threadLoads struct {
	names        nameSet
	lastAccessed time.Time
}

func newMemoryStore(ttl time.Duration, now func() time.Time) *memoryStore {
	return &memoryStore{ttl: ttl, now: now, threads: make(map[string]*threadLoads)}
}

func (s *memoryStore) loaded(threadID string, _ []model.Message) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.thread(threadID).names.list()
}

func (s *memoryStore) add(threadID string, names []string) {
	if len(names) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.thread(threadID)
	for _, n := range names {
		st.names.add(n)
	}
}

// thread is a thread's state, created if missing or expired, marked as
// used now. The caller holds mu.
func (s *memoryStore) thread(threadID string) *threadLoads {
	if threadID == "" {
		threadID = defaultThread
	}
	now := s.now()
	if s.ttl > 0 && !now.Before(s.nextSweep) {
		s.sweep(now)
		s.nextSweep = now.Add(max(s.ttl/2, minSweepInterval))
	}
	st := s.threads[threadID]
	if st == nil || s.expired(st, now) {
		st = &threadLoads{}
		s.threads[threadID] = st
	}
	st.lastAccessed = now
	return st
}

func (s *memoryStore) expired(st *threadLoads, now time.Time) bool {
	return s.ttl > 0 && now.Sub(st.lastAccessed) > s.ttl
}

// sweep forgets expired threads and reports how many. The caller holds mu.
func (s *memoryStore) sweep(now time.Time) int {
	n := 0
	for id, st := range s.threads {
		if s.expired(st, now) {
			delete(s.threads, id)
			n++
		}
	}
	return n
}

func (s *memoryStore) clear(threadID string) {
	if threadID == "" {
		threadID = defaultThread
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.threads, threadID)
}

func (s *memoryStore) clearAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.threads)
}

func (s *memoryStore) cleanup() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sweep(s.now())
}

func (s *memoryStore) stats() StateStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := StateStats{ThreadCount: len(s.threads)}
	for _, t := range s.threads {
		if st.OldestAccess.IsZero() || t.lastAccessed.Before(st.OldestAccess) {
			st.OldestAccess = t.lastAccessed
		}
	}
	return st
}
