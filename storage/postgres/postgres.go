// Package postgres is the storage.Store for several processes: one
// PostgreSQL database, through pgx (github.com/jackc/pgx/v5) and its
// connection pool.
//
// Resume claims and run versions are decided by the database, so they
// hold across processes: a claim is an INSERT ... ON CONFLICT DO NOTHING
// on the claim's key (the row either goes in or was there), and a run is
// saved with a conditional UPDATE (WHERE version = the one the caller
// read) or, to create it, an INSERT ... ON CONFLICT DO NOTHING. An append
// to a run is one statement too: that conditional UPDATE, feeding the
// INSERT of the change (a row of its own, keyed by run and version).
//
// A Store is also a storage.RunEvents: run event logs, whose appends
// NOTIFY the channel mastra_run_events; each Store LISTENs on one
// connection of its own (from its first WaitEvents) and wakes its waiting
// readers, so an append in any process wakes them all.
//
// Open applies the schema migrations the database lacks, in one
// transaction under a transaction-scoped advisory lock, so processes
// starting together migrate once; it refuses a database whose schema is
// newer than this build knows. Tables are named mastra_*, in the
// connection's schema (search_path).
//
// Beyond the contracts of package storage, a Store rejects empty ids and
// invalid JSON (a batch of messages with one saves nothing), keeps times
// to the microsecond (timestamptz) and returns them in UTC, sets a run's
// UpdatedAt to the time of each save (this process's clock), orders
// ListThreads by CreatedAt, newest first, and refuses a ClaimResume for a
// run that does not exist (ErrNotFound). JSON values are kept as text,
// byte for byte. storage/storagetest checks all of it.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gomastra/mastra/internal/wakeup"
	"github.com/gomastra/mastra/storage"
)

// Store is a storage.Store on one PostgreSQL database. It is safe for
// concurrent use, and several processes may share the database.
type Store struct {
	pool   *pgxpool.Pool
	events wakeup.Hub // followers of run event logs (WaitEvents)
	listen listener   // LISTEN for other processes' appends
}

var (
	_ storage.Store     = (*Store)(nil)
	_ storage.RunEvents = (*Store)(nil)
)

// Open connects to the database at dsn (a URL, postgres://user@host/db,
// or key=value pairs, as pgx and libpq accept) and applies the schema
// migrations it lacks.
func Open(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	return &Store{pool: pool}, nil
}

// Close closes the pool's connections. It is safe to call more than
// once.
func (s *Store) Close() error {
	s.listen.stop()
	s.pool.Close()
	return nil
}

// inTx runs fn in a transaction and commits it. A deadlock or
// serialization failure (two batches upserting the same messages in
// different orders) rolls back and runs fn again, a few times.
func (s *Store) inTx(ctx context.Context, opts pgx.TxOptions, fn func(tx pgx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := pgx.BeginTxFunc(ctx, s.pool, opts, fn)
		if err == nil || attempt == 5 || !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt) * 5 * time.Millisecond):
		}
	}
}

// retryable reports whether err is a deadlock or serialization failure.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// rowTo adapts a scan of one row (which QueryRow's rows share) to
// pgx.CollectRows, which returns an empty slice, not nil, for no rows.
func rowTo[T any](scan func(pgx.Row) (T, error)) pgx.RowToFunc[T] {
	return func(row pgx.CollectableRow) (T, error) { return scan(row) }
}

// isForeignKeyViolation reports whether err is SQLSTATE 23503.
func isForeignKeyViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23503"
}
