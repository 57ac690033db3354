package sqlstore

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/storage"
)

// TaskColumns are the columns of mastra_background_tasks, in the order
// the backends scan them.
const TaskColumns = `id, status, tool_name, tool_call_id, args, agent_id, thread_id, resource_id, run_id,
	result, error, suspend_payload, resume_data, created_at, started_at, completed_at, suspended_at,
	retry_count, max_retries, timeout_ms, version, owner, lease_until, not_before, producer`

// TaskFilter returns the WHERE clause on mastra_background_tasks that
// selects the tasks f selects, " WHERE ..." (with its leading space) or
// "" when f selects every task, and its arguments, the clause's
// parameters 1 to len(args); at binds a time as stored. Order and
// paging are left to the caller (TaskOrder).
func TaskFilter[T any](f bgtasks.Filter, p Placeholders, at func(time.Time) T) (where string, args []any) {
	var conds []string
	param := func(arg any) string {
		args = append(args, arg)
		return p.Param(len(args))
	}
	if len(f.Status) > 0 {
		var ps []string
		for _, s := range f.Status {
			ps = append(ps, param(string(s)))
		}
		conds = append(conds, "status IN ("+strings.Join(ps, ", ")+")")
	}
	for _, c := range []struct{ col, val string }{
		{"agent_id", f.AgentID}, {"thread_id", f.ThreadID}, {"resource_id", f.ResourceID},
		{"tool_name", f.ToolName}, {"run_id", f.RunID}, {"owner", f.Owner},
	} {
		if c.val != "" {
			conds = append(conds, c.col+" = "+param(c.val))
		}
	}
	if !f.LeaseBefore.IsZero() {
		conds = append(conds, "status = 'running' AND lease_until < "+param(at(f.LeaseBefore)))
	}
	col := TaskDateColumn(f.DateFilterBy)
	if !f.FromDate.IsZero() {
		conds = append(conds, col+" >= "+param(at(f.FromDate)))
	}
	if !f.ToDate.IsZero() {
		conds = append(conds, col+" < "+param(at(f.ToDate)))
	}
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	return where, args
}

// TaskDateColumn is the column of the date c names (created_at by
// default).
func TaskDateColumn(c bgtasks.DateColumn) string {
	switch c {
	case bgtasks.ByStartedAt:
		return "started_at"
	case bgtasks.ByCompletedAt:
		return "completed_at"
	}
	return "created_at"
}

// TaskListQueries are the two statements of a task listing over where
// (TaskFilter's clause, whose arguments both take): the number of tasks
// it selects, and their page in f's order (all of them when f.PerPage
// is not positive).
func TaskListQueries(f bgtasks.Filter, where string) (count, page string) {
	count = `SELECT COUNT(*) FROM mastra_background_tasks` + where
	page = `SELECT ` + TaskColumns + ` FROM mastra_background_tasks` + where + TaskOrder(f)
	if f.PerPage > 0 {
		page += fmt.Sprintf(" LIMIT %d OFFSET %d", f.PerPage, max(f.Page, 0)*f.PerPage)
	}
	return count, page
}

// TaskOrder is the ORDER BY clause of f (with its leading space): its
// date, a task without it first, ties by id, ascending unless
// f.Descending.
func TaskOrder(f bgtasks.Filter) string {
	col := TaskDateColumn(f.OrderBy)
	if f.Descending {
		return " ORDER BY " + col + " DESC NULLS LAST, id DESC"
	}
	return " ORDER BY " + col + " ASC NULLS FIRST, id ASC"
}

// TaskArgs are t's values for TaskColumns, in their order; at binds a
// time as stored (a zero time binds NULL).
func TaskArgs[T any](t bgtasks.Task, at func(time.Time) T) []any {
	var errText any
	if t.Error != nil {
		b, _ := json.Marshal(t.Error)
		errText = string(b)
	}
	opt := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return at(t)
	}
	return []any{
		t.ID, string(t.Status), t.ToolName, t.ToolCallID, JSONArg(t.Args), t.AgentID, t.ThreadID, t.ResourceID, t.RunID,
		JSONArg(t.Result), errText, JSONArg(t.SuspendPayload), JSONArg(t.ResumeData),
		at(t.CreatedAt), opt(t.StartedAt), opt(t.CompletedAt), opt(t.SuspendedAt),
		t.RetryCount, t.MaxRetries, t.Timeout.Milliseconds(), t.Version, t.Owner, opt(t.LeaseUntil), opt(t.NotBefore), t.Producer,
	}
}

// TaskFailure wraps the error of a failed task operation op (on the
// task id, when not empty) of backend ("sqlite", "postgres") as a
// storage.DatabaseFailure; nil stays nil.
func TaskFailure(backend, op, id string, err error) error {
	if err == nil {
		return nil
	}
	if id != "" {
		err = fmt.Errorf("%s: %s %s: %w", backend, op, id, err)
	} else {
		err = fmt.Errorf("%s: %s: %w", backend, op, err)
	}
	return storage.DatabaseFailure(op, err)
}
