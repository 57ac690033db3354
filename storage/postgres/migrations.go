package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gomastra/mastra/internal/sqlstore"
)

// migrationLock is the advisory lock key migrations hold (the bytes of
// "gomastra").
const migrationLock int64 = 0x676f6d6173747261

// migrations are the schema's versions: migrations[i] takes the database
// from version i to version i+1. Append new versions; never edit a
// released one. Which versions a database has is recorded in
// mastra_schema_migrations.
var migrations = [][]string{
	// 1: threads, messages, thread state, runs and resume claims.
	{
		// seq is the order of first save: it breaks ties of
		// created_at, and an upsert keeps it.
		`CREATE TABLE mastra_threads (
			id          text PRIMARY KEY,
			seq         bigserial NOT NULL,
			resource_id text NOT NULL,
			title       text NOT NULL DEFAULT '',
			metadata    text,
			created_at  timestamptz NOT NULL,
			updated_at  timestamptz NOT NULL
		)`,
		`CREATE INDEX mastra_threads_resource_idx ON mastra_threads (resource_id, created_at, seq)`,
		`CREATE TABLE mastra_messages (
			id          text PRIMARY KEY,
			seq         bigserial NOT NULL,
			thread_id   text NOT NULL,
			resource_id text NOT NULL DEFAULT '',
			role        text NOT NULL DEFAULT '',
			content     text,
			metadata    text,
			created_at  timestamptz NOT NULL
		)`,
		`CREATE INDEX mastra_messages_thread_idx ON mastra_messages (thread_id, created_at, seq)`,
		`CREATE TABLE mastra_thread_state (
			thread_id  text NOT NULL,
			type       text NOT NULL,
			value      text,
			updated_at timestamptz NOT NULL,
			PRIMARY KEY (thread_id, type)
		)`,
		`CREATE TABLE mastra_runs (
			run_id      text PRIMARY KEY,
			kind        text NOT NULL,
			name        text NOT NULL,
			thread_id   text NOT NULL DEFAULT '',
			resource_id text NOT NULL DEFAULT '',
			status      text NOT NULL,
			snapshot    text,
			version     bigint NOT NULL,
			created_at  timestamptz NOT NULL,
			updated_at  timestamptz NOT NULL
		)`,
		`CREATE INDEX mastra_runs_updated_idx ON mastra_runs (updated_at)`,
		`CREATE INDEX mastra_runs_name_idx ON mastra_runs (kind, name, updated_at)`,
		`CREATE INDEX mastra_runs_thread_idx ON mastra_runs (thread_id, updated_at)`,
		`CREATE INDEX mastra_runs_resource_idx ON mastra_runs (resource_id, updated_at)`,
		`CREATE TABLE mastra_run_claims (
			run_id     text NOT NULL REFERENCES mastra_runs (run_id) ON DELETE CASCADE,
			claim_key  text NOT NULL,
			owner      text NOT NULL,
			claimed_at timestamptz NOT NULL,
			PRIMARY KEY (run_id, claim_key)
		)`,
	},
	// 2: run journals. The changes appended to a run's snapshot are rows
	// of mastra_run_deltas, one per append, keyed by run and version (the
	// run's version the append made). The snapshot stays in mastra_runs:
	// an UPDATE that leaves a TOASTed value alone keeps its TOAST
	// pointer, so the new row an append writes holds a snapshot only
	// when it is small (under TOAST's threshold, about 2 KB).
	{
		`CREATE TABLE mastra_run_deltas (
			run_id  text NOT NULL REFERENCES mastra_runs (run_id) ON DELETE CASCADE,
			version bigint NOT NULL,
			delta   text NOT NULL,
			PRIMARY KEY (run_id, version)
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
	// (retention): an append updates that row, whose lock orders the
	// appends of one run. mastra_run_events holds the events, keyed by
	// run and index.
	{
		`CREATE TABLE mastra_run_event_logs (
			run_id     text PRIMARY KEY,
			length     bigint NOT NULL,
			ended      boolean NOT NULL DEFAULT false,
			updated_at timestamptz NOT NULL
		)`,
		`CREATE INDEX mastra_run_event_logs_updated_idx ON mastra_run_event_logs (updated_at)`,
		`CREATE TABLE mastra_run_events (
			run_id     text NOT NULL REFERENCES mastra_run_event_logs (run_id) ON DELETE CASCADE,
			idx        bigint NOT NULL,
			type       text NOT NULL,
			data       text,
			created_at timestamptz NOT NULL,
			PRIMARY KEY (run_id, idx)
		)`,
	},
	// 5: background tasks (package bgtasks), one row each. Claims take
	// pending tasks oldest first (status, created_at) under an advisory
	// lock; the running ones are counted per agent and their leases
	// checked; cleanup goes by completed_at. JSON values and the error
	// are text, NULL when absent; a time absent is NULL.
	{
		`CREATE TABLE mastra_background_tasks (
			id              text PRIMARY KEY,
			status          text NOT NULL,
			tool_name       text NOT NULL DEFAULT '',
			tool_call_id    text NOT NULL DEFAULT '',
			args            text,
			agent_id        text NOT NULL DEFAULT '',
			thread_id       text NOT NULL DEFAULT '',
			resource_id     text NOT NULL DEFAULT '',
			run_id          text NOT NULL DEFAULT '',
			result          text,
			error           text,
			suspend_payload text,
			resume_data     text,
			created_at      timestamptz NOT NULL,
			started_at      timestamptz,
			completed_at    timestamptz,
			suspended_at    timestamptz,
			retry_count     integer NOT NULL DEFAULT 0,
			max_retries     integer NOT NULL DEFAULT 0,
			timeout_ms      bigint NOT NULL DEFAULT 0,
			version         bigint NOT NULL,
			owner           text NOT NULL DEFAULT '',
			lease_until     timestamptz,
			not_before      timestamptz,
			producer        text NOT NULL DEFAULT ''
		)`,
		`CREATE INDEX mastra_background_tasks_status_idx ON mastra_background_tasks (status, created_at, id)`,
		`CREATE INDEX mastra_background_tasks_run_idx ON mastra_background_tasks (run_id, created_at)`,
		`CREATE INDEX mastra_background_tasks_agent_idx ON mastra_background_tasks (agent_id, status)`,
		`CREATE INDEX mastra_background_tasks_completed_idx ON mastra_background_tasks (completed_at)`,
	},
	// 6: resources (memory's resource-scoped working memory).
	{
		`CREATE TABLE mastra_resources (
			id             text PRIMARY KEY,
			working_memory text NOT NULL DEFAULT '',
			metadata       text,
			created_at     timestamptz NOT NULL,
			updated_at     timestamptz NOT NULL
		)`,
	},
	// 7: vector indexes (package storage/vector). An index is a row of
	// mastra_vector_indexes; its vectors are rows of mastra_vectors, keyed
	// by index and id, deleted with it. embedding is the vector as
	// little-endian float32 (vector.Encode) in a bytea, norm its
	// Euclidean norm: a query streams the rows to Go, which computes one
	// dot product per row (no pgvector: see docs/vector.md for why not
	// in SQL). thread_id and resource_id are the metadata's keys of those
	// names when they are strings (NULL otherwise), indexed, since
	// semantic recall filters on one or the other; metadata is jsonb,
	// which other keys are filtered on.
	//
	// A row of 1536 dimensions (about 6.2 KB) would go to TOAST at the
	// default toast_tuple_target (about 2 KB), and each row read would
	// cost a TOAST index lookup and a second heap read: with a target of
	// 8160 it stays in its heap page, one row to a page, up to about
	// 2,000 dimensions. The embedding is stored EXTERNAL: when a row is
	// too large even so, it goes out of line uncompressed (float32
	// noise does not compress, and trying costs every write).
	{
		`CREATE TABLE mastra_vector_indexes (
			name       text PRIMARY KEY,
			dimension  integer NOT NULL,
			metric     text NOT NULL,
			created_at timestamptz NOT NULL
		)`,
		`CREATE TABLE mastra_vectors (
			index_name  text NOT NULL REFERENCES mastra_vector_indexes (name) ON DELETE CASCADE,
			id          text NOT NULL,
			thread_id   text,
			resource_id text,
			norm        double precision NOT NULL,
			metadata    jsonb,
			embedding   bytea NOT NULL,
			PRIMARY KEY (index_name, id)
		) WITH (toast_tuple_target = 8160)`,
		`ALTER TABLE mastra_vectors ALTER COLUMN embedding SET STORAGE EXTERNAL`,
		`CREATE INDEX mastra_vectors_thread_idx ON mastra_vectors (index_name, thread_id) WHERE thread_id IS NOT NULL`,
		`CREATE INDEX mastra_vectors_resource_idx ON mastra_vectors (index_name, resource_id) WHERE resource_id IS NOT NULL`,
	},
}

// migrate brings the database's schema to the newest version
// (sqlstore.Migrate), in one transaction holding an advisory lock: a
// process migrating at the same time waits, then finds the work done. A
// schema newer than this build knows is an error.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return fmt.Errorf("taking the migration lock: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS mastra_schema_migrations (
			version    integer PRIMARY KEY,
			applied_at timestamptz NOT NULL
		)`); err != nil {
			return err
		}
		var current int
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM mastra_schema_migrations`).Scan(&current); err != nil {
			return fmt.Errorf("reading the schema version: %w", err)
		}
		return sqlstore.Migrate(current, migrations, func(stmt string) error {
			_, err := tx.Exec(ctx, stmt)
			return err
		}, func(v int) error {
			_, err := tx.Exec(ctx, `INSERT INTO mastra_schema_migrations (version, applied_at) VALUES ($1, $2)`, v, now())
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
