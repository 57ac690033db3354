package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/reconnecttest"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
)

// reconnectPartDelay paces the scripted model so that readers drop both
// in a run's history and while it is live.
const reconnectPartDelay = 100 * time.Microsecond

// TestReconnectLosesAndRepeatsNothing: readers that drop a run's
// reading at random events (stopping, cancelling) and reconnect with
// Observe at the last index seen + 1 read exactly the events of an
// uninterrupted reader: in the agent's own in-memory log, and across two
// agents sharing one Store over a SQLite file. (Two Stores over one file
// see each other's appends at their next poll, a second apart: a test of
// that would measure the poll.)
func TestReconnectLosesAndRepeatsNothing(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		a := newReconnectAgent(t, nil)
		checkReconnects(t, reconnecttest.Replicas{Runner: a, Observer: a}, 16)
	})
	t.Run("sqlite-file", func(t *testing.T) {
		store := openSQLite(t, filepath.Join(memoryBackedDir(t), "mastra.db"))
		checkReconnects(t, reconnecttest.Replicas{Runner: newReconnectAgent(t, store), Observer: newReconnectAgent(t, store)}, 8)
	})
}

func checkReconnects(t *testing.T, r reconnecttest.Replicas, concurrency int) {
	tally := reconnecttest.Run(t, r, reconnecttest.Options{Trials: reconnecttest.Trials(), Concurrency: concurrency, Seed: 14})
	t.Log(tally)
	if tally.Lost != 0 || tally.Repeated != 0 || tally.Altered != 0 {
		t.Errorf("reconnecting readers: %v", tally)
	}
	if tally.Drops < tally.Trials || tally.LiveDrops == 0 {
		t.Errorf("the trials did not drop as planned (live drops are needed too): %v", tally)
	}
}

func newReconnectAgent(t testing.TB, store storage.Store) *agent.Agent {
	t.Helper()
	a, err := agent.New(reconnecttest.Config(store, reconnectPartDelay))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// memoryBackedDir is a temporary directory in /dev/shm when the machine
// has it (a file there is a file to SQLite, but its syncs cost nothing,
// which keeps a thousand runs' commits within the test's time), else
// t.TempDir().
func memoryBackedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "gomastra-reconnect-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func openSQLite(t testing.TB, file string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkStreamEventLog measures a streamed run's cost per chunk with
// each event log: discard (a store that keeps nothing: the encoding and
// hand-over only), memory (the agent's own log), sqlite-file (a SQLite
// file store, each append committed). PostgreSQL's is in the postgres
// module's benchmark of the same name.
func BenchmarkStreamEventLog(b *testing.B) {
	b.Run("discard", func(b *testing.B) { reconnecttest.BenchStreamEventLog(b, reconnecttest.Discard{}) })
	b.Run("memory", func(b *testing.B) { reconnecttest.BenchStreamEventLog(b, nil) })
	b.Run("sqlite-file", func(b *testing.B) {
		reconnecttest.BenchStreamEventLog(b, openSQLite(b, filepath.Join(b.TempDir(), "mastra.db")))
	})
}
