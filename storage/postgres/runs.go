package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

const runColumns = `run_id, kind, name, thread_id, resource_id, status, snapshot, version, created_at, updated_at`

// runSelect reads runs with their deltas, in order, as an array; scanRun
// scans its rows.
const runSelect = `SELECT ` + runColumns + `,
	ARRAY(SELECT d.delta FROM mastra_run_deltas d WHERE d.run_id = mastra_runs.run_id ORDER BY d.version)
	FROM mastra_runs`

// SaveRun stores r with optimistic concurrency and returns its new
// version. r.Version 0 creates the run (ErrConflict if it exists); any
// other r.Version must be the stored one (else ErrConflict, also when
// the run does not exist), and the snapshot replaces the stored one and
// the run's deltas. Each is one statement, decided by the database, so
// the rule holds across processes. UpdatedAt is set to now;
// CreatedAt is kept from r on create (now when zero) and kept from the
// stored run on update. RunID must not be empty and Snapshot must be
// empty or valid JSON.
func (s *Store) SaveRun(ctx context.Context, r storage.Run) (int64, error) {
	if err := storage.CheckRun(r); err != nil {
		return 0, fmt.Errorf("postgres: %w", err)
	}
	snap := sqlstore.JSONArg(r.Snapshot)
	n := now()
	var (
		changed int64
		err     error
	)
	if r.Version == 0 {
		// A new run has no deltas: they go with their run (DeleteRun,
		// and the foreign key's cascade).
		var tag pgconn.CommandTag
		tag, err = s.pool.Exec(ctx, `INSERT INTO mastra_runs (`+runColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9)
			ON CONFLICT (run_id) DO NOTHING`,
			r.RunID, r.Kind, r.Name, r.ThreadID, r.ResourceID, r.Status, snap, orNow(r.CreatedAt, n), n)
		changed = tag.RowsAffected()
	} else {
		// The DELETE sees every delta of the version saved: an append
		// commits its delta with the run's new version, and a version
		// committed after this statement began makes its UPDATE find the
		// WHERE false (READ COMMITTED checks a row updated meanwhile
		// again), so that nothing is saved nor dropped.
		err = s.pool.QueryRow(ctx, `WITH saved AS (
				UPDATE mastra_runs
				SET kind = $1, name = $2, thread_id = $3, resource_id = $4, status = $5, snapshot = $6, version = version + 1, updated_at = $7
				WHERE run_id = $8 AND version = $9
				RETURNING run_id
			), dropped AS (
				DELETE FROM mastra_run_deltas WHERE run_id IN (SELECT run_id FROM saved)
			)
			SELECT count(*) FROM saved`,
			r.Kind, r.Name, r.ThreadID, r.ResourceID, r.Status, snap, n, r.RunID, r.Version).Scan(&changed)
	}
	if err != nil {
		return 0, storage.DatabaseFailure("save run", fmt.Errorf("postgres: save run %s: %w", r.RunID, err))
	}
	if changed == 0 {
		if r.Version == 0 {
			return 0, fmt.Errorf("postgres: save run %s: it exists already: %w", r.RunID, storage.ErrConflict)
		}
		return 0, fmt.Errorf("postgres: save run %s: version %d is not the stored one: %w", r.RunID, r.Version, storage.ErrConflict)
	}
	return r.Version + 1, nil
}

// AppendRun appends delta to the deltas of the run stored at version,
// sets its status and UpdatedAt (now), and returns its new version,
// version+1. It is one statement: an UPDATE of the run's row WHERE
// version is the one given, and the INSERT of the delta it feeds, so of
// concurrent appends at one version, from any process, exactly one
// goes in (the others wait for its row lock, then find another version).
// A stale version fails with storage.ErrConflict, a missing run with
// storage.ErrNotFound; runID must not be empty, version must be 1 or
// more and delta valid JSON.
func (s *Store) AppendRun(ctx context.Context, runID string, version int64, status string, delta json.RawMessage) (int64, error) {
	if err := storage.CheckAppend(runID, version, delta); err != nil {
		return 0, fmt.Errorf("postgres: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `WITH appended AS (
			UPDATE mastra_runs SET status = $3, version = version + 1, updated_at = $4
			WHERE run_id = $1 AND version = $2
			RETURNING run_id, version
		)
		INSERT INTO mastra_run_deltas (run_id, version, delta) SELECT run_id, version, $5::text FROM appended`,
		runID, version, status, now(), string(delta))
	if err != nil {
		return 0, storage.DatabaseFailure("append run", fmt.Errorf("postgres: append run %s: %w", runID, err))
	}
	if tag.RowsAffected() == 0 {
		var exists bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM mastra_runs WHERE run_id = $1)`, runID).Scan(&exists); err != nil {
			return 0, storage.DatabaseFailure("append run", fmt.Errorf("postgres: append run %s: %w", runID, err))
		}
		if !exists {
			return 0, fmt.Errorf("postgres: append run %s: no such run: %w", runID, storage.ErrNotFound)
		}
		return 0, fmt.Errorf("postgres: append run %s: version %d is not the stored one: %w", runID, version, storage.ErrConflict)
	}
	return version + 1, nil
}

// GetRun returns the run with its deltas (one statement), or an error
// wrapping storage.ErrNotFound.
func (s *Store) GetRun(ctx context.Context, runID string) (*storage.Run, error) {
	r, err := scanRun(s.pool.QueryRow(ctx, runSelect+` WHERE run_id = $1`, runID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: get run %s: %w", runID, storage.ErrNotFound)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("get run", fmt.Errorf("postgres: get run %s: %w", runID, err))
	}
	return &r, nil
}

// ListRuns returns the runs f selects, with their deltas, newest
// UpdatedAt (CreatedAt when f.ByCreation) first (ties by RunID), the page f asks for, and how many
// match in all, from one snapshot of the database.
func (s *Store) ListRuns(ctx context.Context, f storage.RunFilter) ([]storage.Run, int, error) {
	where, args := sqlstore.RunFilter(f, sqlstore.Dollar, ceil, ts)
	var limit *int64 // NULL: no limit
	offset := int64(0)
	if f.PerPage > 0 {
		l := int64(f.PerPage)
		limit, offset = &l, int64(max(f.Page, 0))*l
	}
	page := fmt.Sprintf(` ORDER BY %s DESC, run_id LIMIT $%d::bigint OFFSET $%d`, sqlstore.RunTimeColumn(f), len(args)+1, len(args)+2)

	var (
		runs  []storage.Run
		total int
	)
	err := s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM mastra_runs`+where, args...).Scan(&total); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, runSelect+where+page, append(args, limit, offset)...)
		if err != nil {
			return err
		}
		runs, err = pgx.CollectRows(rows, rowTo(scanRun))
		return err
	})
	if err != nil {
		return nil, 0, storage.DatabaseFailure("list runs", fmt.Errorf("postgres: list runs: %w", err))
	}
	return runs, total, nil
}

// DeleteRun removes the run, its deltas and its resume claims, in one
// transaction. Deleting a missing run is not an error.
func (s *Store) DeleteRun(ctx context.Context, runID string) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		for _, q := range []string{
			`DELETE FROM mastra_run_claims WHERE run_id = $1`,
			`DELETE FROM mastra_run_deltas WHERE run_id = $1`,
			`DELETE FROM mastra_runs WHERE run_id = $1`,
		} {
			if _, err := tx.Exec(ctx, q, runID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return storage.DatabaseFailure("delete run", fmt.Errorf("postgres: delete run %s: %w", runID, err))
	}
	return nil
}

// DeleteFinishedRuns removes the finished runs f selects with one
// DELETE, which takes their deltas and claims with them (ON DELETE
// CASCADE), and returns how many it removed. An index on (kind, name,
// updated_at) finds them.
func (s *Store) DeleteFinishedRuns(ctx context.Context, f storage.FinishedRuns) (int, error) {
	ids, args := sqlstore.FinishedRunIDs(f, sqlstore.Dollar, ts)
	tag, err := s.pool.Exec(ctx, `DELETE FROM mastra_runs WHERE run_id IN (`+ids+`)`, args...)
	if err != nil {
		return 0, storage.DatabaseFailure("delete finished runs", fmt.Errorf("postgres: delete finished runs: %w", err))
	}
	return int(tag.RowsAffected()), nil
}

// ClaimResume takes the one right to resume key ("" for the whole run)
// of the run: INSERT ... ON CONFLICT DO NOTHING of the claim, which
// either goes in or finds the key taken. The first claim wins; any later
// one, from any process, fails with an error wrapping
// storage.ErrConflict. A claim on a run that does not exist fails with
// storage.ErrNotFound (the claim's foreign key). Claims go when the run
// is deleted.
func (s *Store) ClaimResume(ctx context.Context, runID, key, owner string) error {
	tag, err := s.pool.Exec(ctx, `INSERT INTO mastra_run_claims (run_id, claim_key, owner, claimed_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (run_id, claim_key) DO NOTHING`, runID, key, owner, now())
	if isForeignKeyViolation(err) {
		return fmt.Errorf("postgres: claim resume %q of run %s: no such run: %w", key, runID, storage.ErrNotFound)
	}
	if err != nil {
		return storage.DatabaseFailure("claim resume", fmt.Errorf("postgres: claim resume %q of run %s: %w", key, runID, err))
	}
	if tag.RowsAffected() == 0 {
		// Who holds it, for the message only.
		var by string
		if err := s.pool.QueryRow(ctx, `SELECT owner FROM mastra_run_claims WHERE run_id = $1 AND claim_key = $2`,
			runID, key).Scan(&by); err == nil {
			return fmt.Errorf("postgres: claim resume %q of run %s: already claimed by %q: %w", key, runID, by, storage.ErrConflict)
		}
		return fmt.Errorf("postgres: claim resume %q of run %s: already claimed: %w", key, runID, storage.ErrConflict)
	}
	return nil
}

func scanRun(row pgx.Row) (storage.Run, error) {
	var (
		r                storage.Run
		snap             *string
		created, updated time.Time
		deltas           []string
	)
	if err := row.Scan(&r.RunID, &r.Kind, &r.Name, &r.ThreadID, &r.ResourceID, &r.Status, &snap, &r.Version, &created, &updated, &deltas); err != nil {
		return r, err
	}
	r.Snapshot, r.CreatedAt, r.UpdatedAt = jsonValue(snap), created.UTC(), updated.UTC()
	for _, d := range deltas {
		r.Deltas = append(r.Deltas, json.RawMessage(d))
	}
	return r, nil
}
