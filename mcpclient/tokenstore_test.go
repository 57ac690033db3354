package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/gomastra/mastra/storage/sqlite"
)

// Every TokenStore keeps keys apart, replaces, deletes, and refuses
// tokens without an access token.
func TestTokenStores(t *testing.T) {
	db, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	stores := map[string]TokenStore{
		"memory":  &MemoryTokenStore{},
		"file":    NewFileTokenStore(filepath.Join(t.TempDir(), "tokens.json")),
		"storage": NewStorageTokenStore(db),
	}
	for name, s := range stores {
		t.Run(name, func(t *testing.T) { testTokenStore(t, s) })
	}
}

func testTokenStore(t *testing.T, s TokenStore) {
	ctx := ctxT(t)
	alice, bob := TokenKey{Server: "srv", Tenant: "alice"}, TokenKey{Server: "srv", Tenant: "bob"}
	if _, err := s.Load(ctx, alice); !errors.Is(err, ErrNoTokens) {
		t.Fatalf("Load of nothing: %v, want ErrNoTokens", err)
	}
	tok := func(a string) *StoredTokens {
		return &StoredTokens{Token: &oauth2.Token{AccessToken: a, RefreshToken: "r-" + a, Expiry: time.Unix(2e9, 0).UTC()},
			Client: StoredClient{ClientID: "cid", ClientSecret: "sec", TokenURL: "http://127.0.0.1/token", AuthStyle: oauth2.AuthStyleInHeader}}
	}
	for _, step := range []struct {
		key TokenKey
		t   *StoredTokens
	}{{alice, tok("a1")}, {bob, tok("b1")}, {alice, tok("a2")}} {
		if err := s.Save(ctx, step.key, step.t); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(ctx, alice)
	if err != nil || got.Token.AccessToken != "a2" || got.Token.RefreshToken != "r-a2" || got.Client != tok("").Client || !got.Token.Expiry.Equal(time.Unix(2e9, 0)) {
		t.Fatalf("Load(alice) = %+v, %v", got, err)
	}
	if err := s.Delete(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, alice); !errors.Is(err, ErrNoTokens) {
		t.Fatalf("Load after Delete: %v", err)
	}
	if got, err := s.Load(ctx, bob); err != nil || got.Token.AccessToken != "b1" {
		t.Fatalf("Load(bob) = %+v, %v", got, err)
	}
	if err := s.Save(ctx, bob, &StoredTokens{Token: &oauth2.Token{}}); err == nil {
		t.Fatal("saved tokens without an access token")
	}
}

// Concurrent saves of different keys all land; the file stays 0600 and
// valid.
func TestFileTokenStoreConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	s := NewFileTokenStore(path)
	ctx := ctxT(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := TokenKey{Server: "srv", Tenant: fmt.Sprint(i)}
			if err := s.Save(ctx, key, &StoredTokens{Token: &oauth2.Token{AccessToken: fmt.Sprint("t", i)}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range 20 {
		if got, err := s.Load(ctx, TokenKey{Server: "srv", Tenant: fmt.Sprint(i)}); err != nil || got.Token.AccessToken != fmt.Sprint("t", i) {
			t.Fatalf("tenant %d: %+v, %v", i, got, err)
		}
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", info.Mode(), err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".tokens.json.tmp*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

// A corrupt file is reported without its contents and is not replaced.
func TestFileTokenStoreCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(path, []byte(`{"entries":[{"secret-access-token`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewFileTokenStore(path)
	_, err := s.Load(ctxT(t), TokenKey{Server: "srv"})
	if err == nil || strings.Contains(err.Error(), "secret-access-token") || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("Load = %v", err)
	}
	if err := s.Save(ctxT(t), TokenKey{Server: "srv"}, &StoredTokens{Token: &oauth2.Token{AccessToken: "x"}}); err == nil {
		t.Fatal("Save replaced a corrupt file")
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "secret-access-token") {
		t.Fatal("the corrupt file was changed")
	}
}
