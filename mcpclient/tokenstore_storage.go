package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// StorageTokenStore is a TokenStore over gomastra's storage (SQLite,
// Postgres, or any storage.ThreadState), for servers that already keep
// their state there and for multi-tenant deployments with several
// processes.
//
// It keeps each key's tokens as a thread-state value of type
// "mcp-oauth-tokens" under a reserved thread id, "mcp-oauth:" followed by
// the server name and the tenant (JSON-encoded, so no two keys share an
// id). The thread-state table has no foreign key to threads, so no fake
// thread is created, and memory's thread listings never see these rows.
// Resources were not used: a resource is memory's record of a user, and
// its metadata is rewritten whole by working-memory updates, which would
// race with token refreshes. Delete stores JSON null (the interface has no
// delete), which Load reports as nothing stored.
type StorageTokenStore struct {
	state storage.ThreadState
}

var _ TokenStore = (*StorageTokenStore)(nil)

// storageTokenType is the thread-state type the tokens are kept under.
const storageTokenType = "mcp-oauth-tokens"

// NewStorageTokenStore returns a store over st (a storage.Store will do).
func NewStorageTokenStore(st storage.ThreadState) *StorageTokenStore {
	return &StorageTokenStore{state: st}
}

// storageThreadID is the reserved thread id of key.
func storageThreadID(key TokenKey) string {
	b, _ := json.Marshal([]string{key.Server, key.Tenant})
	return "mcp-oauth:" + string(b)
}

// Load returns the tokens stored for key.
func (s *StorageTokenStore) Load(ctx context.Context, key TokenKey) (*StoredTokens, error) {
	v, ok, err := s.state.GetThreadState(ctx, storageThreadID(key), storageTokenType)
	if err != nil {
		return nil, fmt.Errorf("mcpclient: loading OAuth tokens: %w", err)
	}
	var t *StoredTokens
	if ok {
		if err := json.Unmarshal(v, &t); err != nil {
			return nil, fmt.Errorf("mcpclient: stored OAuth tokens for server %q are not valid JSON", key.Server)
		}
	}
	if t == nil {
		return nil, fmt.Errorf("%w for server %q", ErrNoTokens, key.Server)
	}
	return t, nil
}

// Save replaces the tokens stored for key.
func (s *StorageTokenStore) Save(ctx context.Context, key TokenKey, t *StoredTokens) error {
	if err := checkStored(t); err != nil {
		return err
	}
	v, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("mcpclient: encoding OAuth tokens: %w", err)
	}
	if err := s.state.SetThreadState(ctx, storageThreadID(key), storageTokenType, v); err != nil {
		return fmt.Errorf("mcpclient: saving OAuth tokens: %w", err)
	}
	return nil
}

// Delete clears the tokens stored for key.
func (s *StorageTokenStore) Delete(ctx context.Context, key TokenKey) error {
	if err := s.state.SetThreadState(ctx, storageThreadID(key), storageTokenType, json.RawMessage("null")); err != nil {
		return fmt.Errorf("mcpclient: deleting OAuth tokens: %w", err)
	}
	return nil
}
