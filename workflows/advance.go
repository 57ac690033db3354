package workflows

import (
	"context"
	"time"

	"github.com/gomastra/mastra/stream"
)

// AdvanceOptions say where in its execution an Advance takes a launched
// run up.
type AdvanceOptions struct {
	// First is set on the first Advance of an execution (a start, or a
	// resume): its chunks begin with the run's workflow-start.
	First bool
	// Slept says that the sleep the previous Advance asked for
	// (Progress.Sleep) is over.
	Slept bool
	// LogFrom is the index of this Advance's first chunk in the run's
	// log: the previous Advance's Progress.LogNext (0 for a run's first).
	// Chunks are placed at their indexes, and those the log holds
	// already — written by an earlier try of this Advance whose worker
	// was lost — are not appended again: a repeated Advance must be given
	// the same LogFrom.
	LogFrom int64
}

// Progress is where an Advance left the run.
type Progress struct {
	// Status is the run's status: running when it has more nodes to
	// run, else suspended or how it ended.
	Status string
	// Sleep, with status running, is a sleep node's wait: Advance again
	// with AdvanceOptions.Slept once it is over.
	Sleep time.Duration
	// LogNext is the index the run's next chunk will have: the next
	// Advance's AdvanceOptions.LogFrom.
	LogNext int64
}

// Advance runs the next node of a launched run (see Launcher) in this
// process, whatever launcher the workflow has: the run, loaded from
// storage (LoadRun), is claimed from its stored state, its next node
// runs, its state is saved and its chunks appended to its log. A run
// that is not running (suspended, or ended: an earlier Advance got it
// there) is left as it is. A sleep node is not slept here: Advance
// returns its wait (Progress.Sleep) for the engine to sleep durably.
//
// An engine drives a launched run by calling Advance, with First after
// the run is launched or continued, until the status is no longer
// running; it waits for the next Continue while the run is suspended.
// Advance is safe to repeat: a repeat after a lost worker takes the run
// up from its last saved node, and a node that ended is not run again.
func (r *Run) Advance(ctx context.Context, opts AdvanceOptions) (Progress, error) {
	if status := r.Status(); status != StatusRunning {
		// Nothing else writes its log now: it goes on at its end.
		end, err := r.logEnd(ctx, opts.LogFrom)
		if err != nil {
			return Progress{}, err
		}
		return Progress{Status: status, LogNext: end}, nil
	}
	// Claimed, then saved whole (a new version, which the next Advance
	// claims): of two Advances of one run at once (a worker taken for
	// lost that still runs), one goes on.
	if err := r.claim(ctx); err != nil {
		return Progress{}, err
	}
	if err := r.persistClaimed(ctx); err != nil {
		return Progress{}, err
	}
	r.mu.Lock()
	// A try whose worker was lost after it saved its node went on
	// further than the engine knows: its chunks, the execution's start
	// among them, are in the log up to the saved LogNext.
	if r.state.LogNext > opts.LogFrom {
		opts.LogFrom, opts.First = r.state.LogNext, false
	}
	r.mu.Unlock()
	// What a lost try of this Advance logged lies past LogFrom: the log
	// is read from there, not from its start.
	held, err := r.logEnd(ctx, opts.LogFrom)
	if err != nil {
		return Progress{}, err
	}
	r.mu.Lock()
	r.advance = &advanceState{AdvanceOptions: opts, held: held}
	r.mu.Unlock()
	r.execute(ctx, func(stream.Chunk, error) bool { return true })
	next := r.placedNext()
	r.mu.Lock()
	defer r.mu.Unlock()
	p := Progress{Status: r.state.Status, Sleep: r.advance.sleep, LogNext: next}
	r.advance = nil
	return p, nil
}

// advanceState is the state of an Advance under way.
type advanceState struct {
	AdvanceOptions
	// sleep is the wait of the sleep node the Advance stopped before.
	sleep time.Duration
	// held is the length of the run's log when the Advance began.
	held int64
}

// announces reports whether this execution starts with workflow-start:
// every execution but an Advance that goes on with one.
func (r *Run) announces() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.advance == nil || r.advance.First
}

// pausesBefore reports whether an Advance stops before node n: a sleep
// not slept yet. It notes the sleep's wait.
func (r *Run) pausesBefore(n *node) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.advance == nil || n.kind != kindSleep || r.advance.Slept {
		return false
	}
	r.advance.sleep = n.sleep
	return true
}

// isAdvance reports whether the execution is an Advance (which runs one
// node, and whose sleeps the engine sleeps).
func (r *Run) isAdvance() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.advance != nil
}

// placedNext is the index the next chunk of an Advance goes at (0 when
// the execution does not place its chunks).
func (r *Run) placedNext() int64 {
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	if r.log == nil {
		return 0
	}
	return r.log.nextIndex()
}
