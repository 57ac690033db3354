package agent

import (
	"context"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// DefaultMaxIdle is how long a stream WithUntilIdle waits for its
// background tasks without hearing of any before it ends anyway.
const DefaultMaxIdle = 5 * time.Minute

// WithUntilIdle keeps Stream open while the background tasks the run
// dispatched are running (Mastra's streamUntilIdle): the tasks'
// lifecycle chunks (background-task-running, -output, -completed,
// -failed, -cancelled, -suspended, -resumed) join the stream, and each
// time tasks end the agent is called again on the thread, with a
// message naming the calls that ended, their results being in memory by
// then. The stream ends when no task runs and no turn is going, or
// after maxIdle (0: DefaultMaxIdle) without news of a task. It applies
// to runs with a memory thread (WithMemory, Config.Storage and
// Config.Memory) of an agent with a background-task manager; other
// runs stream as usual.
func WithUntilIdle(maxIdle time.Duration) Option {
	if maxIdle <= 0 {
		maxIdle = DefaultMaxIdle
	}
	return func(o *runOptions) { o.untilIdle = maxIdle }
}

// untilIdleStream is the stream of a run WithUntilIdle, false when the
// run streams as usual.
func (a *Agent) untilIdleStream(ctx context.Context, input any, opts []Option) (iter.Seq2[stream.Chunk, error], bool) {
	o := a.options(opts)
	rt := a.background.get()
	if o.untilIdle <= 0 || rt == nil || a.cfg.Storage == nil || a.cfg.Memory == nil || o.threadID == "" {
		return nil, false
	}
	w := &idleWatch{a: a, rt: rt, maxIdle: o.untilIdle, thread: o.threadID, resource: o.resourceID,
		running: map[string]bool{}, seen: map[string]bool{}}
	return func(yield func(stream.Chunk, error) bool) { w.run(ctx, input, opts, yield) }, true
}

// idleWatch is one stream WithUntilIdle: its turns, and the tasks they
// dispatched.
type idleWatch struct {
	a                *Agent
	rt               *backgroundRuntime
	maxIdle          time.Duration
	thread, resource string

	running map[string]bool // tasks of this stream not ended
	ended   []endedTask     // ended tasks a continuation has not told of
	endIDs  [][2]string     // their task ids and event types
	seen    map[string]bool // "<taskId>:<type>" of ending chunks handled, and "<taskId>" of tasks ended
	events  <-chan bgtasks.Event
	wg      sync.WaitGroup
}

// run streams the first turn and the continuations into yield.
func (w *idleWatch) run(ctx context.Context, input any, opts []Option, yield func(stream.Chunk, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer w.wg.Wait()
	defer cancel()
	release := w.rt.openStream(w.thread, w.resource)
	defer release()
	w.events = w.subscribe(ctx)
	turnOpts := append(slices.Clone(opts), withoutUntilIdle)
	for {
		if !w.turn(ctx, input, turnOpts, yield) || !w.wait(ctx, yield) || len(w.ended) == 0 {
			return
		}
		for _, e := range w.endIDs {
			w.a.backgroundInjected(ctx, e[0], e[1])
		}
		directive := model.UserText(continuationDirective(w.ended))
		w.ended, w.endIDs = nil, nil
		input = []model.Message{}
		turnOpts = append(slices.Clone(opts), withoutUntilIdle, WithRunID(""), WithContextMessages(directive), withoutOnFinish)
	}
}

// subscribe delivers the manager's events of the thread's tasks until
// ctx ends.
func (w *idleWatch) subscribe(ctx context.Context) <-chan bgtasks.Event {
	ch := make(chan bgtasks.Event, 64)
	filter := bgtasks.StreamFilter{AgentID: w.a.cfg.ID, ThreadID: w.thread, ResourceID: w.resource}
	w.wg.Go(func() {
		defer close(ch)
		for e, err := range w.rt.manager.Stream(ctx, filter) {
			if err != nil {
				return
			}
			select {
			case ch <- e:
			case <-ctx.Done():
				return
			}
		}
	})
	return ch
}

// turnItem is one item of a turn's stream.
type turnItem struct {
	chunk stream.Chunk
	err   error
}

// turn streams one run of the agent, with the task events that come
// meanwhile; it reports whether the stream goes on.
func (w *idleWatch) turn(ctx context.Context, input any, opts []Option, yield func(stream.Chunk, error) bool) bool {
	items := make(chan turnItem)
	w.wg.Go(func() {
		defer close(items)
		for c, err := range w.a.Stream(ctx, input, opts...) {
			select {
			case items <- turnItem{c, err}:
			case <-ctx.Done():
				return
			}
		}
	})
	for {
		select {
		case it, ok := <-items:
			if !ok {
				return ctx.Err() == nil
			}
			if !yield(it.chunk, it.err) || it.err != nil {
				return false
			}
			if it.chunk.Type == bgStarted {
				if p, ok := it.chunk.Payload.(bgtasks.StartedPayload); ok {
					w.running[p.TaskID] = true
				}
			}
		case e, ok := <-w.events:
			if ok && !w.event(e, yield) {
				return false
			}
		}
	}
}

// wait streams task events while tasks of this stream run and none has
// ended; it reports whether the stream goes on.
func (w *idleWatch) wait(ctx context.Context, yield func(stream.Chunk, error) bool) bool {
	if !w.reconcile(ctx, yield) {
		return false
	}
	idle := time.NewTimer(w.maxIdle)
	defer idle.Stop()
	for len(w.ended) == 0 && len(w.running) > 0 {
		select {
		case e, ok := <-w.events:
			if !ok {
				return false
			}
			if !w.event(e, yield) {
				return false
			}
			idle.Reset(w.maxIdle)
		case <-idle.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// event streams one task event and notes what it says of the stream's
// tasks; false when the consumer stopped.
func (w *idleWatch) event(e bgtasks.Event, yield func(stream.Chunk, error) bool) bool {
	key := e.Task.ID + ":" + e.Type
	if isTaskEnd(e.Type) && w.seen[key] {
		return true
	}
	if !yield(e.Chunk(), nil) {
		return false
	}
	switch {
	case e.Type == bgtasks.TypeRunning && !w.seen[e.Task.ID]:
		// (a running event coming after the task's end is old news)
		w.running[e.Task.ID] = true
	case e.Type == bgtasks.TypeResumed:
		w.running[e.Task.ID] = true
		delete(w.seen, e.Task.ID+":"+bgSuspended)
	case isTaskEnd(e.Type) && w.running[e.Task.ID]:
		w.seen[key], w.seen[e.Task.ID] = true, true
		delete(w.running, e.Task.ID)
		w.ended = append(w.ended, endedTask{chunkType: e.Type, toolCallID: e.Task.ToolCallID, toolName: e.Task.ToolName})
		w.endIDs = append(w.endIDs, [2]string{e.Task.ID, e.Type})
	}
	return true
}

// reconcile looks up the stream's running tasks in the store: one that
// ended before the subscription told of it is reported (and ends) now;
// the subscription's own event of it is then left out. False when the
// consumer stopped.
func (w *idleWatch) reconcile(ctx context.Context, yield func(stream.Chunk, error) bool) bool {
	for id := range w.running {
		t, err := w.rt.manager.GetTask(ctx, id)
		if err != nil {
			continue
		}
		typ := endEventOf(t.Status)
		if typ == "" {
			continue
		}
		if !w.event(bgtasks.Event{Type: typ, Task: t}, yield) {
			return false
		}
	}
	return true
}

// endEventOf is the event type a task's status ends it with, "" while
// it has not ended.
func endEventOf(s bgtasks.Status) string {
	switch s {
	case bgtasks.Completed:
		return bgCompleted
	case bgtasks.Failed, bgtasks.TimedOut:
		return bgFailed
	case bgtasks.Cancelled:
		return bgCancelled
	case bgtasks.Suspended:
		return bgSuspended
	}
	return ""
}

// isTaskEnd reports whether a task event ends the task for a stream
// waiting on it (suspended included: the agent tells of it).
func isTaskEnd(typ string) bool {
	return typ == bgCompleted || typ == bgFailed || typ == bgCancelled || typ == bgSuspended
}

// withoutUntilIdle makes a turn of an idle stream an ordinary run.
func withoutUntilIdle(o *runOptions) { o.untilIdle = 0 }

// withoutOnFinish drops onFinish from a continuation (Mastra calls it
// for the first turn only).
func withoutOnFinish(o *runOptions) { o.onFinish = nil }
