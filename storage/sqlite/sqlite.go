// Package sqlite is the embedded storage.Store: one SQLite database file
// (or an in-memory database) through modernc.org/sqlite, pure Go.
//
// A file database runs in WAL mode, so reads never wait for the writer,
// with foreign keys on and synchronous=FULL: a save that returned is on
// disk and survives a crash. SQLite allows one writer at a time; a Store
// sends every write through a single connection, so its goroutines queue
// in Go and never see SQLITE_BUSY, and each write transaction begins
// IMMEDIATE with a busy timeout, so that another process writing the same
// file is waited for too. Reads go through a pool of read-only
// connections.
//
// A run's row holds its status and version, not its snapshot (a table of
// its own) nor the changes appended to it (one row each, keyed by run and
// version): an append updates the small row and adds one, so it writes
// the same few pages however large the run has grown.
//
// A Store is also a storage.RunEvents: run event logs, whose waiting
// readers appends through the same Store wake at once, and appends of
// other processes within a second.
//
// Open applies the schema migrations the database lacks (see
// migrations.go) and refuses a database whose schema is newer than this
// build knows.
//
// Beyond the contracts of package storage, a Store rejects empty ids and
// invalid JSON (a batch of messages with one saves nothing), keeps times
// to the microsecond and returns them in UTC, sets a run's UpdatedAt to
// the time of each save, orders ListThreads by CreatedAt, newest first,
// and refuses a ClaimResume for a run that does not exist (ErrNotFound).
// storage/storagetest checks all of it.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/gomastra/mastra/internal/wakeup"
	"github.com/gomastra/mastra/storage"
)

// Memory is the dsn of an in-memory database. It lives as long as the
// Store and is private to it.
const Memory = ":memory:"

// busyTimeoutMS is how long a statement waits for another process's
// lock before it fails with SQLITE_BUSY.
const busyTimeoutMS = 10000

// Store is a storage.Store on one SQLite database. It is safe for
// concurrent use; several Stores (or processes) may open the same file.
type Store struct {
	w *sql.DB // one connection: every write
	r *sql.DB // read-only connections; w itself for an in-memory database

	events wakeup.Hub // followers of run event logs (WaitEvents)

	closeOnce sync.Once
	closeErr  error
}

var (
	_ storage.Store     = (*Store)(nil)
	_ storage.RunEvents = (*Store)(nil)
)

// Open opens (creating it if needed) the database at dsn: a file path,
// whose missing parent directories are created (".mastra/mastra.db"), or
// Memory (":memory:") for a database private to the Store that is gone
// when it is closed. It applies the schema migrations the database lacks.
func Open(ctx context.Context, dsn string) (*Store, error) {
	switch {
	case dsn == "":
		return nil, errors.New("sqlite: open: empty dsn (want a file path or \":memory:\")")
	case dsn == Memory:
		return openMemory(ctx)
	case strings.HasPrefix(dsn, "file:"):
		return nil, fmt.Errorf("sqlite: open %q: want a file path or \":memory:\", not a URI", dsn)
	}
	path, err := filepath.Abs(dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %q: %w", dsn, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("sqlite: open %q: %w", dsn, err)
	}

	s := &Store{}
	s.w, err = sql.Open("sqlite", fileURI(path, true))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %q: %w", dsn, err)
	}
	keepOne(s.w)
	// Migrate through the writer first: its first connection also turns
	// WAL on, before any reader connects.
	if err := migrateRetrying(ctx, s.w); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", dsn, err)
	}
	s.r, err = sql.Open("sqlite", fileURI(path, false))
	if err != nil {
		s.w.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", dsn, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	s.r.SetMaxOpenConns(n)
	s.r.SetMaxIdleConns(n)
	if err := s.r.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", dsn, err)
	}
	return s, nil
}

// openMemory opens an in-memory database on a single connection, which
// serves reads and writes: SQLite's shared cache, the other way to share
// one in-memory database, reports lock conflicts at once (SQLITE_LOCKED)
// instead of waiting for them.
func openMemory(ctx context.Context) (*Store, error) {
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file::memory:?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", Memory, err)
	}
	keepOne(db)
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", Memory, err)
	}
	return &Store{w: db, r: db}, nil
}

// keepOne limits db to one connection that is never closed while the
// Store is open (an in-memory database lives as long as its connection).
func keepOne(db *sql.DB) {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
}

// fileURI is the driver DSN of the database file at path, for the
// writer or for readers. Every connection gets the busy timeout and
// foreign keys; the writer sets WAL (a property of the file) and begins
// its transactions IMMEDIATE; readers are read-only.
func fileURI(path string, writer bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "foreign_keys(1)")
	if writer {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}).String()
}

// Close closes the database. It is safe to call more than once.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		var errs []error
		if s.r != nil && s.r != s.w {
			errs = append(errs, s.r.Close())
		}
		errs = append(errs, s.w.Close())
		if err := errors.Join(errs...); err != nil {
			s.closeErr = fmt.Errorf("sqlite: close: %w", err)
		}
	})
	return s.closeErr
}

// write runs fn in a write transaction (BEGIN IMMEDIATE on the writer
// connection) and commits it, or rolls it back when fn fails.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// read runs fn in a read transaction, so that its queries see one
// snapshot of the database.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
