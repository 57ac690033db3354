package bgtasks

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gomastra/mastra/storage"
)

// NewMemoryStore returns a Store kept in this process's memory, for
// Managers of this process only. It keeps every contract of Store.
func NewMemoryStore() Store {
	return &memoryStore{tasks: map[string]Task{}, pending: map[string]struct{}{}, running: map[string]int{}}
}

// memoryStore keeps the tasks by id, with an index of the pending ones
// and the count of running ones per agent, so that a claim costs the
// pending tasks, not all the tasks kept.
type memoryStore struct {
	mu      sync.Mutex
	tasks   map[string]Task
	pending map[string]struct{}
	running map[string]int // by agent
}

// put stores t, keeping the index and counts.
func (s *memoryStore) put(t Task) {
	s.remove(t.ID)
	s.tasks[t.ID] = t
	switch t.Status {
	case Pending:
		s.pending[t.ID] = struct{}{}
	case Running:
		s.running[t.AgentID]++
	}
}

// remove deletes the task, keeping the index and counts.
func (s *memoryStore) remove(id string) {
	old, ok := s.tasks[id]
	if !ok {
		return
	}
	delete(s.tasks, id)
	delete(s.pending, id)
	if old.Status == Running {
		if s.running[old.AgentID]--; s.running[old.AgentID] == 0 {
			delete(s.running, old.AgentID)
		}
	}
}

func (s *memoryStore) CreateTask(_ context.Context, t Task) error {
	if err := CheckNewTask(t); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[t.ID]; ok {
		return fmt.Errorf("memory: create task %s: %w", t.ID, storage.ErrConflict)
	}
	t = t.Clone()
	t.Version = 1
	s.put(t)
	return nil
}

func (s *memoryStore) GetTask(_ context.Context, id string) (Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok {
		return Task{}, fmt.Errorf("memory: task %s: %w", id, storage.ErrNotFound)
	}
	return t.Clone(), nil
}

func (s *memoryStore) UpdateTask(_ context.Context, t Task) (Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.tasks[t.ID]
	switch {
	case !ok:
		return Task{}, fmt.Errorf("memory: update task %s: %w", t.ID, storage.ErrNotFound)
	case old.Version != t.Version:
		return Task{}, fmt.Errorf("memory: update task %s: version %d, not %d: %w", t.ID, old.Version, t.Version, storage.ErrConflict)
	}
	t = KeepIdentity(old, t.Clone())
	t.Version = old.Version + 1
	s.put(t)
	return t.Clone(), nil
}

func (s *memoryStore) ListTasks(_ context.Context, f Filter) ([]Task, int, error) {
	s.mu.Lock()
	all := s.selectLocked(f)
	s.mu.Unlock()
	f.Sort(all)
	return f.PageOf(all), len(all), nil
}

func (s *memoryStore) selectLocked(f Filter) []Task {
	var out []Task
	for _, t := range s.tasks {
		if f.Matches(t) {
			out = append(out, t.Clone())
		}
	}
	return out
}

func (s *memoryStore) DeleteTasks(_ context.Context, f Filter) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doomed := s.selectLocked(f)
	for _, t := range doomed {
		s.remove(t.ID)
	}
	return len(doomed), nil
}

func (s *memoryStore) DeleteTask(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.remove(id)
	return nil
}

func (s *memoryStore) ClaimTasks(_ context.Context, c Claim) ([]Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now().UTC()
	picked := PickClaims(c, s.running, s.pendingOldestFirst(c.IDs), now)
	for i, t := range picked {
		t = Claimed(t, c, now)
		s.put(t)
		picked[i] = t.Clone()
	}
	return picked, nil
}

// pendingOldestFirst returns the pending tasks, those of ids when not
// empty, oldest first (ties by id). It sorts their keys, not the tasks,
// which are large.
func (s *memoryStore) pendingOldestFirst(ids []string) []Task {
	type key struct {
		created time.Time
		id      string
	}
	var keys []key
	if len(ids) > 0 {
		for _, id := range ids {
			if _, ok := s.pending[id]; ok {
				keys = append(keys, key{s.tasks[id].CreatedAt, id})
			}
		}
	} else {
		for id := range s.pending {
			keys = append(keys, key{s.tasks[id].CreatedAt, id})
		}
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(a.created.Compare(b.created), cmp.Compare(a.id, b.id)) })
	pending := make([]Task, len(keys))
	for i, k := range keys {
		pending[i] = s.tasks[k.id]
	}
	return pending
}

func (s *memoryStore) RenewLeases(_ context.Context, owner string, ids []string, until time.Time) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var held []string
	for _, id := range ids {
		t, ok := s.tasks[id]
		if ok && t.Status == Running && t.Owner == owner && !slices.Contains(held, id) {
			t.LeaseUntil = until
			s.tasks[id] = t
			held = append(held, id)
		}
	}
	slices.Sort(held)
	return held, nil
}
