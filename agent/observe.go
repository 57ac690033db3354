package agent

import (
	"context"
	"errors"
	"fmt"
	"iter"
)

// ErrRunNotFound is the error Observe yields for a run whose event log
// holds nothing: no such run, or one whose log the retention removed.
var ErrRunNotFound = errors.New("agent: no such run")

// OffsetError is the error Observe yields for an offset it cannot read
// from: a negative one, or one past the end of an ended run's log
// (Count is then the run's event count; an offset of Count itself reads
// nothing and ends at once).
type OffsetError struct {
	RunID  string
	Offset int64
	Count  int64 // -1 for a negative offset
}

func (e *OffsetError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("agent: run %s: negative offset %d", e.RunID, e.Offset)
	}
	return fmt.Sprintf("agent: run %s has %d events: offset %d is past its end", e.RunID, e.Count, e.Offset)
}

// Observe reads the events of the run runID from its log: those from
// index offset on, then live ones as the run appends them, in this
// process or, with a shared store (SQLite, PostgreSQL), in another. It
// ends after the run's last event: when the run has ended, or when it
// has stopped without ending (suspended, or parked for a recovery) and
// not gone on yet — its resume appends more events, read from a later
// offset (indexes then skip the one the stop took). A run whose log holds nothing yields
// ErrRunNotFound; a negative offset or one past an ended run's last
// event yields an *OffsetError; ctx's end yields ctx's error. Stopping
// the iteration does not affect the run.
func (a *Agent) Observe(ctx context.Context, runID string, offset int64) iter.Seq2[RunEvent, error] {
	return a.observe(ctx, runID, offset)
}

// observeBatch is how many events Observe reads at a time.
const observeBatch = 256

func (a *Agent) observe(ctx context.Context, runID string, offset int64) iter.Seq2[RunEvent, error] {
	return func(yield func(RunEvent, error) bool) {
		if offset < 0 {
			yield(RunEvent{}, &OffsetError{RunID: runID, Offset: offset, Count: -1})
			return
		}
		next, live, pausedLast := offset, false, false
		for {
			events, err := a.log.read(ctx, runID, next, observeBatch)
			if err != nil {
				yield(RunEvent{}, err)
				return
			}
			if len(events) == 0 && next == offset && !live {
				if done, err := a.checkOffset(ctx, runID, offset); done || err != nil {
					if err != nil {
						yield(RunEvent{}, err)
					}
					return
				}
			}
			if len(events) == 0 && pausedLast {
				return // the run stopped at its last event and has not gone on
			}
			for _, e := range events {
				if e.Type == eventEnd {
					return
				}
				if e.Type == eventPause {
					continue
				}
				e.Live = live
				if !yield(e, nil) {
					return
				}
			}
			if n := len(events); n > 0 {
				next, pausedLast = events[n-1].Index+1, events[n-1].Type == eventPause
			}
			if pausedLast && len(events) < observeBatch {
				return
			}
			if len(events) < observeBatch {
				if err := a.log.wait(ctx, runID, next-1); err != nil {
					yield(RunEvent{}, err)
					return
				}
				live = true
			}
		}
	}
}

// checkOffset decides an offset at or past the end of the run's log as
// first read: no log at all is ErrRunNotFound; the end of a run that
// has stopped (ended or paused) ends the reading at once (done); past
// it is an *OffsetError. A running run's reader waits, as does one whose
// events were appended since its first read. A reader at the end of the
// log (a reconnect) reads only the log's last event.
func (a *Agent) checkOffset(ctx context.Context, runID string, offset int64) (done bool, err error) {
	if offset > 0 {
		tail, err := a.log.read(ctx, runID, offset-1, 2)
		if err != nil {
			return false, err
		}
		switch len(tail) {
		case 2:
			// Events came after the first read: read them.
			return false, nil
		case 1:
			return stoppedAt(runID, offset, offset, tail[0])
		}
	}
	all, err := a.log.read(ctx, runID, 0, 0)
	if err != nil {
		return false, err
	}
	n := int64(len(all))
	if n == 0 {
		return false, fmt.Errorf("%w: %s", ErrRunNotFound, runID)
	}
	return stoppedAt(runID, offset, n, all[n-1])
}

// stoppedAt is checkOffset's answer for a log of n events whose last is
// last.
func stoppedAt(runID string, offset, n int64, last RunEvent) (done bool, err error) {
	if last.Type != eventEnd && last.Type != eventPause {
		return false, nil
	}
	count := n
	if last.Type == eventEnd {
		count = n - 1
	}
	if offset > count {
		return false, &OffsetError{RunID: runID, Offset: offset, Count: count}
	}
	// Below the count, the events came after the first read: read them.
	return offset == count, nil
}

// OwnerOfRun returns the memory thread and resource the run runID was
// started for (empty for a run without memory), or ErrRunNotFound when
// the agent's event log has no such run. A server checks it before it
// lets a caller observe or abort the run.
func (a *Agent) OwnerOfRun(ctx context.Context, runID string) (RunOwner, error) {
	return a.log.owner(ctx, runID)
}
