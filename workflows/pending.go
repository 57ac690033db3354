package workflows

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/storage"
)

// StatusPending is the status of a run made and not started yet (see
// CreateStoredRun).
const StatusPending = storage.RunPending

// CreateStoredRun is CreateRun, the run being stored at once, not
// started, with status "pending" (Mastra's createRun): StoredRuns lists
// it, LoadRun finds it in any process over the workflow's storage (after
// a restart too), and Start or Stream on the run loaded runs it, keeping
// the time it was made as its creation time. Of concurrent starts of the
// run, in one process or several, exactly one goes through; the others
// fail with an error matching ErrAlreadyStarted. A pending run is kept until it starts
// or is canceled: retention removes finished runs only.
//
// A run of that id the workflow has stored already is returned as
// LoadRun returns it, whatever its status, as Mastra's createRun does.
func (w *Workflow) CreateStoredRun(ctx context.Context, opts ...RunOption) (*Run, error) {
	r := w.CreateRun(opts...)
	r.state.Status = StatusPending
	err := r.persist(ctx)
	if errors.Is(err, storage.ErrConflict) {
		return w.LoadRun(ctx, r.id, opts...)
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// ErrAlreadyStarted matches (errors.Is) the error of a start of a run
// that has started already: an *Error of ID
// mastraerror.IDWorkflowStartAlreadyClaimed, which wraps
// storage.ErrConflict too.
var ErrAlreadyStarted = mastraerror.Sentinel("workflows: the run has already been started", mastraerror.IDWorkflowStartAlreadyClaimed)

// errAlreadyStarted is the error of a start of run id, which has started
// already (cause says how it was found out).
func errAlreadyStarted(id string, cause error) error {
	return &Error{ID: mastraerror.IDWorkflowStartAlreadyClaimed, Message: "Workflow run " + id + " has already been started",
		Cause: fmt.Errorf("%w: %w", storage.ErrConflict, cause)}
}

// claimStart takes the run for the start under way (the caller has set
// its state running, input and all): its whole state is saved over what
// is stored — nothing, or the pending run it was loaded as — at the
// version it last saved or loaded, so that of concurrent starts of one
// run id, in any process over the storage, exactly one save goes
// through. The others get errAlreadyStarted and leave the run as it was.
func (r *Run) claimStart(ctx context.Context) error {
	r.mu.Lock()
	r.updated = time.Now().UTC()
	w, err := r.journal.next(r.state, true)
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("workflows: encoding the snapshot of run %s: %w", r.id, err)
	}
	err = r.write(context.WithoutCancel(ctx), StatusRunning, w)
	if errors.Is(err, storage.ErrConflict) {
		return errAlreadyStarted(r.id, err)
	}
	return err
}

// startable reports whether the run may start: it has not (a run made
// by CreateRun, or pending), and it is not lost to another process.
func (r *Run) startable() bool {
	r.mu.Lock()
	status := r.state.Status
	r.mu.Unlock()
	return (status == "" || status == StatusPending) && !r.journal.runs.Lost()
}
