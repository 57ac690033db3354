// Package pgtest gives tests a real PostgreSQL on this machine.
//
// DSN returns the DSN of a fresh, empty database, created for the caller
// (CREATE DATABASE with a random name) and dropped when the test ends.
// The databases live on one server per test binary:
//
//   - If GOMASTRA_TEST_POSTGRES_URL is set, that server: the variable is
//     a DSN (URL or key=value form) of a role that may CREATE DATABASE.
//   - Otherwise a scratch cluster, started at the first DSN call: initdb
//     (found on PATH, else in the newest /usr/lib/postgresql/*/bin) into
//     a temporary directory (trust authentication, superuser postgres,
//     fsync off), then postgres listening on 127.0.0.1 only, on a free
//     port, with its Unix socket in that directory. Run as root, the
//     cluster runs as the OS user postgres (initdb and postgres refuse
//     root).
//
// With neither a server URL nor PostgreSQL binaries, DSN skips the test
// with a message saying so, unless GOMASTRA_REQUIRE_POSTGRES=1 (as in CI),
// where it fails it. A cluster that cannot start fails the test.
//
// A package using DSN runs its tests through Main, which stops the
// scratch cluster (an immediate shutdown, as pg_ctl stop -m immediate)
// and removes its directory when the tests are done:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// On Linux the postmaster also gets SIGQUIT (immediate shutdown) if the
// test binary dies without stopping it (a panic, a -timeout), so no
// server outlives its tests. Each test binary has its own cluster on its
// own port, so packages may run their tests in parallel (go test ./...).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Environment variables that configure DSN.
const (
	// EnvURL names the server to use instead of a scratch cluster.
	EnvURL = "GOMASTRA_TEST_POSTGRES_URL"
	// EnvRequire, set to 1, turns "no PostgreSQL here" from a skip into
	// a failure.
	EnvRequire = "GOMASTRA_REQUIRE_POSTGRES"
)

// errNoPostgres is why there is no server: no URL and no binaries.
var errNoPostgres = errors.New("no PostgreSQL server: " + EnvURL + " is not set and no initdb was found " +
	"(on PATH or in /usr/lib/postgresql/*/bin); install PostgreSQL (e.g. apt-get install postgresql) or set " + EnvURL)

// The test binary's server. DSN starts it once; Stop stops it.
var (
	mu      sync.Mutex
	current *server
)

// server is a PostgreSQL server tests create databases on.
type server struct {
	admin   string   // DSN of its maintenance database
	cluster *cluster // the scratch cluster, nil for EnvURL
	err     error    // why the server could not be had
}

// DSN returns the DSN of a new, empty database that t owns: it is
// dropped when t ends (after t's later cleanups, so close connections in
// a cleanup registered after DSN). It skips or fails t when there is no
// PostgreSQL (see the package documentation). Safe for concurrent use.
func DSN(t testing.TB) string {
	t.Helper()
	s := get()
	if errors.Is(s.err, errNoPostgres) {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("pgtest: %v (%s=1)", s.err, EnvRequire)
		}
		t.Skipf("pgtest: %v", s.err)
	}
	if s.err != nil {
		t.Fatalf("pgtest: %v", s.err)
	}

	name := "gomastra_test_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// FORCE (PostgreSQL 13+) ends connections a test left open.
		err := s.exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
		if err != nil {
			err = s.exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize())
		}
		if err != nil {
			t.Logf("pgtest: drop database %s: %v", name, err)
		}
	})
	dsn, err := withDatabase(s.admin, name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return dsn
}

// Main runs the package's tests, stops the scratch cluster if one was
// started, and exits with the tests' exit code. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if err := Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// Stop stops the scratch cluster, if one is running, and removes its
// directory. A later DSN starts a new one. Main calls Stop.
func Stop() error {
	mu.Lock()
	defer mu.Unlock()
	s := current
	current = nil
	if s == nil || s.cluster == nil {
		return nil
	}
	return s.cluster.stop()
}

// get returns the server, starting it on first use.
func get() *server {
	mu.Lock()
	defer mu.Unlock()
	if current != nil {
		return current
	}
	s := &server{}
	if u := os.Getenv(EnvURL); u != "" {
		s.admin = u
	} else {
		s.cluster, s.err = startCluster()
		if s.err == nil {
			s.admin = s.cluster.dsn("postgres")
		}
	}
	current = s
	return s
}

// exec runs one statement on the server's maintenance database.
func (s *server) exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, s.admin)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// withDatabase is dsn (a URL or key=value DSN) naming database name.
func withDatabase(dsn, name string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("parse %s: %w", EnvURL, err)
		}
		u.Path, u.RawPath = "/"+name, ""
		return u.String(), nil
	}
	// In key=value form a later key wins.
	return dsn + " dbname=" + name, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
