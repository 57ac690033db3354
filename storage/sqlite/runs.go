package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

const runColumns = `run_id, kind, name, thread_id, resource_id, status, snapshot, version, created_at, updated_at`

// SaveRun stores r with optimistic concurrency and returns its new
// version. r.Version 0 creates the run (ErrConflict if it exists); any
// other r.Version must be the stored one (else ErrConflict, also when
// the run does not exist). UpdatedAt is set to now; CreatedAt is kept
// from r on create (now when zero) and kept from the stored run on
// update. RunID must not be empty and Snapshot must be empty or valid
// JSON.
func (s *Store) SaveRun(ctx context.Context, r storage.Run) (int64, error) {
	if err := storage.CheckRun(r); err != nil {
		return 0, fmt.Errorf("sqlite: %w", err)
	}
	snap := sqlstore.JSONArg(r.Snapshot)
	n := now()
	var (
		res sql.Result
		err error
	)
	if r.Version == 0 {
		res, err = s.w.ExecContext(ctx, `INSERT INTO mastra_runs (`+runColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
			ON CONFLICT (run_id) DO NOTHING`,
			r.RunID, r.Kind, r.Name, r.ThreadID, r.ResourceID, r.Status, snap, toMicros(orNow(r.CreatedAt, n)), toMicros(n))
	} else {
		res, err = s.w.ExecContext(ctx, `UPDATE mastra_runs
			SET kind = ?, name = ?, thread_id = ?, resource_id = ?, status = ?, snapshot = ?, version = version + 1, updated_at = ?
			WHERE run_id = ? AND version = ?`,
			r.Kind, r.Name, r.ThreadID, r.ResourceID, r.Status, snap, toMicros(n), r.RunID, r.Version)
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: save run %s: %w", r.RunID, err)
	}
	changed, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite: save run %s: %w", r.RunID, err)
	}
	if changed == 0 {
		if r.Version == 0 {
			return 0, fmt.Errorf("sqlite: save run %s: it exists already: %w", r.RunID, storage.ErrConflict)
		}
		return 0, fmt.Errorf("sqlite: save run %s: version %d is not the stored one: %w", r.RunID, r.Version, storage.ErrConflict)
	}
	return r.Version + 1, nil
}

// GetRun returns the run, or an error wrapping storage.ErrNotFound.
func (s *Store) GetRun(ctx context.Context, runID string) (*storage.Run, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+runColumns+` FROM mastra_runs WHERE run_id = ?`, runID)
	r, err := scanRun(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: get run %s: %w", runID, storage.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: get run %s: %w", runID, err)
	}
	return &r, nil
}

// ListRuns returns the runs f selects, newest UpdatedAt first (ties by
// RunID), the page f asks for, and how many match in all.
func (s *Store) ListRuns(ctx context.Context, f storage.RunFilter) ([]storage.Run, int, error) {
	where, args := sqlstore.RunFilter(f, sqlstore.Question, ceilMicros, toMicros)
	limit, offset := int64(-1), int64(0)
	if f.PerPage > 0 {
		limit, offset = int64(f.PerPage), int64(max(f.Page, 0))*int64(f.PerPage)
	}

	var (
		runs  []storage.Run
		total int
	)
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM mastra_runs`+where, args...).Scan(&total); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+runColumns+` FROM mastra_runs`+where+
			` ORDER BY updated_at DESC, run_id LIMIT ? OFFSET ?`, append(args, limit, offset)...)
		if err != nil {
			return err
		}
		runs, err = collect(rows, scanRun)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: list runs: %w", err)
	}
	return runs, total, nil
}

// DeleteRun removes the run and its resume claims. Deleting a missing
// run is not an error.
func (s *Store) DeleteRun(ctx context.Context, runID string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM mastra_run_claims WHERE run_id = ?`, runID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM mastra_runs WHERE run_id = ?`, runID)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: delete run %s: %w", runID, err)
	}
	return nil
}

// ClaimResume takes the one right to resume key ("" for the whole run)
// of the run. The first claim wins; any later one, from any Store or
// process on the same database, fails with an error wrapping
// storage.ErrConflict. A claim on a run that does not exist fails with
// storage.ErrNotFound. Claims go when the run is deleted.
func (s *Store) ClaimResume(ctx context.Context, runID, key, owner string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM mastra_runs WHERE run_id = ?`, runID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return storage.ErrNotFound
		}
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO mastra_run_claims (run_id, claim_key, owner, claimed_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (run_id, claim_key) DO NOTHING`, runID, key, owner, toMicros(now()))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			var by string
			if err := tx.QueryRowContext(ctx, `SELECT owner FROM mastra_run_claims WHERE run_id = ? AND claim_key = ?`,
				runID, key).Scan(&by); err != nil {
				return err
			}
			return fmt.Errorf("already claimed by %q: %w", by, storage.ErrConflict)
		}
		return nil
	})
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("sqlite: claim resume %q of run %s: no such run: %w", key, runID, err)
	case err != nil:
		return fmt.Errorf("sqlite: claim resume %q of run %s: %w", key, runID, err)
	}
	return nil
}

func scanRun(sc scanner) (storage.Run, error) {
	var (
		r                storage.Run
		snap             []byte
		created, updated int64
	)
	if err := sc.Scan(&r.RunID, &r.Kind, &r.Name, &r.ThreadID, &r.ResourceID, &r.Status, &snap, &r.Version, &created, &updated); err != nil {
		return r, err
	}
	r.Snapshot, r.CreatedAt, r.UpdatedAt = jsonValue(snap), fromMicros(created), fromMicros(updated)
	return r, nil
}
