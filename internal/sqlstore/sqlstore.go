// Package sqlstore is what the SQL storage backends, storage/sqlite and
// storage/postgres, share beyond SQL text: the stored form of JSON
// values, the WHERE clause of a storage.RunFilter in either placeholder
// style, and the schema migration loop. The SQL of each dialect stays in
// its backend.
package sqlstore

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gomastra/mastra/storage"
)

// JSON values are stored as text, byte for byte; an empty value is NULL.

// JSONArg is the stored form of raw: nil (NULL) when it is empty, else
// its text. raw must have passed storage.CheckJSON.
func JSONArg(raw []byte) any {
	if len(raw) == 0 {
		return nil
	}
	return string(raw)
}

// MetadataArg is the stored form of a thread's metadata: nil (NULL) when
// md is nil, else its JSON text.
func MetadataArg(md map[string]any) (any, error) {
	if md == nil {
		return nil, nil
	}
	b, err := json.Marshal(md)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// Placeholders is how a dialect writes its statements' parameters.
type Placeholders int

const (
	// Question is "?" for every parameter (SQLite).
	Question Placeholders = iota
	// Dollar is "$n" for the n-th parameter, from 1 (PostgreSQL).
	Dollar
)

// Param is the placeholder of the n-th parameter (from 1).
func (p Placeholders) Param(n int) string {
	if p == Dollar {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

// RunFilter returns the WHERE clause on mastra_runs that selects the runs
// f selects, " WHERE ..." (with its leading space) or "" when f selects
// every run, and its arguments, the clause's parameters 1 to len(args).
// f's empty string fields select everything; a non-zero From or To
// bounds updated_at, inclusive, bound as from(f.From) and to(f.To): from
// rounds up to the first stored time not before f.From, to is f.To as
// stored. Page and PerPage are left to the caller.
func RunFilter[T any](f storage.RunFilter, p Placeholders, from, to func(time.Time) T) (where string, args []any) {
	var conds []string
	add := func(cond string, arg any) {
		args = append(args, arg)
		conds = append(conds, cond+p.Param(len(args)))
	}
	for _, c := range []struct{ col, val string }{
		{"kind", f.Kind}, {"name", f.Name}, {"thread_id", f.ThreadID}, {"resource_id", f.ResourceID}, {"status", f.Status},
	} {
		if c.val != "" {
			add(c.col+" = ", c.val)
		}
	}
	col := RunTimeColumn(f)
	if !f.From.IsZero() {
		add(col+" >= ", from(f.From))
	}
	if !f.To.IsZero() {
		add(col+" <= ", to(f.To))
	}
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	return where, args
}

// RunTimeColumn is the column f's From and To bound and its runs are
// ordered by, newest first: created_at when f.ByCreation, else
// updated_at.
func RunTimeColumn(f storage.RunFilter) string {
	if f.ByCreation {
		return "created_at"
	}
	return "updated_at"
}

// FinishedRunIDs returns a query selecting the run_id of the runs f
// selects (see storage.FinishedRuns) in mastra_runs, and its arguments,
// its parameters 1 to len(args); before binds f.Before as stored. It
// selects nothing when f has neither Before nor Keep.
func FinishedRunIDs[T any](f storage.FinishedRuns, p Placeholders, before func(time.Time) T) (query string, args []any) {
	param := func(arg any) string {
		args = append(args, arg)
		return p.Param(len(args))
	}
	finished := func() string {
		cond := "kind = " + param(f.Kind) + " AND status NOT IN ('" + storage.RunRunning + "', '" + storage.RunSuspended + "', '" + storage.RunPending + "')"
		if f.Name != "" {
			cond += " AND name = " + param(f.Name)
		}
		return cond
	}
	var parts []string
	if !f.Before.IsZero() {
		parts = append(parts, "SELECT run_id FROM mastra_runs WHERE "+finished()+" AND updated_at < "+param(before(f.Before)))
	}
	if f.Keep > 0 {
		all := "LIMIT -1"
		if p == Dollar {
			all = "LIMIT ALL"
		}
		parts = append(parts, "SELECT run_id FROM (SELECT run_id FROM mastra_runs WHERE "+finished()+
			" ORDER BY updated_at DESC, run_id "+all+" OFFSET "+param(f.Keep)+") beyond")
	}
	if len(parts) == 0 {
		return "SELECT run_id FROM mastra_runs WHERE 1 = 0", nil
	}
	return strings.Join(parts, " UNION "), args
}

// Migrate takes a schema at version current to the newest one,
// len(migrations): migrations[i] takes it from version i to version
// i+1. For each version it lacks, in order, it runs the version's
// statements with exec, then record(version), which notes the version
// in the schema's history. A schema newer than migrations knows is an
// error. The caller runs it in one transaction, having read current in
// it.
func Migrate(current int, migrations [][]string, exec func(stmt string) error, record func(version int) error) error {
	if current > len(migrations) {
		return fmt.Errorf("the database's schema is version %d, newer than this build of gomastra knows (%d); "+
			"upgrade gomastra or use another database", current, len(migrations))
	}
	for v := current + 1; v <= len(migrations); v++ {
		for _, stmt := range migrations[v-1] {
			if err := exec(stmt); err != nil {
				return fmt.Errorf("version %d: %w", v, err)
			}
		}
		if err := record(v); err != nil {
			return fmt.Errorf("version %d: %w", v, err)
		}
	}
	return nil
}
