package postgres

import (
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/storage/storagetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func openT(t testing.TB, dsn string) *Store {
	t.Helper()
	s, err := Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return openT(t, pgtest.DSN(t))
	})
}

func TestConcurrentMigrations(t *testing.T) {
	// Processes starting together on a new database migrate it once.
	dsn := pgtest.DSN(t)
	var wg sync.WaitGroup
	stores := make([]*Store, 8)
	errs := make([]error, len(stores))
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = Open(t.Context(), dsn) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
			continue
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	if t.Failed() {
		return
	}
	var versions []int
	rows, err := stores[0].pool.Query(t.Context(), `SELECT version FROM mastra_schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(versions) != len(migrations) || versions[len(versions)-1] != len(migrations) {
		t.Errorf("schema versions %v, want 1..%d once each", versions, len(migrations))
	}
}

func TestReopen(t *testing.T) {
	ctx := t.Context()
	dsn := pgtest.DSN(t)
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveRun(ctx, storage.Run{RunID: "run", Kind: storage.KindAgent, Name: "a", Status: storage.RunSuspended, Snapshot: []byte(`{"step":1}`)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	s = openT(t, dsn)
	r, err := s.GetRun(ctx, "run")
	if err != nil || r.Version != 1 || string(r.Snapshot) != `{"step":1}` {
		t.Errorf("run after reopen: %+v, %v", r, err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := t.Context()
	dsn := pgtest.DSN(t)
	s := openT(t, dsn)
	if _, err := s.pool.Exec(ctx, `INSERT INTO mastra_schema_migrations (version, applied_at) VALUES ($1, now())`, len(migrations)+1); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(ctx, dsn)
	if err == nil {
		s2.Close()
		t.Fatal("Open of a database with a newer schema succeeded")
	}
	if !strings.Contains(err.Error(), "newer than this build") {
		t.Errorf("error %q does not say the schema is newer", err)
	}
}

func TestTwoStoresOneDatabase(t *testing.T) {
	// Two Stores (two pools) stand for two processes: claims and run
	// versions hold across them.
	ctx := t.Context()
	dsn := pgtest.DSN(t)
	a, b := openT(t, dsn), openT(t, dsn)
	v, err := a.SaveRun(ctx, storage.Run{RunID: "run", Kind: storage.KindAgent, Name: "x", Status: storage.RunSuspended})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	claimErrs, saveErrs := make([]error, 16), make([]error, 16)
	for i := range claimErrs {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			claimErrs[i] = s.ClaimResume(ctx, "run", "call", "p")
			_, saveErrs[i] = s.SaveRun(ctx, storage.Run{RunID: "run", Kind: storage.KindAgent, Name: "x", Status: storage.RunRunning, Version: v})
		})
	}
	wg.Wait()
	storagetest.OneWinner(t, "ClaimResume", claimErrs)
	storagetest.OneWinner(t, "SaveRun", saveErrs)
}

func TestOpenBadDSN(t *testing.T) {
	if s, err := Open(t.Context(), "postgres://127.0.0.1:bad/x"); err == nil {
		s.Close()
		t.Error("Open with a bad DSN succeeded")
	}
}
