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
// ends after the run's last event: its end, or a RunEventFinish (a run
// that suspended ends its events there; its resume appends more, read
// from a later offset). A run whose log holds nothing yields
// ErrRunNotFound; a negative offset or one past an ended run's last
// event yields an *OffsetError; ctx's end yields ctx's error. Stopping
// the iteration does not affect the run.
func (a *Agent) Observe(ctx context.Context, runID string, offset int64) iter.Seq2[RunEvent, error] {
	return a.observe(ctx, runID, offset)
}
