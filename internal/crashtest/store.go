package crashtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/internal/pgtest"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres"
	"github.com/gomastra/mastra/storage/sqlite"
)

// OpenStore opens the store spec names: "sqlite:<path>" or
// "postgres:<dsn>". It fails the test on error; the caller closes the
// store.
func OpenStore(t testing.TB, spec string) storage.Store {
	t.Helper()
	var (
		s   storage.Store
		err error
	)
	switch kind, arg, _ := strings.Cut(spec, ":"); kind {
	case "sqlite":
		s, err = sqlite.Open(context.Background(), arg)
	case "postgres":
		s, err = postgres.Open(context.Background(), arg)
	default:
		err = fmt.Errorf("unknown store %q", spec)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Restart stands for the process that comes after a crash: it clears
// env.Block (that process must run to the end) and opens env.Store,
// which is closed when t ends.
func Restart(t *testing.T, env *Env) storage.Store {
	t.Helper()
	env.Block = false
	store := OpenStore(t, env.Store)
	t.Cleanup(func() { _ = store.Close() })
	return store
}

// Stores are the backends the durable-run tests run on, by name: each
// function returns the spec (for OpenStore) of a fresh store for t, a
// SQLite file in t's temporary directory or a PostgreSQL database from
// pgtest.DSN.
func Stores() map[string]func(t *testing.T) string {
	return map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "mastra.db") },
		"postgres": func(t *testing.T) string { return "postgres:" + pgtest.DSN(t) },
	}
}

// EachStore runs f as a subtest on each of Stores, named for it, with
// env on a fresh store of that kind and a fresh execution log (env.Store
// and env.Log set, the rest as given).
func EachStore(t *testing.T, env Env, f func(t *testing.T, env Env)) {
	t.Helper()
	for name, newStore := range Stores() {
		t.Run(name, func(t *testing.T) {
			env := env
			env.Store = newStore(t)
			env.Log = filepath.Join(t.TempDir(), "exec.log")
			f(t, env)
		})
	}
}

// PollRun polls store, every 5ms, until done reports true of the saved
// snapshot of run runID, or until ctx ends. A run not (yet) readable is
// polled again.
func PollRun(ctx context.Context, store storage.Runs, runID string, done func(snapshot json.RawMessage) bool) {
	for ctx.Err() == nil {
		if r, err := store.GetRun(ctx, runID); err == nil && done(r.Snapshot) {
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
