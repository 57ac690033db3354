package sqlite

import (
	"context"
	"errors"
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
