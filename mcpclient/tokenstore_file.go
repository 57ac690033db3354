package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// FileTokenStore is a TokenStore in one JSON file, for CLIs and the dev
// server: the file is readable by its owner only (0600), replaced
// atomically (written to a temporary file in the same directory, then
// renamed), and the store is safe for concurrent use within a process.
// Two processes sharing the file may lose each other's writes (the last
// replacement wins), never get a torn file.
type FileTokenStore struct {
	path string
	mu   sync.Mutex
}

var _ TokenStore = (*FileTokenStore)(nil)

// NewFileTokenStore returns a store in the file at path (created on the
// first Save; its directory must exist).
func NewFileTokenStore(path string) *FileTokenStore {
	return &FileTokenStore{path: path}
}

// fileEntry is one key's tokens in the file.
type fileEntry struct {
	Server string       `json:"server"`
	Tenant string       `json:"tenant,omitempty"`
	Tokens StoredTokens `json:"tokens"`
}

// fileContents is the file's JSON.
type fileContents struct {
	Entries []fileEntry `json:"entries"`
}

// Load returns the tokens stored for key.
func (s *FileTokenStore) Load(_ context.Context, key TokenKey) (*StoredTokens, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.read()
	if err != nil {
		return nil, err
	}
	for _, e := range c.Entries {
		if e.Server == key.Server && e.Tenant == key.Tenant {
			return copyTokens(&e.Tokens), nil
		}
	}
	return nil, fmt.Errorf("%w for server %q", ErrNoTokens, key.Server)
}

// Save replaces the tokens stored for key.
func (s *FileTokenStore) Save(_ context.Context, key TokenKey, t *StoredTokens) error {
	if err := checkStored(t); err != nil {
		return err
	}
	return s.update(func(c *fileContents) {
		c.Entries = without(c.Entries, key)
		c.Entries = append(c.Entries, fileEntry{Server: key.Server, Tenant: key.Tenant, Tokens: *copyTokens(t)})
	})
}

// Delete removes the tokens stored for key.
func (s *FileTokenStore) Delete(_ context.Context, key TokenKey) error {
	return s.update(func(c *fileContents) { c.Entries = without(c.Entries, key) })
}

func without(entries []fileEntry, key TokenKey) []fileEntry {
	out := entries[:0]
	for _, e := range entries {
		if e.Server != key.Server || e.Tenant != key.Tenant {
			out = append(out, e)
		}
	}
	return out
}

// update reads the file, applies fn and replaces the file.
func (s *FileTokenStore) update(fn func(*fileContents)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.read()
	if err != nil {
		return err
	}
	fn(c)
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("mcpclient: encoding token store: %w", err)
	}
	return writeAtomic(s.path, data)
}

// read parses the file; a missing file is an empty store.
func (s *FileTokenStore) read() (*fileContents, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return &fileContents{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mcpclient: reading token store: %w", err)
	}
	var c fileContents
	if err := json.Unmarshal(data, &c); err != nil {
		// The JSON error may quote the file's bytes: do not include it.
		return nil, fmt.Errorf("mcpclient: token store %s is not valid JSON; fix or delete it", s.path)
	}
	return &c, nil
}

// writeAtomic replaces path with data, mode 0600.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("mcpclient: writing token store: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(0o600)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("mcpclient: writing token store: %w", werr)
	}
	return nil
}
