package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

var _ bgtasks.Store = (*Store)(nil)

// claimLock is the advisory lock key that orders the claims of
// background tasks ("gomastra claims", in short).
const claimLock int64 = 0x676d636c61696d73

// claimScan bounds the pending tasks one claim looks at, oldest first.
const claimScan = 1000

const taskValues = `$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25`

// CreateTask inserts the background task, with version 1; an existing
// id fails with storage.ErrConflict.
func (s *Store) CreateTask(ctx context.Context, t bgtasks.Task) error {
	if err := bgtasks.CheckNewTask(t); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	t.Version = 1
	tag, err := s.pool.Exec(ctx, `INSERT INTO mastra_background_tasks (`+sqlstore.TaskColumns+`) VALUES (`+taskValues+`)
		ON CONFLICT (id) DO NOTHING`, sqlstore.TaskArgs(t, ts)...)
	if err == nil && tag.RowsAffected() == 0 {
		err = fmt.Errorf("it exists already: %w", storage.ErrConflict)
	}
	return sqlstore.TaskFailure("postgres", "create task", t.ID, err)
}

// GetTask returns the task, or storage.ErrNotFound.
func (s *Store) GetTask(ctx context.Context, id string) (bgtasks.Task, error) {
	t, err := scanTask(s.pool.QueryRow(ctx, `SELECT `+sqlstore.TaskColumns+` FROM mastra_background_tasks WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		err = storage.ErrNotFound
	}
	return t, sqlstore.TaskFailure("postgres", "get task", id, err)
}

// UpdateTask replaces the task's record over version t.Version, in one
// conditional UPDATE (else storage.ErrConflict, or storage.ErrNotFound),
// and returns it as stored, its version one more; the call's identity
// is kept.
func (s *Store) UpdateTask(ctx context.Context, t bgtasks.Task) (bgtasks.Task, error) {
	stored, err := updateTask(ctx, s.pool, t)
	if errors.Is(err, pgx.ErrNoRows) {
		var exists bool
		err = s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM mastra_background_tasks WHERE id = $1)`, t.ID).Scan(&exists)
		switch {
		case err != nil:
		case exists:
			err = fmt.Errorf("version %d is not the stored one: %w", t.Version, storage.ErrConflict)
		default:
			err = storage.ErrNotFound
		}
	}
	return stored, sqlstore.TaskFailure("postgres", "update task", t.ID, err)
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// updateTask writes t's mutable fields over the row of version
// t.Version and returns the row; pgx.ErrNoRows when there is none.
func updateTask(ctx context.Context, q querier, t bgtasks.Task) (bgtasks.Task, error) {
	a := sqlstore.TaskArgs(t, ts)
	return scanTask(q.QueryRow(ctx, `UPDATE mastra_background_tasks SET
		status = $2, result = $3, error = $4, suspend_payload = $5, resume_data = $6,
		started_at = $7, completed_at = $8, suspended_at = $9, retry_count = $10, max_retries = $11,
		timeout_ms = $12, version = version + 1, owner = $14, lease_until = $15, not_before = $16
		WHERE id = $1 AND version = $13
		RETURNING `+sqlstore.TaskColumns,
		a[0], a[1], a[9], a[10], a[11], a[12], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]))
}

// ListTasks returns the tasks f selects, ordered and paged, and their
// number before paging.
func (s *Store) ListTasks(ctx context.Context, f bgtasks.Filter) ([]bgtasks.Task, int, error) {
	where, args := sqlstore.TaskFilter(f, sqlstore.Dollar, ts)
	var tasks []bgtasks.Task
	var total int
	err := s.inTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		count, page := sqlstore.TaskListQueries(f, where)
		if err := tx.QueryRow(ctx, count, args...).Scan(&total); err != nil {
			return err
		}
		var err error
		tasks, err = queryTasks(ctx, tx, page, args...)
		return err
	})
	return tasks, total, sqlstore.TaskFailure("postgres", "list tasks", "", err)
}

// DeleteTasks removes the tasks f selects.
func (s *Store) DeleteTasks(ctx context.Context, f bgtasks.Filter) (int, error) {
	where, args := sqlstore.TaskFilter(f, sqlstore.Dollar, ts)
	tag, err := s.pool.Exec(ctx, `DELETE FROM mastra_background_tasks`+where, args...)
	return int(tag.RowsAffected()), sqlstore.TaskFailure("postgres", "delete tasks", "", err)
}

// DeleteTask removes the task, if it exists.
func (s *Store) DeleteTask(ctx context.Context, id string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM mastra_background_tasks WHERE id = $1`, id)
	return sqlstore.TaskFailure("postgres", "delete task", id, err)
}

// ClaimTasks claims pending tasks in one transaction holding the claim
// advisory lock: the claims of every process sharing the database take
// turns, so the limits hold; each claimed task is a conditional UPDATE on
// its version, so a task changed meanwhile (cancelled) is not claimed.
func (s *Store) ClaimTasks(ctx context.Context, c bgtasks.Claim) ([]bgtasks.Task, error) {
	var claimed []bgtasks.Task
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		claimed = nil
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, claimLock); err != nil {
			return err
		}
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
			next := bgtasks.Claimed(t, c, at)
			next.Version = t.Version
			stored, err := updateTask(ctx, tx, next)
			if errors.Is(err, pgx.ErrNoRows) {
				continue // changed since it was read
			}
			if err != nil {
				return err
			}
			claimed = append(claimed, stored)
		}
		return nil
	})
	if err != nil {
		return nil, sqlstore.TaskFailure("postgres", "claim tasks", "", err)
	}
	return claimed, nil
}

// runningPerAgent counts the running tasks of each agent.
func runningPerAgent(ctx context.Context, tx pgx.Tx) (map[string]int, error) {
	rows, err := tx.Query(ctx, `SELECT agent_id, COUNT(*) FROM mastra_background_tasks WHERE status = 'running' GROUP BY agent_id`)
	if err != nil {
		return nil, err
	}
	running := map[string]int{}
	var agent string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&agent, &n}, func() error {
		running[agent] = n
		return nil
	})
	return running, err
}

// pendingTasks are the pending tasks c may claim, oldest first: its IDs,
// or those due at at; none of the agents full.
func pendingTasks(ctx context.Context, tx pgx.Tx, c bgtasks.Claim, full []string, at time.Time) ([]bgtasks.Task, error) {
	q := `SELECT ` + sqlstore.TaskColumns + ` FROM mastra_background_tasks WHERE status = 'pending'`
	var args []any
	if len(c.IDs) > 0 {
		q += ` AND id = ANY($1)`
		args = append(args, c.IDs)
	} else {
		q += ` AND (not_before IS NULL OR not_before <= $1)`
		args = append(args, at)
	}
	if len(full) > 0 {
		q += ` AND agent_id <> ALL($2)`
		args = append(args, full)
	}
	q += fmt.Sprintf(` ORDER BY created_at, id LIMIT %d`, claimScan)
	return queryTasks(ctx, tx, q, args...)
}

// RenewLeases extends the leases of those of the tasks ids owner runs.
func (s *Store) RenewLeases(ctx context.Context, owner string, ids []string, until time.Time) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `UPDATE mastra_background_tasks SET lease_until = $1
		WHERE status = 'running' AND owner = $2 AND id = ANY($3) RETURNING id`, ts(until), owner, ids)
	if err != nil {
		return nil, sqlstore.TaskFailure("postgres", "renew leases", "", err)
	}
	held, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return held, sqlstore.TaskFailure("postgres", "renew leases", "", err)
}

func queryTasks(ctx context.Context, tx pgx.Tx, q string, args ...any) ([]bgtasks.Task, error) {
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, rowTo(func(r pgx.Row) (bgtasks.Task, error) { return scanTask(r) }))
}

func optTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// scanTask scans a row of TaskColumns.
func scanTask(row pgx.Row) (bgtasks.Task, error) {
	var t bgtasks.Task
	var status string
	var args, result, errText, suspend, resume *string
	var started, completed, suspended, lease, notBefore *time.Time
	var timeoutMs int64
	err := row.Scan(&t.ID, &status, &t.ToolName, &t.ToolCallID, &args, &t.AgentID, &t.ThreadID, &t.ResourceID, &t.RunID,
		&result, &errText, &suspend, &resume, &t.CreatedAt, &started, &completed, &suspended,
		&t.RetryCount, &t.MaxRetries, &timeoutMs, &t.Version, &t.Owner, &lease, &notBefore, &t.Producer)
	if err != nil {
		return bgtasks.Task{}, err
	}
	t.Status, t.Timeout = bgtasks.Status(status), time.Duration(timeoutMs)*time.Millisecond
	t.Args, t.Result, t.SuspendPayload, t.ResumeData = jsonValue(args), jsonValue(result), jsonValue(suspend), jsonValue(resume)
	t.CreatedAt, t.StartedAt, t.CompletedAt, t.SuspendedAt = t.CreatedAt.UTC(), optTime(started), optTime(completed), optTime(suspended)
	t.LeaseUntil, t.NotBefore = optTime(lease), optTime(notBefore)
	if errText != nil {
		t.Error = &bgtasks.TaskError{}
		if err := json.Unmarshal([]byte(*errText), t.Error); err != nil {
			return t, fmt.Errorf("task %s: error: %w", t.ID, err)
		}
	}
	return t, nil
}
