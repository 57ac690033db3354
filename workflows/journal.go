package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/storage"
)

// journal saves a run through a storage.RunJournal: its whole state when
// it is first saved (and when a resume claims it: a compaction), then at
// each save the changes made since the save before, as one delta (a JSON
// array of runChange), so that a save costs what changed and not the run
// so far. A run in progress (running) is saved as it goes only when its
// store outlives the process (Config.Storage: durable); without one, it
// is saved once when it starts (so that it is listed), then at
// suspensions, into the workflow's in-process store, and the changes
// made meanwhile go with the next of them. A finished run appends its
// last changes with its final status, and is kept until the workflow's
// retention sweep removes it (see sweeper).
//
// The run's mu guards whole and changes; runs is safe for concurrent use.
type journal struct {
	runs    *storage.RunJournal
	durable bool
	// whole says the next write saves the whole state: the run started
	// (its input and options are no change), or a write failed (what is
	// stored is not known).
	whole   bool
	changes changeSet
}

// pendingWrite is a write a save makes: the whole state (whole) or a
// delta, nil when nothing changed. want is the whole state, encoded for
// checkSaved (only when it is set).
type pendingWrite struct {
	raw, want json.RawMessage
	whole     bool
}

// checkSaved, when set (by tests), is called after each write of run r
// with the whole state as it was written: what is stored must fold back
// into it.
var checkSaved func(r *Run, want json.RawMessage)

// newJournal is the journal of run r, which nothing has been saved of.
func (r *Run) newJournal() journal {
	meta := storage.Run{RunID: r.id, Kind: storage.KindWorkflow, Name: r.wf.cfg.ID, ResourceID: r.resourceID, CreatedAt: r.created}
	return journal{runs: storage.NewRunJournal(r.wf.store(), meta), durable: r.wf.cfg.Storage != nil}
}

// continueJournal is the journal of run r loaded from stored, going on
// from the version it was loaded at, with state s.
func (r *Run) continueJournal(stored *storage.Run, s *runState) journal {
	meta := storage.Run{RunID: r.id, Kind: storage.KindWorkflow, Name: r.wf.cfg.ID, ResourceID: r.resourceID,
		CreatedAt: stored.CreatedAt, Version: stored.Version}
	j := journal{runs: storage.ContinueRunJournal(r.wf.store(), &meta), durable: r.wf.cfg.Storage != nil}
	j.changes.reset(s)
	return j
}

// next is the journal's next write of s (the caller holds the run's mu):
// the whole state when whole or j.whole, else the changes since the last
// write. What it returns counts as saved.
func (j *journal) next(s *runState, whole bool) (pendingWrite, error) {
	w := pendingWrite{whole: whole || j.whole}
	var err error
	if w.whole {
		w.raw, err = json.Marshal(s)
	} else if cs := j.changes.changes(s); len(cs) > 0 {
		w.raw, err = json.Marshal(cs)
	}
	if err == nil && checkSaved != nil && w.raw != nil {
		w.want, err = json.Marshal(s)
	}
	if err != nil {
		return pendingWrite{}, err
	}
	j.whole = false
	j.changes.reset(s)
	return w, nil
}

// persist saves the run as it stands: when it is resumable — running
// (with Config.Storage; in memory, only its first save) or suspended —
// the changes since its last save (its whole state the first time);
// when it has finished, its last changes under its final status. A run another process
// has taken over writes nothing and persist returns nil; the write that
// finds it taken over fails with an error wrapping storage.ErrConflict.
func (r *Run) persist(ctx context.Context) error { return r.save(ctx, false) }

// save is persist; compact saves a resumable run's whole state, which
// replaces its stored snapshot and changes.
func (r *Run) save(ctx context.Context, compact bool) error {
	j := &r.journal
	if j.runs.Lost() {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	saved := j.runs.Saved()
	r.mu.Lock()
	r.updated = time.Now().UTC()
	status := r.state.Status
	finished := storage.Finished(status)
	if status == StatusRunning && !j.durable && saved {
		r.mu.Unlock()
		return nil
	}
	w, err := j.next(r.state, compact || !saved)
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("workflows: encoding the snapshot of run %s: %w", r.id, err)
	}
	err = r.write(ctx, status, w)
	if finished && err == nil {
		r.wf.sweep.finished(ctx, r.wf)
	}
	return err
}

// write stores w under status. After a failed write the next one saves
// the whole state.
func (r *Run) write(ctx context.Context, status string, w pendingWrite) error {
	var err error
	switch {
	case w.whole:
		err = r.journal.runs.Save(ctx, status, w.raw)
	case w.raw != nil:
		err = r.journal.runs.Append(ctx, status, w.raw)
	}
	switch {
	case errors.Is(err, storage.ErrConflict):
		err = fmt.Errorf("workflows: run %s was taken over by another resume: %w", r.id, err)
	case err != nil:
		err = fmt.Errorf("workflows: saving run %s: %w", r.id, err)
	case checkSaved != nil && w.raw != nil:
		checkSaved(r, w.want)
	}
	if err != nil {
		r.mu.Lock()
		r.journal.whole = true
		r.mu.Unlock()
	}
	return err
}

// persistClaimed saves a claimed run whole (a compaction); in memory
// only, nothing is saved: the stored snapshot stays as it was (a
// suspension) until the run moves on, and the changes made meanwhile go
// with its next save.
func (r *Run) persistClaimed(ctx context.Context) error {
	if !r.journal.durable {
		return nil
	}
	return r.save(ctx, true)
}

// claim takes the one right to go on from the run's stored state (a
// resume, or the recovery of a run a dead process left running), at the
// version this run last saved or loaded (storage.ClaimRun): of two
// concurrent claims, in one process or two sharing the storage, exactly
// one wins; the other fails with an error wrapping storage.ErrConflict.
// A run never saved is only this process's: claim returns nil.
func (r *Run) claim(ctx context.Context) error {
	j := r.journal.runs
	if !j.Saved() {
		return nil
	}
	stored := &storage.Run{RunID: r.id, Version: j.Version()}
	if err := storage.ClaimRun(ctx, r.wf.store(), stored, r.wf.cfg.ID); err != nil {
		return fmt.Errorf("workflows: %s: resuming run %s: %w", r.wf.cfg.ID, r.id, err)
	}
	return nil
}

// touch notes that step key's record was replaced or removed, touchStep
// that its own fields changed, touchItem that its iteration i's record
// did (the caller holds r.mu): the run's next save appends them.
func (r *Run) touch(key string)            { r.journal.changes.mark(key, true, -1) }
func (r *Run) touchStep(key string)        { r.journal.changes.mark(key, false, -1) }
func (r *Run) touchItem(key string, i int) { r.journal.changes.mark(key, false, i) }
