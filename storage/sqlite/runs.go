package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

// runColumns are the columns scanRun scans, of a run (alias r) and its
// snapshot (alias s).
const runColumns = `r.run_id, r.kind, r.name, r.thread_id, r.resource_id, r.status, s.snapshot, r.version, r.created_at, r.updated_at`

// runSelect reads runs (alias r) with their snapshots; scanRun scans
// its rows.
const runSelect = `SELECT ` + runColumns + `
	FROM mastra_runs r LEFT JOIN mastra_run_snapshots s ON s.run_id = r.run_id`

// SaveRun stores r with optimistic concurrency and returns its new
// version. r.Version 0 creates the run (ErrConflict if it exists); any
// other r.Version must be the stored one (else ErrConflict, also when
// the run does not exist). The snapshot replaces the stored one and the
// run's deltas, in one transaction. UpdatedAt is set to now; CreatedAt
// is kept from r on create (now when zero) and kept from the stored run
// on update. RunID must not be empty and Snapshot must be empty or valid
// JSON.
func (s *Store) SaveRun(ctx context.Context, r storage.Run) (int64, error) {
	if err := storage.CheckRun(r); err != nil {
		return 0, fmt.Errorf("sqlite: %w", err)
	}
	n := now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var (
			res sql.Result
			err error
		)
		if r.Version == 0 {
			res, err = tx.ExecContext(ctx, `INSERT INTO mastra_runs
				(run_id, kind, name, thread_id, resource_id, status, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)
				ON CONFLICT (run_id) DO NOTHING`,
				r.RunID, r.Kind, r.Name, r.ThreadID, r.ResourceID, r.Status, toMicros(orNow(r.CreatedAt, n)), toMicros(n))
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE mastra_runs
				SET kind = ?, name = ?, thread_id = ?, resource_id = ?, status = ?, version = version + 1, updated_at = ?
				WHERE run_id = ? AND version = ?`,
				r.Kind, r.Name, r.ThreadID, r.ResourceID, r.Status, toMicros(n), r.RunID, r.Version)
		}
		if err != nil {
			return err
		}
		if changed, err := res.RowsAffected(); err != nil {
			return err
		} else if changed == 0 {
			if r.Version == 0 {
				return fmt.Errorf("it exists already: %w", storage.ErrConflict)
			}
			return fmt.Errorf("version %d is not the stored one: %w", r.Version, storage.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO mastra_run_snapshots (run_id, snapshot) VALUES (?, ?)
			ON CONFLICT (run_id) DO UPDATE SET snapshot = excluded.snapshot`, r.RunID, sqlstore.JSONArg(r.Snapshot)); err != nil {
			return err
		}
		if r.Version != 0 { // a new run has no deltas
			_, err = tx.ExecContext(ctx, `DELETE FROM mastra_run_deltas WHERE run_id = ?`, r.RunID)
		}
		return err
	})
	if err != nil {
		return 0, storage.DatabaseFailure("save run", fmt.Errorf("sqlite: save run %s: %w", r.RunID, err))
	}
	return r.Version + 1, nil
}

// AppendRun appends delta to the deltas of the run stored at version,
// sets its status and UpdatedAt (now), and returns its new version,
// version+1, in one transaction: an UPDATE of the run's row (which holds
// no snapshot) and an INSERT of the delta, whatever the run already
// holds. A stale version fails with storage.ErrConflict, a missing run
// with storage.ErrNotFound; runID must not be empty, version must be 1
// or more and delta valid JSON.
func (s *Store) AppendRun(ctx context.Context, runID string, version int64, status string, delta json.RawMessage) (int64, error) {
	if err := storage.CheckAppend(runID, version, delta); err != nil {
		return 0, fmt.Errorf("sqlite: %w", err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE mastra_runs SET status = ?, version = version + 1, updated_at = ?
			WHERE run_id = ? AND version = ?`, status, toMicros(now()), runID, version)
		if err != nil {
			return err
		}
		if changed, err := res.RowsAffected(); err != nil {
			return err
		} else if changed == 0 {
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM mastra_runs WHERE run_id = ?`, runID).Scan(&one)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				return storage.ErrNotFound
			case err != nil:
				return err
			}
			return fmt.Errorf("version %d is not the stored one: %w", version, storage.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO mastra_run_deltas (run_id, version, delta) VALUES (?, ?, ?)`,
			runID, version+1, string(delta))
		return err
	})
	if errors.Is(err, storage.ErrNotFound) {
		return 0, fmt.Errorf("sqlite: append run %s: no such run: %w", runID, err)
	}
	if err != nil {
		return 0, storage.DatabaseFailure("append run", fmt.Errorf("sqlite: append run %s: %w", runID, err))
	}
	return version + 1, nil
}

// GetRun returns the run with its deltas, read in one transaction, or an
// error wrapping storage.ErrNotFound.
func (s *Store) GetRun(ctx context.Context, runID string) (*storage.Run, error) {
	runs := make([]storage.Run, 1)
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		if runs[0], err = scanRun(tx.QueryRowContext(ctx, runSelect+` WHERE r.run_id = ?`, runID)); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT run_id, delta FROM mastra_run_deltas WHERE run_id = ? ORDER BY version`, runID)
		if err != nil {
			return err
		}
		return addDeltas(rows, runs)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: get run %s: %w", runID, storage.ErrNotFound)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("get run", fmt.Errorf("sqlite: get run %s: %w", runID, err))
	}
	return &runs[0], nil
}

// ListRuns returns the runs f selects, with their deltas, newest
// UpdatedAt (CreatedAt when f.ByCreation) first (ties by RunID), the page f asks for, and how many
// match in all, from one read transaction.
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
		// The page's run ids first, from the index alone, then their
		// rows and snapshots: the runs a page skips are not read.
		col := sqlstore.RunTimeColumn(f)
		page := `SELECT run_id FROM mastra_runs` + where + ` ORDER BY ` + col + ` DESC, run_id LIMIT ? OFFSET ?`
		rows, err := tx.QueryContext(ctx, `SELECT `+runColumns+`
			FROM (`+page+`) p CROSS JOIN mastra_runs r ON r.run_id = p.run_id
			LEFT JOIN mastra_run_snapshots s ON s.run_id = r.run_id ORDER BY r.`+col+` DESC, r.run_id`,
			append(args, limit, offset)...)
		if err != nil {
			return err
		}
		if runs, err = collect(rows, scanRun); err != nil || len(runs) == 0 {
			return err
		}
		// The page's deltas, in one query: its run ids go as one JSON
		// array, whatever their number.
		ids := make([]string, len(runs))
		for i, r := range runs {
			ids[i] = r.RunID
		}
		idList, err := json.Marshal(ids)
		if err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, `SELECT run_id, delta FROM mastra_run_deltas
			WHERE run_id IN (SELECT value FROM json_each(?)) ORDER BY run_id, version`, string(idList))
		if err != nil {
			return err
		}
		return addDeltas(rows, runs)
	})
	if err != nil {
		return nil, 0, storage.DatabaseFailure("list runs", fmt.Errorf("sqlite: list runs: %w", err))
	}
	return runs, total, nil
}

// addDeltas reads rows of (run_id, delta), each run's in order, and
// appends each delta to its run's Deltas. It closes rows.
func addDeltas(rows *sql.Rows, runs []storage.Run) error {
	defer rows.Close()
	at := make(map[string]int, len(runs))
	for i, r := range runs {
		at[r.RunID] = i
	}
	for rows.Next() {
		var (
			id    string
			delta []byte
		)
		if err := rows.Scan(&id, &delta); err != nil {
			return err
		}
		if i, ok := at[id]; ok {
			runs[i].Deltas = append(runs[i].Deltas, delta)
		}
	}
	return rows.Err()
}

// DeleteRun removes the run, its deltas and its resume claims, in one
// transaction. Deleting a missing run is not an error.
func (s *Store) DeleteRun(ctx context.Context, runID string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM mastra_run_claims WHERE run_id = ?`,
			`DELETE FROM mastra_run_deltas WHERE run_id = ?`,
			`DELETE FROM mastra_run_snapshots WHERE run_id = ?`,
			`DELETE FROM mastra_runs WHERE run_id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, runID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return storage.DatabaseFailure("delete run", fmt.Errorf("sqlite: delete run %s: %w", runID, err))
	}
	return nil
}

// DeleteFinishedRuns removes the finished runs f selects with one
// DELETE, which takes their snapshots, deltas and claims with them
// (foreign keys, ON DELETE CASCADE), and returns how many it removed.
// An index on (kind, name, updated_at) finds them.
func (s *Store) DeleteFinishedRuns(ctx context.Context, f storage.FinishedRuns) (int, error) {
	ids, args := sqlstore.FinishedRunIDs(f, sqlstore.Question, toMicros)
	var removed int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM mastra_runs WHERE run_id IN (`+ids+`)`, args...)
		if err != nil {
			return err
		}
		removed, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, storage.DatabaseFailure("delete finished runs", fmt.Errorf("sqlite: delete finished runs: %w", err))
	}
	return int(removed), nil
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
		return storage.DatabaseFailure("claim resume", fmt.Errorf("sqlite: claim resume %q of run %s: %w", key, runID, err))
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
