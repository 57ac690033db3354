package reconnecttest

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gomastra/mastra/agent"
)

// How a reader drops a reading.
const (
	// dropStop stops the iteration after the event.
	dropStop = iota
	// dropCancel cancels the reading's context after the event and
	// keeps the events the iteration still yields.
	dropCancel
	// dropCancelDiscard cancels the context and discards what the
	// iteration still yields (a connection that is gone).
	dropCancelDiscard
	dropModes
)

// drop is a planned drop: after the reader's after-th event in all (from
// 1), in mode.
type drop struct {
	after int
	mode  int
}

// planDrops plans one to three drops at distinct events of a run of
// events events.
func planDrops(rng *rand.Rand, events int) []drop {
	n := min(1+rng.IntN(3), events)
	points := rng.Perm(events)[:n]
	slices.Sort(points)
	plan := make([]drop, n)
	for i, p := range points {
		plan[i] = drop{after: p + 1, mode: rng.IntN(dropModes)}
	}
	return plan
}

// Event is a run event as readers compare it: Index, Type and Content
// (everything the reader got but whether it was live) must be the same
// for every reader of the run.
type Event struct {
	Index   int64
	Type    string
	Content string
	Live    bool
}

// ObserveFunc reads the run runID's events from offset on, then live
// ones, to the run's last one, as agent.Agent.Observe does.
type ObserveFunc func(ctx context.Context, runID string, offset int64) iter.Seq2[Event, error]

// AgentObserve reads a run with a.Observe.
func AgentObserve(a *agent.Agent) ObserveFunc {
	return func(ctx context.Context, runID string, offset int64) iter.Seq2[Event, error] {
		return func(yield func(Event, error) bool) {
			for e, err := range a.Observe(ctx, runID, offset) {
				var ev Event
				if err == nil {
					ev, err = eventOf(e)
				}
				if !yield(ev, err) || err != nil {
					return
				}
			}
		}
	}
}

func eventOf(e agent.RunEvent) (Event, error) {
	var data any = e.Chunk
	if e.Iteration != nil {
		data = e.Iteration
	}
	b, err := json.Marshal(data)
	content := fmt.Sprintf("%s %s", e.CreatedAt.Format(time.RFC3339Nano), b)
	return Event{Index: e.Index, Type: e.Type, Content: content, Live: e.Live}, err
}

// record is an event as readers compare it (all but Live).
type record struct {
	index   int64
	typ     string
	content string
}

// readAll reads the run from offset to its end.
func readAll(ctx context.Context, observe ObserveFunc, runID string, offset int64) ([]record, error) {
	var out []record
	for e, err := range observe(ctx, runID, offset) {
		if err != nil {
			return out, err
		}
		out = append(out, record{e.Index, e.Type, e.Content})
	}
	return out, nil
}

// dropped counts a reader's drops, and those at an event read live.
type dropped struct{ drops, live int }

// readWithDrops reads the run, dropping as planned and reconnecting at
// the last index read + 1 each time, and returns all it read and its
// drops. A planned drop that a reading kept past (after a cancel) is
// not made.
func readWithDrops(ctx context.Context, observe ObserveFunc, runID string, plan []drop) ([]record, dropped, error) {
	var got []record
	var n dropped
	for i := 0; ; i++ {
		d := drop{after: -1}
		if i < len(plan) {
			d = plan[i]
		}
		offset := int64(0)
		if n := len(got); n > 0 {
			offset = got[n-1].index + 1
		}
		seg, at, err := readSegment(ctx, observe, runID, offset, d, len(got))
		got = append(got, seg...)
		if at != nil {
			n.drops++
			if at.Live {
				n.live++
			}
		}
		if err != nil || i >= len(plan) {
			return got, n, err
		}
	}
}

// readSegment reads the run from offset, dropping after the reader's
// d.after-th event (it has read before events before this segment), and
// returns the event it dropped at, if it did.
func readSegment(ctx context.Context, observe ObserveFunc, runID string, offset int64, d drop, before int) ([]record, *Event, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var seg []record
	var at *Event
	cancelled := false
	for e, err := range observe(ctx, runID, offset) {
		if err != nil {
			if cancelled {
				break // the reading's own cancel
			}
			return seg, at, err
		}
		if cancelled && d.mode == dropCancelDiscard {
			continue
		}
		seg = append(seg, record{e.Index, e.Type, e.Content})
		if cancelled || before+len(seg) != d.after {
			continue
		}
		at = &e
		switch d.mode {
		case dropStop:
			return seg, at, nil
		case dropCancel, dropCancelDiscard:
			cancel()
			cancelled = true
		}
	}
	return seg, at, nil
}
