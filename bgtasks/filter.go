package bgtasks

import (
	"cmp"
	"slices"
	"time"
)

// Matches reports whether filter selects t (ignoring order and paging).
func (f Filter) Matches(t Task) bool {
	if len(f.Status) > 0 && !slices.Contains(f.Status, t.Status) {
		return false
	}
	if !same(f.AgentID, t.AgentID) || !same(f.ThreadID, t.ThreadID) || !same(f.ResourceID, t.ResourceID) ||
		!same(f.ToolName, t.ToolName) || !same(f.RunID, t.RunID) || !same(f.Owner, t.Owner) {
		return false
	}
	if !f.LeaseBefore.IsZero() && (t.Status != Running || !t.LeaseUntil.Before(f.LeaseBefore)) {
		return false
	}
	d := t.date(f.DateFilterBy)
	if !f.FromDate.IsZero() && (d.IsZero() || d.Before(f.FromDate)) {
		return false
	}
	if !f.ToDate.IsZero() && (d.IsZero() || !d.Before(f.ToDate)) {
		return false
	}
	return true
}

func same(want, got string) bool { return want == "" || want == got }

// date is the task's date named by c (CreatedAt by default).
func (t Task) date(c DateColumn) time.Time {
	switch c {
	case ByStartedAt:
		return t.StartedAt
	case ByCompletedAt:
		return t.CompletedAt
	}
	return t.CreatedAt
}

// Sort orders tasks as filter says: by its OrderBy date (a task without
// it first), ties by ID, ascending unless Descending.
func (f Filter) Sort(tasks []Task) {
	slices.SortFunc(tasks, func(a, b Task) int {
		c := cmp.Or(a.date(f.OrderBy).Compare(b.date(f.OrderBy)), cmp.Compare(a.ID, b.ID))
		if f.Descending {
			return -c
		}
		return c
	})
}

// PageOf returns filter's page of the sorted tasks.
func (f Filter) PageOf(tasks []Task) []Task {
	if f.PerPage <= 0 {
		return tasks
	}
	start := min(max(f.Page, 0)*f.PerPage, len(tasks))
	return tasks[start:min(start+f.PerPage, len(tasks))]
}
