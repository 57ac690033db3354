package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
)

// A RunJournal saves one run: a snapshot, then the changes appended to
// it, each with the version it read (optimistic); when a write finds
// another version, another process has taken the run over: the journal
// is lost, returns an error wrapping ErrConflict, and never writes nor
// deletes again.
//
// The store decides: a journal writes with SaveRun (Save) and AppendRun
// (Append), naming the version of its own last write, so that of two
// journals of one run (two processes that both loaded it) the first to
// write wins and the other is lost. A run missing when the journal
// writes to it counts the same: another process resumed it and it has
// finished (deleted).
//
// A RunJournal is safe for concurrent use: its writes are serialised, so
// each names the version the one before it wrote. Pass it contexts a
// shutdown does not cancel (see the package documentation).
type RunJournal struct {
	store Runs
	meta  Run // RunID, Kind, Name, ThreadID, ResourceID, CreatedAt

	mu sync.Mutex
	// version is the stored version the journal last wrote or loaded;
	// 0 when it has nothing stored (never saved, or deleted).
	version int64
	lost    bool
}

// NewRunJournal returns the journal of a run nothing has been saved of
// yet: its first Save creates the run (an error wrapping ErrConflict if
// one of that id exists, and the journal is lost). Of meta it keeps
// RunID, Kind, Name, ThreadID, ResourceID and CreatedAt (zero: the time
// of the first save), which every save stores.
func NewRunJournal(store Runs, meta Run) *RunJournal {
	return &RunJournal{store: store, meta: Run{
		RunID: meta.RunID, Kind: meta.Kind, Name: meta.Name, ThreadID: meta.ThreadID, ResourceID: meta.ResourceID,
		CreatedAt: meta.CreatedAt,
	}}
}

// ContinueRunJournal returns the journal of a run loaded from store
// (GetRun, ListRuns), which goes on from the version it was loaded at.
// A resume claims the run first (ClaimRun), so that it is the only one
// to go on from that version.
func ContinueRunJournal(store Runs, stored *Run) *RunJournal {
	j := NewRunJournal(store, *stored)
	j.version = stored.Version
	return j
}

// Save stores the whole snapshot under status: the first save, which
// creates the run, or a compaction, which replaces the snapshot and the
// changes appended to it.
func (j *RunJournal) Save(ctx context.Context, status string, snapshot json.RawMessage) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.lost {
		return j.lostError("save")
	}
	r := j.meta
	r.Status, r.Snapshot, r.Version = status, snapshot, j.version
	v, err := j.store.SaveRun(ctx, r)
	if err != nil {
		return j.failed("save", err)
	}
	j.version = v
	return nil
}

// Append stores delta, a change to what was saved, and status. Before
// any Save (or after Delete) there is nothing to change: it is an error.
func (j *RunJournal) Append(ctx context.Context, status string, delta json.RawMessage) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.lost:
		return j.lostError("append to")
	case j.version == 0:
		return fmt.Errorf("storage: append to run %s: nothing saved to append to (Save comes first)", j.meta.RunID)
	}
	v, err := j.store.AppendRun(ctx, j.meta.RunID, j.version, status, delta)
	if err != nil {
		return j.failed("append to", err)
	}
	j.version = v
	return nil
}

// Delete removes the run, which has finished: its snapshot, changes and
// claims. It does nothing when nothing is saved or the journal is lost
// (the run is another process's); a run already gone is not an error.
// DeleteRun names no version: a journal that has not found itself lost
// deletes the run whatever its version. A Save after it creates the run
// again.
func (j *RunJournal) Delete(ctx context.Context) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.lost || j.version == 0 {
		return nil
	}
	if err := j.store.DeleteRun(ctx, j.meta.RunID); err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("storage: delete finished run %s: %w", j.meta.RunID, err)
	}
	j.version = 0
	return nil
}

// Lost reports whether another process has taken the run over: a write
// found another version, or no run. A lost journal never writes again.
func (j *RunJournal) Lost() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.lost
}

// Saved reports whether something has been saved (or the journal
// continues a stored run) and not deleted since. A lost journal keeps
// the answer it had: the run is stored, by another process.
func (j *RunJournal) Saved() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.version > 0
}

// Version is the run's stored version as of the journal's last write
// (or as loaded), 0 when nothing is saved.
func (j *RunJournal) Version() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.version
}

// failed is the error of a write that failed with err. A conflict or a
// missing run means another process has the run: the journal is lost.
// j.mu is held.
func (j *RunJournal) failed(op string, err error) error {
	if !errors.Is(err, ErrConflict) && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("storage: %s run %s: %w", op, j.meta.RunID, err)
	}
	j.lost = true
	if !errors.Is(err, ErrConflict) {
		err = fmt.Errorf("%w: %w", ErrConflict, err)
	}
	return fmt.Errorf("storage: %s run %s: taken over by another process: %w", op, j.meta.RunID, err)
}

// lostError is the error of a write a lost journal refuses. j.mu is
// held.
func (j *RunJournal) lostError(op string) error {
	return fmt.Errorf("storage: %s run %s: the run was taken over by another process: %w", op, j.meta.RunID, ErrConflict)
}

// ClaimRun takes the one right to resume stored (as loaded: its version)
// for owner, then checks the run is still at that version: of concurrent
// claimers of one version, in any process, exactly one gets nil; the
// others an error wrapping ErrConflict (also when the run moved on or
// was deleted meanwhile).
//
// The claim is ClaimResume of the key "v" followed by the version ("v7"),
// which callers' own claims on the run must not use. The check after it
// matters because a run that moves on leaves its old versions' keys
// unclaimed, and a run that finishes is deleted with its claims: a claim
// of a version read before either would go through.
func ClaimRun(ctx context.Context, store Runs, stored *Run, owner string) error {
	if stored == nil || stored.Version < 1 {
		return errors.New("storage: claim run: not a stored run (no version)")
	}
	id, v := stored.RunID, stored.Version
	err := store.ClaimResume(ctx, id, "v"+strconv.FormatInt(v, 10), owner)
	if err == nil {
		var now *Run
		if now, err = store.GetRun(ctx, id); err == nil && now.Version != v {
			err = fmt.Errorf("it moved on to version %d: %w", now.Version, ErrConflict)
		}
	}
	if errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("%w: it is no longer stored: %w", ErrConflict, err)
	}
	if err != nil {
		return fmt.Errorf("storage: claim run %s at version %d: %w", id, v, err)
	}
	return nil
}
