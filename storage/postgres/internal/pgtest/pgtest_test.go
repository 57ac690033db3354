package pgtest

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func TestDSNFreshDatabases(t *testing.T) {
	a, b := DSN(t), DSN(t)
	if a == b {
		t.Fatalf("two DSN calls returned the same database %s", a)
	}
	if os.Getenv(EnvURL) == "" && !strings.Contains(a, "@127.0.0.1:") {
		t.Errorf("scratch cluster DSN %s is not on 127.0.0.1", a)
	}
	ca, cb := connect(t, a), connect(t, b)
	var tables int
	if err := ca.QueryRow(t.Context(), `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&tables); err != nil || tables != 0 {
		t.Fatalf("a fresh database has %d tables (%v)", tables, err)
	}
	if _, err := ca.Exec(t.Context(), `CREATE TABLE only_in_a (x int)`); err != nil {
		t.Fatal(err)
	}
	if err := cb.QueryRow(t.Context(), `SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'`).Scan(&tables); err != nil || tables != 0 {
		t.Errorf("a table of one database is in another: %d (%v)", tables, err)
	}
}

func TestDSNConcurrent(t *testing.T) {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		seen = map[string]bool{}
	)
	for range 8 {
		wg.Go(func() {
			dsn := DSN(t)
			conn, err := pgx.Connect(t.Context(), dsn)
			if err != nil {
				t.Errorf("connect: %v", err)
				return
			}
			conn.Close(context.Background())
			mu.Lock()
			seen[dsn] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != 8 {
		t.Errorf("8 concurrent DSN calls gave %d databases", len(seen))
	}
}

func TestDatabaseDroppedAfterTest(t *testing.T) {
	var name string
	t.Run("owner", func(t *testing.T) {
		conn := connect(t, DSN(t))
		if err := conn.QueryRow(t.Context(), `SELECT current_database()`).Scan(&name); err != nil {
			t.Fatal(err)
		}
	})
	admin := connect(t, DSN(t))
	var n int
	if err := admin.QueryRow(t.Context(), `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil || n != 0 {
		t.Errorf("database %s of an ended test still exists (%d, %v)", name, n, err)
	}
}

func TestWithDatabase(t *testing.T) {
	for _, tc := range []struct{ dsn, want string }{
		{"postgres://u:p@127.0.0.1:5432/postgres?sslmode=disable", "postgres://u:p@127.0.0.1:5432/x?sslmode=disable"},
		{"postgresql://127.0.0.1", "postgresql://127.0.0.1/x"},
		{"host=127.0.0.1 user=u dbname=postgres", "host=127.0.0.1 user=u dbname=postgres dbname=x"},
	} {
		got, err := withDatabase(tc.dsn, "x")
		if err != nil || got != tc.want {
			t.Errorf("withDatabase(%q) = %q, %v; want %q", tc.dsn, got, err, tc.want)
		}
		if _, err := pgx.ParseConfig(got); err != nil {
			t.Errorf("pgx cannot parse %q: %v", got, err)
		} else if cfg, _ := pgx.ParseConfig(got); cfg.Database != "x" {
			t.Errorf("%q names database %q, want x", got, cfg.Database)
		}
	}
}
