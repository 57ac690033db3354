// Package storage is what the runtime keeps: memory threads and their
// messages, per-thread state (the task list), and run snapshots (agent
// and workflow runs, suspended or in progress, and workflows' finished
// runs: agent.Config.Storage and workflows.Config.Storage), with the
// claims that make a resume happen exactly once.
//
// Two backends implement Store: storage/sqlite (embedded, the default:
// a file or in-memory) and storage/postgres (shared by several
// processes). Each exports a [Driver] that opens stores from URLs.
// storage/storagetest is the conformance suite both pass. [NewMemoryRuns]
// keeps run snapshots in memory, for one process.
//
// [RunEvents] keeps each run's event log (its stream's chunks, numbered
// from 0), which readers read from any offset and follow live; both
// backends implement it, and [NewMemoryEvents] keeps logs in memory.
//
// Every method is safe for concurrent use, from several goroutines and,
// on PostgreSQL, from several processes.
//
// # Journals
//
// A run is saved as a journal: a whole snapshot first, then the changes
// made since, appended one by one ([Runs.AppendRun]), each a write whose
// cost does not grow with the run; loading a run returns the
// snapshot and its changes ([Run.Deltas]), which the caller folds back.
// A new snapshot ([Runs.SaveRun], a compaction) replaces snapshot and
// changes. Every write names the version it read, so a run has one
// writer: a write that finds another version fails with [ErrConflict].
// [RunJournal] keeps that discipline for one run (its version, when it is
// lost to another process, deleting the finished run), and [ClaimRun]
// takes the one right to resume a loaded run.
//
// Callers pass saves — a journal's Save, Append and Delete, SaveRun,
// AppendRun and DeleteRun — a context that a shutdown does not cancel:
// context.WithoutCancel of the run's context, with a deadline of its own
// if need be. The save is how a run stopped by the shutdown is found and
// resumed later, so it must not be the first thing the shutdown cuts
// short. And a write abandoned half-way may have committed all the same:
// its caller cannot know its version any more, and its next write, which
// names the old one, finds the new one and fails as if another process
// had taken the run over (a journal then counts itself lost and never
// writes the run again).
//
// # Errors
//
// A call fails with [ErrNotFound] or [ErrConflict] (wrapped), which
// callers match; with an error naming an argument the store refuses; or
// with a [*DatabaseError] for anything from the database or its driver,
// whose text is generic and whose detail ([ErrorDetail]) is for logs.
package storage

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/gomastra/mastra/mastraerror"
)

// Store is a storage backend.
type Store interface {
	Threads
	Messages
	ThreadState
	Resources
	Runs
	// Close releases the backend's connections.
	Close() error
}

// ErrNotFound is returned (wrapped) when a thread, message or run does not
// exist.
var ErrNotFound = errors.New("storage: not found")

// ErrConflict is returned (wrapped) when a write loses a race it must not
// win twice: a resume claim already taken, or a run saved or appended to
// with a stale version. It carries HTTP status 409 (a
// mastraerror.StatusCoder): a server answers an error that wraps it 409
// Conflict (see mastraerror.HTTPStatus).
var ErrConflict = mastraerror.NewStatusError("storage: conflict", 409)

// Thread is a memory thread: a conversation of one resource (a user, an
// account).
type Thread struct {
	ID         string         `json:"id"`
	ResourceID string         `json:"resourceId"`
	Title      string         `json:"title,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	CreatedAt  time.Time      `json:"createdAt"`
	UpdatedAt  time.Time      `json:"updatedAt"`
}

// Threads stores threads.
type Threads interface {
	// SaveThread creates the thread or replaces its title and metadata
	// (CreatedAt is kept; zero times are set to now).
	SaveThread(ctx context.Context, t Thread) error
	// GetThread returns the thread, or ErrNotFound.
	GetThread(ctx context.Context, id string) (*Thread, error)
	// ListThreads returns the resource's threads, newest first; every
	// thread when resourceID is "".
	ListThreads(ctx context.Context, resourceID string) ([]Thread, error)
	// DeleteThread removes the thread, its messages and its state.
	DeleteThread(ctx context.Context, id string) error
}

// Message is one stored message of a thread. Content is the message as
// package model encodes it ({role, content: [...parts]}); Metadata is
// free JSON the runtime keeps beside it (suspendedTools,
// pendingToolApprovals, ...).
type Message struct {
	ID         string          `json:"id"`
	ThreadID   string          `json:"threadId"`
	ResourceID string          `json:"resourceId"`
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
	CreatedAt  time.Time       `json:"createdAt"`
}

// Messages stores messages.
type Messages interface {
	// SaveMessages inserts the messages or replaces those whose id exists
	// (role, content and metadata; CreatedAt is kept), all or none. A
	// zero CreatedAt is set to now.
	SaveMessages(ctx context.Context, msgs []Message) error
	// ListMessages returns the thread's last n messages (all when n <= 0)
	// in order: by CreatedAt, then in the order they were first saved.
	ListMessages(ctx context.Context, threadID string, n int) ([]Message, error)
	// ListMessagesAround returns the thread's message messageID with up
	// to before messages before it and up to after messages after it,
	// in ListMessages's order, with one query. Negative counts are 0.
	// It fails with ErrNotFound when the thread holds no message
	// messageID (none stored, or one of another thread).
	ListMessagesAround(ctx context.Context, threadID, messageID string, before, after int) ([]Message, error)
	// GetMessage returns one message, or ErrNotFound.
	GetMessage(ctx context.Context, id string) (*Message, error)
	// GetMessages returns the messages with the given ids, in the order
	// of ids; ids with no message are skipped, and an id given twice
	// gives its message twice. It reads them with one query (or a few,
	// for a backend with a limit on a query's parameters), whatever
	// their number.
	GetMessages(ctx context.Context, ids []string) ([]Message, error)
	// DeleteMessages removes the messages with the given ids, all or
	// none; ids with no message are skipped. Their threads are kept.
	DeleteMessages(ctx context.Context, ids []string) error
}

// Resource is what memory keeps of a resource (the user or account its
// threads belong to): its resource-scoped working memory and free
// metadata, as Mastra's resources table keeps them.
type Resource struct {
	ID            string         `json:"id"`
	WorkingMemory string         `json:"workingMemory,omitempty"`
	Metadata      map[string]any `json:"metadata,omitempty"`
	CreatedAt     time.Time      `json:"createdAt"`
	UpdatedAt     time.Time      `json:"updatedAt"`
}

// Resources stores resources.
type Resources interface {
	// SaveResource creates the resource or replaces its working memory,
	// metadata and UpdatedAt (CreatedAt is kept; zero times are set to
	// now). The ID must not be empty.
	SaveResource(ctx context.Context, r Resource) error
	// GetResource returns the resource, or ErrNotFound.
	GetResource(ctx context.Context, id string) (*Resource, error)
}

// ThreadState stores per-thread state values by type (Mastra's
// threadState domain; the task list is type "task").
type ThreadState interface {
	// GetThreadState returns the value, or ok == false when none is set.
	GetThreadState(ctx context.Context, threadID, typ string) (value json.RawMessage, ok bool, err error)
	// SetThreadState replaces the value.
	SetThreadState(ctx context.Context, threadID, typ string, value json.RawMessage) error
}

// Run statuses kept in snapshots. Running (a run in progress, found
// again after a crash) and suspended (waiting for resume data or an
// approval) are resumable; pending is a workflow run made and not
// started yet (Mastra's createRun), which any process may start. A
// workflow also keeps its finished runs — success, failed, canceled — as
// Mastra keeps them, until [Runs.DeleteFinishedRuns] removes them; an
// agent deletes its runs once they finish. Any other status counts as
// finished too.
const (
	RunRunning   = "running"
	RunSuspended = "suspended"
	RunPending   = "pending"
	RunSuccess   = "success"
	RunFailed    = "failed"
	RunCanceled  = "canceled"
)

// Finished reports whether status is a finished run's: neither
// RunRunning, RunSuspended nor RunPending.
func Finished(status string) bool {
	return status != RunRunning && status != RunSuspended && status != RunPending
}

// Run kinds.
const (
	KindAgent    = "agent"
	KindWorkflow = "workflow"
)

// Run is the snapshot of a resumable run, and the changes appended to it
// since. Snapshot and Deltas are opaque to the store (the agent's or
// workflow's own JSON); the other fields are what lists filter on.
type Run struct {
	RunID string `json:"runId"`
	Kind  string `json:"kind"`
	// Name is the agent's or workflow's id.
	Name       string          `json:"name"`
	ThreadID   string          `json:"threadId,omitempty"`
	ResourceID string          `json:"resourceId,omitempty"`
	Status     string          `json:"status"`
	Snapshot   json.RawMessage `json:"snapshot"`
	// Deltas are the changes appended (AppendRun) since Snapshot was
	// saved, oldest first: the run is Snapshot with them applied in
	// order. GetRun and ListRuns fill it; SaveRun ignores it (a save is
	// a new snapshot, and drops the run's deltas).
	Deltas []json.RawMessage `json:"deltas,omitempty"`
	// Version counts writes (saves and appends), from 1; SaveRun and
	// AppendRun with a Version other than the stored one's fail with
	// ErrConflict (SaveRun with 0 creates).
	Version   int64     `json:"version"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// RunFilter selects runs. Zero fields match everything; Page counts from
// 0; PerPage <= 0 means all.
type RunFilter struct {
	Kind, Name, ThreadID, ResourceID, Status string
	// From and To bound UpdatedAt (inclusive); zero is unbounded.
	From, To      time.Time
	Page, PerPage int
	// ByCreation makes From and To bound CreatedAt instead, and orders
	// the runs newest CreatedAt first (Mastra's listWorkflowRuns).
	ByCreation bool
}

// FinishedRuns selects the finished runs (see [Finished]) of one kind
// that DeleteFinishedRuns removes: those of Name ("" for every name)
// last written (UpdatedAt) before Before, and, when Keep > 0, those
// beyond the newest Keep (by UpdatedAt). A zero Before and Keep <= 0
// select nothing.
type FinishedRuns struct {
	Kind, Name string
	Before     time.Time
	Keep       int
}

// Runs stores run snapshots, the changes appended to them, and resume
// claims.
type Runs interface {
	// SaveRun stores r with optimistic concurrency: r.Version must be the
	// stored version (0 for a new run), else ErrConflict. It returns the
	// new version. The snapshot replaces the stored one and its deltas:
	// a run saved has none (r.Deltas is ignored).
	SaveRun(ctx context.Context, r Run) (version int64, err error)
	// AppendRun appends delta, a change, to the deltas of the run stored
	// at version, sets its status and UpdatedAt, and returns its new
	// version, version+1: the append and the new version are one write.
	// A stale version fails with ErrConflict (of concurrent appends at
	// one version, exactly one succeeds), a missing run with
	// ErrNotFound, an empty or invalid delta with neither. What an append
	// writes does not depend on how many deltas or how large a snapshot
	// the run already has.
	AppendRun(ctx context.Context, runID string, version int64, status string, delta json.RawMessage) (int64, error)
	// GetRun returns the run, with its deltas, or ErrNotFound.
	GetRun(ctx context.Context, runID string) (*Run, error)
	// ListRuns returns the matching runs, with their deltas, newest
	// UpdatedAt first, and how many match in all.
	ListRuns(ctx context.Context, f RunFilter) (runs []Run, total int, err error)
	// DeleteRun removes the run, its deltas and its claims.
	DeleteRun(ctx context.Context, runID string) error
	// DeleteFinishedRuns removes the finished runs f selects, with their
	// deltas and claims, and returns how many it removed. Resumable and
	// pending runs (running, suspended, pending) are never removed. It is a retention sweep:
	// its cost grows with the runs it removes, not with those it keeps
	// (Keep apart, which reads the kept runs' index).
	DeleteFinishedRuns(ctx context.Context, f FinishedRuns) (int, error)
	// ClaimResume takes the one right to resume key (a suspended tool
	// call's id, or "" for the whole run) of the run. The first claim
	// wins; every later one, from any process, fails with ErrConflict.
	ClaimResume(ctx context.Context, runID, key, owner string) error
}
