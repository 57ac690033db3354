package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/internal/sqlstore"
)

// migrations are the schema's versions: migrations[i] takes the database
// from version i to version i+1. Append new versions; never edit a
// released one. Which versions a database has is recorded in
// mastra_schema_migrations.
//
// Times are INTEGER microseconds since the Unix epoch (UTC); JSON values
// are TEXT kept byte for byte, NULL when empty.
var migrations = [][]string{
	// 1: threads, messages, thread state, runs and resume claims.
	{
		`CREATE TABLE mastra_threads (
			id          TEXT PRIMARY KEY,
			resource_id TEXT NOT NULL,
			title       TEXT NOT NULL DEFAULT '',
			metadata    TEXT,
			created_at  INTEGER NOT NULL,
			updated_at  INTEGER NOT NULL
		)`,
		`CREATE INDEX mastra_threads_resource_idx ON mastra_threads (resource_id, created_at)`,
		// seq, the rowid, is the order of first save: it breaks ties of
		// created_at, and an upsert keeps it.
		`CREATE TABLE mastra_messages (
			seq         INTEGER PRIMARY KEY,
			id          TEXT NOT NULL UNIQUE,
			thread_id   TEXT NOT NULL,
			resource_id TEXT NOT NULL DEFAULT '',
			role        TEXT NOT NULL DEFAULT '',
			content     TEXT,
			metadata    TEXT,
			created_at  INTEGER NOT NULL
		)`,
		`CREATE INDEX mastra_messages_thread_idx ON mastra_messages (thread_id, created_at, seq)`,
		`CREATE TABLE mastra_thread_state (
			thread_id  TEXT NOT NULL,
			type       TEXT NOT NULL,
			value      TEXT,
			updated_at INTEGER NOT NULL,
			PRIMARY KEY (thread_id, type)
		) WITHOUT ROWID`,
		`CREATE TABLE mastra_runs (
			run_id      TEXT PRIMARY KEY,
			kind        TEXT NOT NULL,
			name        TEXT NOT NULL,
			thread_id   TEXT NOT NULL DEFAULT '',
			resource_id TEXT NOT NULL DEFAULT '',
			status      TEXT NOT NULL,
			snapshot    TEXT,
			version     INTEGER NOT NULL,
			created_at  INTEGER NOT NULL,
			updated_at  INTEGER NOT NULL
		)`,
		`CREATE INDEX mastra_runs_updated_idx ON mastra_runs (updated_at)`,
		`CREATE INDEX mastra_runs_name_idx ON mastra_runs (kind, name, updated_at)`,
		`CREATE INDEX mastra_runs_thread_idx ON mastra_runs (thread_id, updated_at)`,
		`CREATE INDEX mastra_runs_resource_idx ON mastra_runs (resource_id, updated_at)`,
		`CREATE TABLE mastra_run_claims (
			run_id     TEXT NOT NULL REFERENCES mastra_runs (run_id) ON DELETE CASCADE,
			claim_key  TEXT NOT NULL,
			owner      TEXT NOT NULL,
			claimed_at INTEGER NOT NULL,
			PRIMARY KEY (run_id, claim_key)
		) WITHOUT ROWID`,
	},
	// 2: run journals. The changes appended to a run's snapshot are rows
	// of mastra_run_deltas, one per append, keyed by run and version (the
	// run's version the append made); seq, the rowid, puts each new one at
	// the end of the table. The snapshot moves out of mastra_runs into a
	// table of its own: every append updates the run's row (status,
	// version, updated_at), and SQLite rewrites a row whole, overflow
	// pages and all, when its size changes (a status of another length, a
	// version that needs another byte), so a snapshot in the row would
	// make appends cost its size.
	{
		`CREATE TABLE mastra_run_snapshots (
			run_id   TEXT PRIMARY KEY REFERENCES mastra_runs (run_id) ON DELETE CASCADE,
			snapshot TEXT
		)`,
		`INSERT INTO mastra_run_snapshots (run_id, snapshot) SELECT run_id, snapshot FROM mastra_runs`,
		`ALTER TABLE mastra_runs DROP COLUMN snapshot`,
		`CREATE TABLE mastra_run_deltas (
			seq     INTEGER PRIMARY KEY,
			run_id  TEXT NOT NULL REFERENCES mastra_runs (run_id) ON DELETE CASCADE,
			version INTEGER NOT NULL,
			delta   TEXT NOT NULL,
			UNIQUE (run_id, version)
		)`,
	},
	// 3: workflows keep their finished runs and list them newest
	// created first (ListRuns' ByCreation): the index gives that order,
	// ties by run id, without a sort.
	{
		`CREATE INDEX mastra_runs_created_idx ON mastra_runs (kind, name, created_at DESC, run_id)`,
	},
	// 4: run event logs. mastra_run_event_logs holds each log's length
	// (the next index), whether it has ended, and its last append's time
	// (retention); mastra_run_events its events, keyed by run and index.
	{
		`CREATE TABLE mastra_run_event_logs (
			run_id     TEXT PRIMARY KEY,
			length     INTEGER NOT NULL,
			ended      INTEGER NOT NULL DEFAULT 0,
			updated_at INTEGER NOT NULL
		)`,
		`CREATE INDEX mastra_run_event_logs_updated_idx ON mastra_run_event_logs (updated_at)`,
		`CREATE TABLE mastra_run_events (
			run_id     TEXT NOT NULL REFERENCES mastra_run_event_logs (run_id) ON DELETE CASCADE,
			idx        INTEGER NOT NULL,
			type       TEXT NOT NULL,
			data       TEXT,
			created_at INTEGER NOT NULL,
			PRIMARY KEY (run_id, idx)
		) WITHOUT ROWID`,
	},
	// 5: background tasks (package bgtasks), one row each. Claims take
	// pending tasks oldest first (status, created_at); the running ones
	// are counted per agent and their leases checked (status, lease);
	// cleanup goes by completed_at. JSON values and the error are TEXT,
	// NULL when absent; a time absent is NULL.
	{
		`CREATE TABLE mastra_background_tasks (
			id              TEXT PRIMARY KEY,
			status          TEXT NOT NULL,
			tool_name       TEXT NOT NULL DEFAULT '',
			tool_call_id    TEXT NOT NULL DEFAULT '',
			args            TEXT,
			agent_id        TEXT NOT NULL DEFAULT '',
			thread_id       TEXT NOT NULL DEFAULT '',
			resource_id     TEXT NOT NULL DEFAULT '',
			run_id          TEXT NOT NULL DEFAULT '',
			result          TEXT,
			error           TEXT,
			suspend_payload TEXT,
			resume_data     TEXT,
			created_at      INTEGER NOT NULL,
			started_at      INTEGER,
			completed_at    INTEGER,
			suspended_at    INTEGER,
			retry_count     INTEGER NOT NULL DEFAULT 0,
			max_retries     INTEGER NOT NULL DEFAULT 0,
			timeout_ms      INTEGER NOT NULL DEFAULT 0,
			version         INTEGER NOT NULL,
			owner           TEXT NOT NULL DEFAULT '',
			lease_until     INTEGER,
			not_before      INTEGER,
			producer        TEXT NOT NULL DEFAULT ''
		)`,
		`CREATE INDEX mastra_background_tasks_status_idx ON mastra_background_tasks (status, created_at, id)`,
		`CREATE INDEX mastra_background_tasks_run_idx ON mastra_background_tasks (run_id, created_at)`,
		`CREATE INDEX mastra_background_tasks_agent_idx ON mastra_background_tasks (agent_id, status)`,
		`CREATE INDEX mastra_background_tasks_completed_idx ON mastra_background_tasks (completed_at)`,
	},
	// 6: resources (memory's resource-scoped working memory).
	{
		`CREATE TABLE mastra_resources (
			id             TEXT PRIMARY KEY,
			working_memory TEXT NOT NULL DEFAULT '',
			metadata       TEXT,
			created_at     INTEGER NOT NULL,
			updated_at     INTEGER NOT NULL
		)`,
	},
	// 7: vector indexes (package storage/vector). An index is a row of
	// mastra_vector_indexes; its vectors are rows of mastra_vectors, keyed
	// by index and id, deleted with it. embedding is the vector as
	// little-endian float32 (vector.Encode), norm its Euclidean norm, so
	// that a query computes only a dot product per row. thread_id and
	// resource_id are the metadata's keys of those names when they are
	// strings (NULL otherwise), indexed, since semantic recall filters on
	// one or the other; metadata is the whole metadata's JSON. embedding
	// is the last column: it spills to overflow pages, and the columns
	// before it are read without following them.
	{
		`CREATE TABLE mastra_vector_indexes (
			name       TEXT PRIMARY KEY,
			dimension  INTEGER NOT NULL,
			metric     TEXT NOT NULL,
			created_at INTEGER NOT NULL
		)`,
		`CREATE TABLE mastra_vectors (
			index_name  TEXT NOT NULL REFERENCES mastra_vector_indexes (name) ON DELETE CASCADE,
			id          TEXT NOT NULL,
			thread_id   TEXT,
			resource_id TEXT,
			norm        REAL NOT NULL,
			metadata    TEXT,
			embedding   BLOB NOT NULL,
			PRIMARY KEY (index_name, id)
		)`,
		`CREATE INDEX mastra_vectors_thread_idx ON mastra_vectors (index_name, thread_id) WHERE thread_id IS NOT NULL`,
		`CREATE INDEX mastra_vectors_resource_idx ON mastra_vectors (index_name, resource_id) WHERE resource_id IS NOT NULL`,
	},
}

// migrate brings db's schema to the newest version (sqlstore.Migrate),
// in one IMMEDIATE transaction: a concurrent Open of the same file
// waits, then finds the work done. A schema newer than this build knows
// is an error.
func migrate(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS mastra_schema_migrations (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL
	)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var current int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM mastra_schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("migrate: reading the schema version: %w", err)
	}
	err = sqlstore.Migrate(current, migrations, func(stmt string) error {
		_, err := tx.ExecContext(ctx, stmt)
		return err
	}, func(v int) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO mastra_schema_migrations (version, applied_at) VALUES (?, ?)`,
			v, toMicros(now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// migrateRetrying is migrate, tried again while it fails with SQLITE_BUSY
// without having waited for it: processes opening a new database file at
// once race to turn WAL on and to migrate, and SQLite reports some of
// those lock conflicts at once rather than through the busy timeout. It
// gives up after busyTimeoutMS, as a statement would.
func migrateRetrying(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(busyTimeoutMS * time.Millisecond)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := migrate(ctx, db)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return err
		}
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (primary code 5).
func isBusy(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == 5
}
