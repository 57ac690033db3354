package workflows

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// A Launcher runs the workflow's runs on other processes — the workers
// of a durable execution engine — instead of in this one. With a
// launcher (UseLauncher):
//
//   - Start and Stream check the input, save the run as started to the
//     workflow's storage, hand its id over (Launch) and read its chunks
//     back from its event log;
//   - Resume and ResumeStream check the resume, save it with the run
//     (the run is running again, the resume armed) and hand it over
//     (Continue), then read the chunks back the same way;
//   - Cancel hands the cancellation of a running run over (Cancel);
//     a suspended or pending run is marked canceled here, and its
//     launched execution told.
//
// The process that takes a launched run up loads it (LoadRun) and runs
// it node by node with Advance. A nested workflow's inner run is never
// launched: it runs inside its step.
type Launcher interface {
	// Launch starts the stored run runID, which Stream has saved as
	// running, and returns once it has been accepted.
	Launch(ctx context.Context, runID string) error
	// Continue hands over the resume ResumeStream has saved with the
	// run runID.
	Continue(ctx context.Context, runID string) error
	// Cancel asks the execution of run runID to cancel it and reports
	// whether there was one.
	Cancel(ctx context.Context, runID string) (bool, error)
}

// UseLauncher runs the workflow's runs through l from now on (nil: in
// this process again). The workflow needs Config.Storage and an event
// log (Config.Events, or a Storage that keeps one) that the processes
// running the runs share.
func (w *Workflow) UseLauncher(l Launcher) error {
	if l == nil {
		w.launcher.Store(nil)
		return nil
	}
	if w.cfg.Storage == nil || w.events() == storage.RunEvents(w.localEvents) {
		return fmt.Errorf("workflows: %s: a launched workflow needs Config.Storage with an event log, shared with the processes that run it", w.cfg.ID)
	}
	w.launcher.Store(&l)
	return nil
}

// Launched reports whether the workflow's runs are launched (UseLauncher).
func (w *Workflow) Launched() bool { return w.launcher.Load() != nil }

// launcherOf is the launcher of run r, nil when it runs here.
func (r *Run) launcherOf() Launcher {
	p := r.wf.launcher.Load()
	if p == nil || r.unlogged {
		return nil
	}
	return *p
}

// launch hands the run over with handOver, then yields its chunks from
// index from of its log until it suspends or ends, then takes up the
// state it was left in.
func (r *Run) launch(ctx context.Context, from int64, handOver func() error, yield func(stream.Chunk, error) bool) {
	if err := handOver(); err != nil {
		yield(stream.Chunk{}, fmt.Errorf("workflows: %s: launching run %s: %w", r.wf.cfg.ID, r.id, err))
		return
	}
	for c, err := range r.follow(ctx, from) {
		if !yield(c, err) || err != nil {
			return
		}
	}
}

// follow yields the launched run's chunks from index from of its log
// until it suspends or ends, then takes up the state it was left in.
func (r *Run) follow(ctx context.Context, from int64) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		for c, err := range r.followLaunched(ctx, from) {
			if !yield(c, err) || err != nil {
				return
			}
		}
		if err := r.reload(ctx); err != nil {
			yield(stream.Chunk{}, err)
		}
	}
}

// followLaunched yields the launched run's chunks from index from of its
// log until its suspended workflow-finish or the log's end. Unlike
// ObserveStream it does not look at the run's state, which the process
// running it changes.
func (r *Run) followLaunched(ctx context.Context, from int64) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		o := &observer{run: r, log: r.wf.events(), next: from, launched: true}
		if err := o.follow(ctx, yield); err != nil {
			yield(stream.Chunk{}, fmt.Errorf("workflows: %s: following run %s: %w", r.wf.cfg.ID, r.id, err))
		}
	}
}

// reload takes up the run's state as its storage holds it.
func (r *Run) reload(ctx context.Context) error {
	stored, err := r.wf.LoadRun(ctx, r.id)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state, r.updated, r.journal = stored.state, stored.updated, stored.journal
	return nil
}

// logEnd is the index the run's next chunk will have in its log, read
// from index from on (the log holds at least from chunks, or from is
// where the next goes).
func (r *Run) logEnd(ctx context.Context, from int64) (int64, error) {
	end := from
	for {
		events, err := r.wf.events().ReadEvents(ctx, r.id, end, observeBatch)
		if err != nil {
			return 0, fmt.Errorf("workflows: %s: run %s: reading its log: %w", r.wf.cfg.ID, r.id, err)
		}
		if len(events) == 0 {
			return end, nil
		}
		end = events[len(events)-1].Index + 1
	}
}

// resumeLaunched is ResumeStream for a launched run. A run stored as
// running is being run by its execution already: a resume without data
// (a recovery, which the engine makes itself) follows it.
func (r *Run) resumeLaunched(ctx context.Context, l Launcher, opts ResumeOptions, yield func(stream.Chunk, error) bool) {
	recovery := r.Status() == StatusRunning && opts.Data == nil && len(opts.Step) == 0
	if !recovery {
		if err := r.prepareResume(ctx, opts); err != nil {
			yield(stream.Chunk{}, err)
			return
		}
	}
	from, err := r.logEnd(ctx, 0)
	if err != nil {
		yield(stream.Chunk{}, err)
		return
	}
	handOver := func() error { return l.Continue(ctx, r.id) }
	if recovery {
		handOver = func() error { return nil }
	}
	r.launch(ctx, from, handOver, yield)
}

// cancelLaunched is CancelContext for a launched run: a running run's
// execution cancels it; a suspended or pending one is marked canceled
// here and its execution, if any, told to end.
func (r *Run) cancelLaunched(ctx context.Context, l Launcher) error {
	switch r.Status() {
	case StatusRunning:
		running, err := l.Cancel(ctx, r.id)
		if err != nil || running {
			return err
		}
	case "", StatusPending, StatusSuspended:
	default:
		return nil
	}
	r.mu.Lock()
	r.state.Status, r.state.Suspended, r.state.Resume = StatusCanceled, nil, nil
	r.mu.Unlock()
	err := r.persist(ctx)
	if _, cerr := l.Cancel(ctx, r.id); cerr != nil {
		err = errors.Join(err, cerr)
	}
	return err
}
