package bgtasks

import (
	"context"
	"time"
)

// Store keeps background task records for Managers, in this process
// (NewMemoryStore) or in a database several processes share
// (storage/sqlite, storage/postgres). Every write is atomic; the claim
// rules below hold across all processes sharing the store.
//
// A call fails with storage.ErrNotFound or storage.ErrConflict
// (wrapped) where it says so.
type Store interface {
	// CreateTask inserts a new task record as given, with Version 1.
	// A task with the same ID fails with ErrConflict.
	CreateTask(ctx context.Context, task Task) error
	// GetTask returns the task, or ErrNotFound.
	GetTask(ctx context.Context, id string) (Task, error)
	// UpdateTask replaces the task's record by task, when the stored
	// Version is task.Version (else ErrConflict; ErrNotFound when there
	// is none), and returns the record as stored, its Version one more.
	// ID, CreatedAt, Producer and the call's identity (tool, agent,
	// thread, resource, run, args) never change.
	UpdateTask(ctx context.Context, task Task) (Task, error)
	// ListTasks returns the tasks filter selects, ordered and paged as
	// it says, and how many it selects in all (before paging).
	ListTasks(ctx context.Context, filter Filter) (tasks []Task, total int, err error)
	// DeleteTasks removes the tasks filter selects (ignoring its order
	// and paging) and returns how many it removed.
	DeleteTasks(ctx context.Context, filter Filter) (int, error)
	// DeleteTask removes one task; a missing one is not an error.
	DeleteTask(ctx context.Context, id string) error

	// ClaimTasks moves Pending tasks to Running for claim.Owner and
	// returns them, as one atomic step over all processes: oldest
	// created first (ties by ID), skipping tasks whose NotBefore is
	// still ahead, while fewer than claim.Global tasks are Running in
	// the store and fewer than the agent's limit are Running for the
	// task's agent, that claim.Accept accepts, and at most claim.Max of
	// them (all it may when Max <= 0). A claimed task gets Owner,
	// LeaseUntil, StartedAt now and its Version one more. With
	// claim.IDs it claims only those, due or not.
	ClaimTasks(ctx context.Context, claim Claim) ([]Task, error)
	// RenewLeases sets LeaseUntil to until on those of the tasks ids
	// that are Running and owner holds, and returns their ids: a task
	// of ids not among them was taken from owner (cancelled, or
	// recovered after its lease lapsed). Tasks owner holds that are not
	// in ids keep their lease, so that one it does not run lapses and
	// is recovered.
	RenewLeases(ctx context.Context, owner string, ids []string, until time.Time) ([]string, error)
}

// Claim is what ClaimTasks claims, and for whom.
type Claim struct {
	Owner      string
	LeaseUntil time.Time
	// Global bounds the Running tasks of the store (<= 0: no bound).
	Global int
	// PerAgent bounds each agent's Running tasks (<= 0: no bound);
	// AgentLimits overrides it for the agents it names.
	PerAgent    int
	AgentLimits map[string]int
	// Max bounds the tasks this claim returns (<= 0: no bound).
	Max int
	// IDs restricts the claim to these tasks, when not empty.
	IDs []string
	// Accept, when not nil, says which tasks the claimant can run; the
	// others are left pending for another.
	Accept func(Task) bool
}

// AgentLimit returns the bound of Running tasks for agentID.
func (c Claim) AgentLimit(agentID string) int {
	if n, ok := c.AgentLimits[agentID]; ok {
		return n
	}
	return c.PerAgent
}

// DateColumn names a task's date a Filter selects or orders by.
type DateColumn string

// The dates of a task.
const (
	ByCreatedAt   DateColumn = "createdAt"
	ByStartedAt   DateColumn = "startedAt"
	ByCompletedAt DateColumn = "completedAt"
)

// Filter selects tasks: those matching every field set. A zero Filter
// selects all tasks.
type Filter struct {
	// Status selects tasks in any of these statuses.
	Status     []Status
	AgentID    string
	ThreadID   string
	ResourceID string
	ToolName   string
	RunID      string
	Owner      string
	// FromDate (inclusive) and ToDate (exclusive) bound the DateFilterBy
	// date (default ByCreatedAt); a task without that date is not
	// selected by a bound on it.
	FromDate     time.Time
	ToDate       time.Time
	DateFilterBy DateColumn
	// LeaseBefore selects Running tasks whose lease lapsed before it.
	LeaseBefore time.Time

	// OrderBy orders by that date (default ByCreatedAt), ties by ID,
	// ascending unless Descending.
	OrderBy    DateColumn
	Descending bool
	// Page (from 0) and PerPage page the result; PerPage <= 0 returns
	// every task.
	Page    int
	PerPage int
}
