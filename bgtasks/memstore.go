package bgtasks

import (
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
	return &memoryStore{tasks: map[string]Task{}}
}

type memoryStore struct {
	mu    sync.Mutex
	tasks map[string]Task
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
	s.tasks[t.ID] = t
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
	s.tasks[t.ID] = t
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
		delete(s.tasks, t.ID)
	}
	return len(doomed), nil
}

func (s *memoryStore) DeleteTask(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tasks, id)
	return nil
}

func (s *memoryStore) ClaimTasks(_ context.Context, c Claim) ([]Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now().UTC()
	running := s.selectLocked(Filter{Status: []Status{Running}})
	pending := s.selectLocked(Filter{Status: []Status{Pending}})
	Filter{}.Sort(pending)
	picked := PickClaims(c, running, pending, now)
	for i, t := range picked {
		t = Claimed(t, c, now)
		s.tasks[t.ID] = t
		picked[i] = t.Clone()
	}
	return picked, nil
}

func (s *memoryStore) RenewLeases(_ context.Context, owner string, until time.Time) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id, t := range s.tasks {
		if t.Status == Running && t.Owner == owner {
			t.LeaseUntil = until
			s.tasks[id] = t
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}
