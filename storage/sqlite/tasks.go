package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

var _ bgtasks.Store = (*Store)(nil)

// claimScan bounds the pending tasks one claim looks at, oldest first.
const claimScan = 1000

// CreateTask inserts the background task, with version 1; an existing
// id fails with storage.ErrConflict.
func (s *Store) CreateTask(ctx context.Context, t bgtasks.Task) error {
	if err := bgtasks.CheckNewTask(t); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	t.Version = 1
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO mastra_background_tasks (`+sqlstore.TaskColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`, sqlstore.TaskArgs(t, toMicros)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("it exists already: %w", storage.ErrConflict)
		}
		return nil
	})
	return sqlstore.TaskFailure("sqlite", "create task", t.ID, err)
}

// GetTask returns the task, or storage.ErrNotFound.
func (s *Store) GetTask(ctx context.Context, id string) (bgtasks.Task, error) {
	var t bgtasks.Task
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		t, err = scanTask(tx.QueryRowContext(ctx, `SELECT `+sqlstore.TaskColumns+` FROM mastra_background_tasks WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return storage.ErrNotFound
		}
		return err
	})
	return t, sqlstore.TaskFailure("sqlite", "get task", id, err)
}

// UpdateTask replaces the task's record over version t.Version (else
// storage.ErrConflict, or storage.ErrNotFound) and returns it as
// stored, its version one more; the call's identity is kept.
func (s *Store) UpdateTask(ctx context.Context, t bgtasks.Task) (bgtasks.Task, error) {
	var stored bgtasks.Task
	err := s.write(ctx, func(tx *sql.Tx) error {
		old, err := scanTask(tx.QueryRowContext(ctx, `SELECT `+sqlstore.TaskColumns+` FROM mastra_background_tasks WHERE id = ?`, t.ID))
		if errors.Is(err, sql.ErrNoRows) {
			return storage.ErrNotFound
		}
		if err != nil {
			return err
		}
		if old.Version != t.Version {
			return fmt.Errorf("version %d, not %d: %w", old.Version, t.Version, storage.ErrConflict)
		}
		stored = bgtasks.KeepIdentity(old, t)
		stored.Version = old.Version + 1
		return replaceTask(ctx, tx, stored)
	})
	return stored, sqlstore.TaskFailure("sqlite", "update task", t.ID, err)
}

// replaceTask writes every field of t over its row.
func replaceTask(ctx context.Context, tx *sql.Tx, t bgtasks.Task) error {
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO mastra_background_tasks (`+sqlstore.TaskColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, sqlstore.TaskArgs(t, toMicros)...)
	return err
}

// ListTasks returns the tasks f selects, ordered and paged, and their
// number before paging.
func (s *Store) ListTasks(ctx context.Context, f bgtasks.Filter) ([]bgtasks.Task, int, error) {
	where, args := sqlstore.TaskFilter(f, sqlstore.Question, toMicros)
	var tasks []bgtasks.Task
	var total int
	err := s.read(ctx, func(tx *sql.Tx) error {
		count, page := sqlstore.TaskListQueries(f, where)
		if err := tx.QueryRowContext(ctx, count, args...).Scan(&total); err != nil {
			return err
		}
		var err error
		tasks, err = queryTasks(ctx, tx, page, args...)
		return err
	})
	return tasks, total, sqlstore.TaskFailure("sqlite", "list tasks", "", err)
}

// DeleteTasks removes the tasks f selects.
func (s *Store) DeleteTasks(ctx context.Context, f bgtasks.Filter) (int, error) {
	where, args := sqlstore.TaskFilter(f, sqlstore.Question, toMicros)
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM mastra_background_tasks`+where, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), sqlstore.TaskFailure("sqlite", "delete tasks", "", err)
}

// DeleteTask removes the task, if it exists.
func (s *Store) DeleteTask(ctx context.Context, id string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM mastra_background_tasks WHERE id = ?`, id)
		return err
	})
	return sqlstore.TaskFailure("sqlite", "delete task", id, err)
}

// ClaimTasks claims pending tasks in one IMMEDIATE transaction: the
// database's write lock makes it atomic over every process sharing the
// file, so the limits hold and a task is claimed once.
func (s *Store) ClaimTasks(ctx context.Context, c bgtasks.Claim) ([]bgtasks.Task, error) {
	var claimed []bgtasks.Task
	err := s.write(ctx, func(tx *sql.Tx) error {
		running, err := runningPerAgent(ctx, tx)
		if err != nil {
			return err
		}
		at := now()
		pending, err := pendingTasks(ctx, tx, c, bgtasks.FullAgents(c, running), at)
		if err != nil {
			return err
		}
		for _, t := range bgtasks.PickClaims(c, running, pending, at) {
			t = bgtasks.Claimed(t, c, at)
			if err := replaceTask(ctx, tx, t); err != nil {
				return err
			}
			claimed = append(claimed, t)
		}
		return nil
	})
	if err != nil {
		return nil, sqlstore.TaskFailure("sqlite", "claim tasks", "", err)
	}
	return claimed, nil
}

// runningPerAgent counts the running tasks of each agent.
func runningPerAgent(ctx context.Context, tx *sql.Tx) (map[string]int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT agent_id, COUNT(*) FROM mastra_background_tasks WHERE status = 'running' GROUP BY agent_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	running := map[string]int{}
	for rows.Next() {
		var agent string
		var n int
		if err := rows.Scan(&agent, &n); err != nil {
			return nil, err
		}
		running[agent] = n
	}
	return running, rows.Err()
}

// pendingTasks are the pending tasks c may claim, oldest first: its IDs,
// or those due at at; none of the agents full.
func pendingTasks(ctx context.Context, tx *sql.Tx, c bgtasks.Claim, full []string, at time.Time) ([]bgtasks.Task, error) {
	q := `SELECT ` + sqlstore.TaskColumns + ` FROM mastra_background_tasks WHERE status = 'pending'`
	var args []any
	if len(full) > 0 {
		q += ` AND agent_id NOT IN (?` + strings.Repeat(", ?", len(full)-1) + `)`
		for _, agent := range full {
			args = append(args, agent)
		}
	}
	if len(c.IDs) > 0 {
		q += ` AND id IN (?` + strings.Repeat(", ?", len(c.IDs)-1) + `)`
		for _, id := range c.IDs {
			args = append(args, id)
		}
	} else {
		q += ` AND (not_before IS NULL OR not_before <= ?)`
		args = append(args, toMicros(at))
	}
	q += fmt.Sprintf(` ORDER BY created_at, id LIMIT %d`, claimScan)
	return queryTasks(ctx, tx, q, args...)
}

// RenewLeases extends the leases of those of the tasks ids owner runs.
func (s *Store) RenewLeases(ctx context.Context, owner string, ids []string, until time.Time) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := []any{toMicros(until), owner}
	for _, id := range ids {
		args = append(args, id)
	}
	q := `UPDATE mastra_background_tasks SET lease_until = ?
		WHERE status = 'running' AND owner = ? AND id IN (?` + strings.Repeat(", ?", len(ids)-1) + `) RETURNING id`
	var held []string
	err := s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			held = append(held, id)
		}
		return rows.Err()
	})
	return held, sqlstore.TaskFailure("sqlite", "renew leases", "", err)
}

func queryTasks(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]bgtasks.Task, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanTask)
}

func optTime(us sql.NullInt64) time.Time {
	if !us.Valid {
		return time.Time{}
	}
	return fromMicros(us.Int64)
}

// scanTask scans a row of TaskColumns.
func scanTask(sc scanner) (bgtasks.Task, error) {
	var t bgtasks.Task
	var status string
	var args, result, errText, suspend, resume []byte
	var created int64
	var started, completed, suspended, lease, notBefore sql.NullInt64
	var timeoutMs int64
	err := sc.Scan(&t.ID, &status, &t.ToolName, &t.ToolCallID, &args, &t.AgentID, &t.ThreadID, &t.ResourceID, &t.RunID,
		&result, &errText, &suspend, &resume, &created, &started, &completed, &suspended,
		&t.RetryCount, &t.MaxRetries, &timeoutMs, &t.Version, &t.Owner, &lease, &notBefore, &t.Producer)
	if err != nil {
		return t, err
	}
	t.Status, t.Timeout = bgtasks.Status(status), time.Duration(timeoutMs)*time.Millisecond
	t.Args, t.Result, t.SuspendPayload, t.ResumeData = jsonValue(args), jsonValue(result), jsonValue(suspend), jsonValue(resume)
	t.CreatedAt, t.StartedAt, t.CompletedAt, t.SuspendedAt = fromMicros(created), optTime(started), optTime(completed), optTime(suspended)
	t.LeaseUntil, t.NotBefore = optTime(lease), optTime(notBefore)
	if errText != nil {
		t.Error = &bgtasks.TaskError{}
		if err := json.Unmarshal(errText, t.Error); err != nil {
			return t, fmt.Errorf("task %s: error: %w", t.ID, err)
		}
	}
	return t, nil
}
