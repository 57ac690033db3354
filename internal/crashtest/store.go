package crashtest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
)

// Backend is a kind of store the durable-run tests run on. The parent
// makes a fresh store with New and hands its spec to the children in
// Env.Store; every process opens it with Open. A backend's module
// defines it: SQLite here, PostgreSQL in the storage/postgres module's
// tests.
type Backend struct {
	Name string // e.g. "sqlite"
	// New makes a fresh, empty store for t and returns its spec (for
	// Open): a file path, a DSN.
	New func(t testing.TB) string
	// Open opens the store spec names; the caller closes it.
	Open func(ctx context.Context, spec string) (storage.Store, error)
	// MultiProcess reports that several processes may use one store at
	// once; the scenarios where two processes race for one run need it.
	MultiProcess bool
}

// SQLite is the SQLite backend: a file in t's temporary directory. One
// process uses it at a time.
var SQLite = Backend{
	Name: "sqlite",
	New:  func(t testing.TB) string { return filepath.Join(t.TempDir(), "mastra.db") },
	Open: func(ctx context.Context, path string) (storage.Store, error) {
		s, err := sqlite.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		return s, nil
	},
}

// OpenStore opens the store spec names. It fails t on error and closes
// the store when t ends.
func (b Backend) OpenStore(t testing.TB, spec string) storage.Store {
	t.Helper()
	s, err := b.Open(context.Background(), spec)
	if err != nil {
		t.Fatalf("open %s store: %v", b.Name, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// FreshEnv is env on a fresh store of b and a fresh execution log
// (env.Store and env.Log set, the rest as given).
func (b Backend) FreshEnv(t *testing.T, env Env) Env {
	t.Helper()
	env.Store = b.New(t)
	env.Log = filepath.Join(t.TempDir(), "exec.log")
	return env
}

// Restart stands for the process that comes after a crash: it clears
// env.Block (that process must run to the end) and opens env.Store,
// which is closed when t ends.
func (b Backend) Restart(t *testing.T, env *Env) storage.Store {
	t.Helper()
	env.Block = false
	return b.OpenStore(t, env.Store)
}

// PollRun polls store, every 5ms, until done reports true of the saved
// run runID (its snapshot and the changes saved after it), or until ctx
// ends. A run not (yet) readable is polled again.
func PollRun(ctx context.Context, store storage.Runs, runID string, done func(r *storage.Run) bool) {
	for ctx.Err() == nil {
		if r, err := store.GetRun(ctx, runID); err == nil && done(r) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// LogLine appends line to the execution log at path and syncs it to
// disk, so that it survives a SIGKILL of this process right after; with
// an empty path it does nothing. It panics on error (it runs inside
// tools and steps, which have no *testing.T).
func LogLine(path, line string) {
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		panic(err)
	}
	if err := f.Sync(); err != nil {
		panic(err)
	}
}

// LogLines returns the words of the execution log at path (its lines,
// as LogLine writes words); none when it does not exist.
func LogLines(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}
