package postgres

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

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

func TestMigrateKeepsRuns(t *testing.T) {
	// A database of schema version 1 with a run: Open adds the deltas'
	// table and the run goes on with appends.
	ctx := t.Context()
	dsn := pgtest.DSN(t)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	stmts := append([]string{`CREATE TABLE mastra_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)`},
		migrations[0]...)
	stmts = append(stmts,
		`INSERT INTO mastra_schema_migrations (version, applied_at) VALUES (1, now())`,
		`INSERT INTO mastra_runs (run_id, kind, name, status, snapshot, version, created_at, updated_at)
			VALUES ('run', 'agent', 'a', 'suspended', '{"step":3}', 7, now(), now())`)
	for _, stmt := range stmts {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	conn.Close(ctx)

	s := openT(t, dsn)
	r, err := s.GetRun(ctx, "run")
	if err != nil || r.Version != 7 || string(r.Snapshot) != `{"step":3}` || r.Deltas != nil {
		t.Fatalf("run after the migration: %+v, %v", r, err)
	}
	if v, err := s.AppendRun(ctx, "run", 7, storage.RunRunning, []byte(`{"step":4}`)); err != nil || v != 8 {
		t.Fatalf("AppendRun after the migration: %d, %v", v, err)
	}
	r, err = s.GetRun(ctx, "run")
	if err != nil || r.Version != 8 || len(r.Deltas) != 1 || string(r.Deltas[0]) != `{"step":4}` {
		t.Errorf("run after an append: %+v, %v", r, err)
	}
}

func TestAppendWritesDoNotGrow(t *testing.T) {
	// What an append adds to the WAL does not depend on the size of the
	// run's snapshot nor on its number of deltas.
	ctx := t.Context()
	s := openT(t, pgtest.DSN(t))
	lsn := func() int64 {
		var at int64
		if err := s.pool.QueryRow(ctx, `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint`).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	measure := func(snapSize, deltas int) int64 {
		id := fmt.Sprintf("run-%d-%d", snapSize, deltas)
		v, err := s.SaveRun(ctx, storage.Run{RunID: id, Kind: storage.KindAgent, Name: "a", Status: storage.RunRunning,
			Snapshot: incompressible(snapSize)})
		if err != nil {
			t.Fatal(err)
		}
		d := incompressible(1000)
		for range deltas {
			if v, err = s.AppendRun(ctx, id, v, storage.RunRunning, d); err != nil {
				t.Fatal(err)
			}
		}
		// The median of 21 appends: a checkpoint meanwhile makes the
		// next write of each page log it whole, once.
		sizes := make([]int64, 21)
		for i := range sizes {
			status := storage.RunRunning
			if i%2 == 0 {
				status = storage.RunSuspended
			}
			start := lsn()
			if v, err = s.AppendRun(ctx, id, v, status, d); err != nil {
				t.Fatal(err)
			}
			sizes[i] = lsn() - start
		}
		slices.Sort(sizes)
		return sizes[len(sizes)/2]
	}
	small, big, long := measure(100, 0), measure(1<<20, 0), measure(100, 300)
	t.Logf("WAL bytes per append: 100 B snapshot %d, 1 MB snapshot %d, 300 deltas %d", small, big, long)
	for _, got := range []int64{big, long} {
		if got > 2*small {
			t.Errorf("an append wrote %d bytes of WAL, more than twice the %d of an append to a small run", got, small)
		}
	}
}

// incompressible is a JSON string of about size bytes that does not
// compress (TOAST would otherwise keep a large snapshot small).
func incompressible(size int) []byte {
	b := make([]byte, 0, size+2)
	b = append(b, '"')
	h := sha256.Sum256(nil)
	for len(b) < size {
		h = sha256.Sum256(h[:])
		b = hex.AppendEncode(b, h[:])
	}
	return append(b[:max(size, 1)], '"')
}
