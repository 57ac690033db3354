package mcpclient

import (
	"context"
	"fmt"
	"sync"
)

// MemoryTokenStore is a TokenStore in memory, for tests and for processes
// that authorize on every start. The zero value is ready to use.
type MemoryTokenStore struct {
	mu sync.Mutex
	m  map[TokenKey]StoredTokens
}

var _ TokenStore = (*MemoryTokenStore)(nil)

// Load returns a copy of the tokens stored for key.
func (s *MemoryTokenStore) Load(_ context.Context, key TokenKey) (*StoredTokens, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.m[key]
	if !ok {
		return nil, fmt.Errorf("%w for server %q", ErrNoTokens, key.Server)
	}
	return copyTokens(&t), nil
}

// Save stores a copy of t.
func (s *MemoryTokenStore) Save(_ context.Context, key TokenKey, t *StoredTokens) error {
	if err := checkStored(t); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[TokenKey]StoredTokens{}
	}
	s.m[key] = *copyTokens(t)
	return nil
}

// Delete forgets key.
func (s *MemoryTokenStore) Delete(_ context.Context, key TokenKey) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
	return nil
}

// copyTokens copies t deeply enough that neither copy changes the other.
func copyTokens(t *StoredTokens) *StoredTokens {
	c := *t
	if t.Token != nil {
		tok := *t.Token
		c.Token = &tok
	}
	return &c
}

// checkStored rejects tokens a store must not keep.
func checkStored(t *StoredTokens) error {
	if t == nil || t.Token == nil || t.Token.AccessToken == "" {
		return fmt.Errorf("mcpclient: refusing to store OAuth tokens without an access token")
	}
	return nil
}
