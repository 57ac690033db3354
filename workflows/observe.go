package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// observeBatch is how many events an observer reads at a time.
const observeBatch = 256

// ObserveStream reads the run's chunks back from its event log
// (Config.Events), from the offset-th one (0: from the start), then
// follows the run live (Mastra's run.observeStream): the chunks are
// those Stream and ResumeStream yield, each run of them in order, in
// this process or, over a shared storage.RunEvents, in another. It ends
// after the run's last chunk (its workflow-finish), at a suspension
// (a suspended workflow-finish with nothing after it in the log, or a
// suspended run with nothing in its log from offset on), when the log
// has ended before offset, and for an ended run whose log has been
// removed; a run that has not started yet is waited for. A negative
// offset is an error. Observing does not change the run; stopping the
// iteration detaches the observer only.
func (r *Run) ObserveStream(ctx context.Context, offset int64) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		if offset < 0 {
			yield(stream.Chunk{}, fmt.Errorf("workflows: %s: observing run %s: negative offset %d", r.wf.cfg.ID, r.id, offset))
			return
		}
		o := &observer{run: r, log: r.wf.events(), next: offset}
		if err := o.follow(ctx, yield); err != nil {
			yield(stream.Chunk{}, fmt.Errorf("workflows: %s: observing run %s: %w", r.wf.cfg.ID, r.id, err))
		}
	}
}

// observer follows one run's log.
type observer struct {
	run  *Run
	log  storage.RunEvents
	next int64
	// last is the event before next, once read.
	last *storage.Event
	// launched: the run runs elsewhere (followLaunched); only its log
	// says when to stop.
	launched bool
}

// follow yields the run's chunks from o.next until the observation ends
// (see ObserveStream), the consumer stops (nil), or an error.
func (o *observer) follow(ctx context.Context, yield func(stream.Chunk, error) bool) error {
	woke := false
	for {
		events, err := o.log.ReadEvents(ctx, o.run.id, o.next, observeBatch)
		if err != nil {
			return err
		}
		if len(events) == 0 {
			if woke { // woken with nothing at next: the log ended before it
				return nil
			}
			if stop, err := o.idle(ctx); stop || err != nil {
				return err
			}
			if err := o.log.WaitEvents(ctx, o.run.id, o.next-1); err != nil {
				return err
			}
			woke = true
			continue
		}
		woke = false
		for i := range events {
			e := &events[i]
			if e.Type == storage.EventEnd {
				return nil
			}
			var c stream.Chunk
			if err := json.Unmarshal(e.Data, &c); err != nil {
				return fmt.Errorf("event %d: %w", e.Index, err)
			}
			if !yield(c, nil) {
				return nil
			}
			o.next, o.last = e.Index+1, e
		}
	}
}

// idle decides, when the log holds nothing from o.next on, whether the
// observation ends (true) or waits for more.
func (o *observer) idle(ctx context.Context) (bool, error) {
	if o.launched {
		return o.last != nil && suspendedFinish(o.last), nil
	}
	if o.last == nil && o.next > 0 {
		prev, err := o.log.ReadEvents(ctx, o.run.id, o.next-1, 1)
		if err != nil {
			return false, err
		}
		if len(prev) > 0 {
			o.last = &prev[0]
		}
	}
	if o.last != nil && suspendedFinish(o.last) {
		return true, nil
	}
	switch o.run.Status() {
	case StatusSuspended:
		// Its suspended finish is on its way unless the log is shorter
		// than next (or has none).
		return o.last == nil, nil
	case StatusSuccess, StatusFailed, StatusCanceled:
		// Its end is on its way unless it has no log (any longer).
		if o.last != nil {
			return false, nil
		}
		first, err := o.log.ReadEvents(ctx, o.run.id, 0, 1)
		return len(first) == 0, err
	}
	return false, nil
}

// suspendedFinish reports whether e is the workflow-finish of a
// suspension.
func suspendedFinish(e *storage.Event) bool {
	if e.Type != stream.TypeWorkflowFinish {
		return false
	}
	var c struct {
		Payload struct {
			WorkflowStatus string `json:"workflowStatus"`
		} `json:"payload"`
	}
	return json.Unmarshal(e.Data, &c) == nil && c.Payload.WorkflowStatus == StatusSuspended
}
