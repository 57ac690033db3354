package builtin_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/gomastra/mastra/storage"
)

// memStore is an in-memory storage.ThreadState for tests. Setting failGet
// or failSet makes the matching calls fail (for the types listed, or all
// types when the list is empty).
type memStore struct {
	mu       sync.Mutex
	values   map[[2]string]json.RawMessage
	failGet  error
	failSet  error
	failOnly []string
	gets     int
	sets     int
}

var _ storage.ThreadState = (*memStore)(nil)

func newMemStore() *memStore { return &memStore{values: map[[2]string]json.RawMessage{}} }

func (s *memStore) fails(typ string) bool {
	return len(s.failOnly) == 0 || slices.Contains(s.failOnly, typ)
}

func (s *memStore) GetThreadState(_ context.Context, threadID, typ string) (json.RawMessage, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets++
	if s.failGet != nil && s.fails(typ) {
		return nil, false, s.failGet
	}
	v, ok := s.values[[2]string{threadID, typ}]
	return slices.Clone(v), ok, nil
}

func (s *memStore) SetThreadState(_ context.Context, threadID, typ string, value json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets++
	if s.failSet != nil && s.fails(typ) {
		return s.failSet
	}
	if !json.Valid(value) {
		return errors.New("memStore: invalid JSON")
	}
	s.values[[2]string{threadID, typ}] = slices.Clone(value)
	return nil
}

// get returns the stored value decoded (nil when none).
func (s *memStore) get(threadID, typ string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	raw, ok := s.values[[2]string{threadID, typ}]
	if !ok {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		panic(err)
	}
	return v
}

func (s *memStore) set(threadID, typ string, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.values[[2]string{threadID, typ}] = raw
}
