package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/storagetest"
)

func openT(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformanceFile(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return openT(t, filepath.Join(t.TempDir(), "mastra.db"))
	})
}

func TestConformanceMemory(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return openT(t, Memory)
	})
}

func TestMemoryStoresArePrivate(t *testing.T) {
	ctx := t.Context()
	a, b := openT(t, Memory), openT(t, Memory)
	if err := a.SaveThread(ctx, storage.Thread{ID: "t", ResourceID: "r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.GetThread(ctx, "t"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a thread saved in one in-memory store is in another: err = %v", err)
	}
}

func TestReopenKeepsData(t *testing.T) {
	ctx := t.Context()
	// A parent directory that does not exist yet.
	path := filepath.Join(t.TempDir(), ".mastra", "nested", "mastra.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveThread(ctx, storage.Thread{ID: "t", ResourceID: "r", Title: "kept"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMessages(ctx, []storage.Message{{ID: "m", ThreadID: "t", Role: "user", Content: []byte(`{"role":"user"}`)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveRun(ctx, storage.Run{RunID: "run", Kind: storage.KindAgent, Name: "a", Status: storage.RunSuspended, Snapshot: []byte(`{"step":1}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimResume(ctx, "run", "call", "me"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	s = openT(t, path)
	th, err := s.GetThread(ctx, "t")
	if err != nil || th.Title != "kept" {
		t.Errorf("thread after reopen: %+v, %v", th, err)
	}
	if m, err := s.GetMessage(ctx, "m"); err != nil || string(m.Content) != `{"role":"user"}` {
		t.Errorf("message after reopen: %+v, %v", m, err)
	}
	r, err := s.GetRun(ctx, "run")
	if err != nil || r.Version != 1 || string(r.Snapshot) != `{"step":1}` {
		t.Errorf("run after reopen: %+v, %v", r, err)
	}
	if err := s.ClaimResume(ctx, "run", "call", "other"); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("claim after reopen: err = %v, want ErrConflict", err)
	}
}

func TestOpenIsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	a := openT(t, path)
	b := openT(t, path) // a second Store on the same file, both open
	var versions []int
	rows, err := b.r.QueryContext(t.Context(), `SELECT version FROM mastra_schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, v)
	}
	if len(versions) != len(migrations) || versions[len(versions)-1] != len(migrations) {
		t.Errorf("schema versions %v, want 1..%d once each", versions, len(migrations))
	}
	var mode string
	if err := a.w.QueryRowContext(t.Context(), `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := b.r.QueryRowContext(t.Context(), `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
}

func TestConcurrentOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			s, err := Open(t.Context(), path)
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
		}
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "mastra.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO mastra_schema_migrations (version, applied_at) VALUES (?, 0)`, len(migrations)+1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err == nil {
		s.Close()
		t.Fatal("Open of a database with a newer schema succeeded")
	}
	if !strings.Contains(err.Error(), "newer than this build") {
		t.Errorf("error %q does not say the schema is newer", err)
	}
}

func TestTwoStoresOneFile(t *testing.T) {
	// Two Stores on one file stand for two processes: their writers
	// wait for each other (busy timeout), claims stay exclusive.
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "mastra.db")
	a, b := openT(t, path), openT(t, path)
	if _, err := a.SaveRun(ctx, storage.Run{RunID: "run", Kind: storage.KindAgent, Name: "x", Status: storage.RunSuspended}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			errs[i] = s.ClaimResume(ctx, "run", "call", "p")
			if err := s.SaveMessages(ctx, []storage.Message{{ID: string(rune('a' + i)), ThreadID: "t"}}); err != nil {
				t.Errorf("SaveMessages: %v", err)
			}
		})
	}
	wg.Wait()
	storagetest.OneWinner(t, "ClaimResume", errs)
	msgs, err := b.ListMessages(ctx, "t", 0)
	if err != nil || len(msgs) != 16 {
		t.Errorf("ListMessages: %d messages, %v; want 16", len(msgs), err)
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	for _, dsn := range []string{"", "file:x.db?mode=memory"} {
		if s, err := Open(ctx, dsn); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", dsn)
		}
	}
	// A parent that is a file.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(ctx, filepath.Join(dir, "f", "mastra.db")); err == nil {
		s.Close()
		t.Error("Open under a file succeeded")
	}
}

func TestMigrateKeepsRuns(t *testing.T) {
	// A database of schema version 1 (snapshots in mastra_runs) with a
	// run and a claim: Open moves the snapshot to mastra_run_snapshots
	// and the run goes on with appends.
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "mastra.db")
	db, err := sql.Open("sqlite", fileURI(path, true))
	if err != nil {
		t.Fatal(err)
	}
	stmts := append([]string{`CREATE TABLE mastra_schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`},
		migrations[0]...)
	stmts = append(stmts,
		`INSERT INTO mastra_schema_migrations (version, applied_at) VALUES (1, 0)`,
		`INSERT INTO mastra_runs (run_id, kind, name, thread_id, resource_id, status, snapshot, version, created_at, updated_at)
			VALUES ('run', 'agent', 'a', 't', 'r', 'suspended', '{"step":3}', 7, 1000, 2000),
			('bare', 'workflow', 'w', '', '', 'running', NULL, 1, 1000, 3000)`,
		`INSERT INTO mastra_run_claims (run_id, claim_key, owner, claimed_at) VALUES ('run', 'v6', 'old', 1500)`)
	for _, stmt := range stmts {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()

	s := openT(t, path)
	r, err := s.GetRun(ctx, "run")
	if err != nil || r.Version != 7 || string(r.Snapshot) != `{"step":3}` || r.Status != storage.RunSuspended || r.Deltas != nil ||
		r.ThreadID != "t" || !r.CreatedAt.Equal(fromMicros(1000)) {
		t.Fatalf("run after the migration: %+v, %v", r, err)
	}
	if r, err := s.GetRun(ctx, "bare"); err != nil || r.Snapshot != nil {
		t.Errorf("run without a snapshot after the migration: %+v, %v", r, err)
	}
	if err := s.ClaimResume(ctx, "run", "v6", "new"); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("claim taken before the migration: err = %v, want ErrConflict", err)
	}
	v, err := s.AppendRun(ctx, "run", 7, storage.RunRunning, []byte(`{"step":4}`))
	if err != nil || v != 8 {
		t.Fatalf("AppendRun after the migration: %d, %v", v, err)
	}
	r, err = s.GetRun(ctx, "run")
	if err != nil || r.Version != 8 || len(r.Deltas) != 1 || string(r.Deltas[0]) != `{"step":4}` || string(r.Snapshot) != `{"step":3}` {
		t.Errorf("run after an append: %+v, %v", r, err)
	}
	var columns int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('mastra_runs') WHERE name = 'snapshot'`).Scan(&columns); err != nil || columns != 0 {
		t.Errorf("mastra_runs still has a snapshot column: %d, %v", columns, err)
	}
}

func TestAppendWritesDoNotGrow(t *testing.T) {
	// What an append writes to the WAL does not depend on the size of the
	// run's snapshot nor on its number of deltas, even when the status
	// changes the run row's size.
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "mastra.db")
	s := openT(t, path)
	written := walMeter(t, s, path)
	measure := func(snapSize, deltas int) int64 {
		id := fmt.Sprintf("run-%d-%d", snapSize, deltas)
		v, err := s.SaveRun(ctx, storage.Run{RunID: id, Kind: storage.KindAgent, Name: "a", Status: storage.RunRunning,
			Snapshot: []byte(`{"pad":"` + strings.Repeat("x", snapSize) + `"}`)})
		if err != nil {
			t.Fatal(err)
		}
		d := []byte(`{"pad":"` + strings.Repeat("y", 1000) + `"}`)
		for range deltas {
			if v, err = s.AppendRun(ctx, id, v, storage.RunRunning, d); err != nil {
				t.Fatal(err)
			}
		}
		written()
		const n = 20
		for i := range n {
			status := storage.RunRunning
			if i%2 == 0 {
				status = storage.RunSuspended
			}
			if v, err = s.AppendRun(ctx, id, v, status, d); err != nil {
				t.Fatal(err)
			}
		}
		return written() / n
	}
	small, big, long := measure(100, 0), measure(1<<20, 0), measure(100, 300)
	t.Logf("WAL bytes per append: 100 B snapshot %d, 1 MB snapshot %d, 300 deltas %d", small, big, long)
	for _, got := range []int64{big, long} {
		if got > 2*small {
			t.Errorf("an append wrote %d bytes, more than twice the %d of an append to a small run", got, small)
		}
	}
}
