package agent

import (
	"context"
	"iter"
	"slices"

	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// callOutcome is how one call ended (or that it now waits): its new
// state and the chunk that reports it (none for a client call).
type callOutcome struct {
	index int
	call  callState
	chunk stream.Chunk
}

// event is what a call's goroutine sends the dispatcher: a chunk its
// tool wrote, or its outcome. One channel keeps each call's events in
// order.
type event struct {
	chunk   stream.Chunk
	outcome *callOutcome
}

// dispatch runs the pending step's calls that have not ended (and the
// waiting one resume is for), at most ToolCallConcurrency at a time —
// a call that needs approval does not run but waits, one that may
// suspend runs alongside the others — and streams tool-output
// chunks as tools write them and the outcomes' chunks in the model's
// call order. Each outcome is given to record as it arrives, before its
// chunk is streamed (record saves it). The chunks of the first waiting
// call and all after it are not streamed but appended to held: they go
// out once the step is saved as suspended.
//
// A tool that ignores its context is not waited for once the run's
// context ends (its goroutine ends when the tool returns, delivering to
// no one) — unless the run was aborted: an abort ends the calls in
// flight as they end, keeping their outcomes, and starts no other.
func (r *run) dispatch(resume *resumeInput, record func(callOutcome), held *[]stream.Chunk) iter.Seq[stream.Chunk] {
	return func(yield func(stream.Chunk) bool) {
		calls := r.state.Pending.Calls
		todo := callsToRun(calls, resume)
		g := r.newGroup(r.agent.cfg.ToolCallConcurrency)
		defer g.Close()
		r.startCalls(g, todo, calls, resume)
		order := newCallOrder(len(calls), todo)
		watch := true
		for {
			msg, ok := g.Next(watch)
			if !ok {
				if watch && r.ctx.Err() != nil && r.aborted() {
					watch = false // an aborted run keeps the outcomes of its calls in flight
					continue
				}
				return
			}
			ev := msg.(event)
			if ev.outcome == nil {
				if !yield(ev.chunk) {
					return
				}
				continue
			}
			record(*ev.outcome)
			for c := range order.release(ev.outcome) {
				if order.holding {
					*held = append(*held, c)
				} else if !yield(c) {
					return
				}
			}
		}
	}
}

// callsToRun are the indexes of the calls that run: those running, and
// the waiting one resume is for.
func callsToRun(calls []callState, resume *resumeInput) []int {
	var todo []int
	for i, c := range calls {
		if c.Status == callRunning || (resume != nil && resume.toolCallID == c.ID && c.waiting()) {
			todo = append(todo, i)
		}
	}
	return todo
}

// startCalls runs the calls todo in g, which hands their events (chunks
// their tools write, then their outcomes) to the dispatcher.
func (r *run) startCalls(g Group, todo []int, calls []callState, resume *resumeInput) {
	resumeOf := func(i int) *resumeInput {
		if resume != nil && resume.toolCallID == calls[i].ID {
			return resume
		}
		if calls[i].Resume != nil {
			return calls[i].Resume.input(calls[i].ID)
		}
		return nil
	}
	gated := r.approvals(todo, calls, resumeOf)
	for _, i := range todo {
		g.Go(func(send func(any) bool) {
			deliver := func(ev event) { send(ev) }
			w := chanWriter{ctx: r.ctx, runID: r.opts.runID, id: calls[i].ID, name: calls[i].Name, deliver: deliver}
			o := r.execute(i, calls[i], resumeOf(i), gated[i], w)
			deliver(event{outcome: &o})
		})
	}
}

// callOrder releases outcomes' chunks in the model's call order, and
// holds from the first waiting call on.
type callOrder struct {
	ready   []bool
	chunks  []*stream.Chunk
	next    int
	holding bool
}

func newCallOrder(n int, todo []int) *callOrder {
	o := &callOrder{ready: make([]bool, n), chunks: make([]*stream.Chunk, n)}
	for i := range n {
		o.ready[i] = !slices.Contains(todo, i)
	}
	return o
}

// release records outcome (nil: none) and yields the chunks now in
// order; holding turns on at the first waiting call.
func (o *callOrder) release(outcome *callOutcome) iter.Seq[stream.Chunk] {
	if outcome != nil {
		o.ready[outcome.index] = true
		if outcome.call.Status != callClient {
			c := outcome.chunk
			o.chunks[outcome.index] = &c
		}
	}
	return func(yield func(stream.Chunk) bool) {
		for o.next < len(o.ready) && o.ready[o.next] {
			c := o.chunks[o.next]
			o.next++
			if c == nil {
				continue
			}
			if isWaitingChunk(*c) {
				o.holding = true
			}
			if !yield(*c) {
				return
			}
		}
	}
}

// isWaitingChunk tells a chunk that reports a waiting call.
func isWaitingChunk(c stream.Chunk) bool {
	return c.Type == stream.TypeToolCallApproval || c.Type == stream.TypeToolCallSuspended
}

// chanWriter sends a tool's writes to the dispatcher as chunks.
type chanWriter struct {
	ctx      context.Context
	runID    string
	id, name string
	deliver  func(event)
}

func (w chanWriter) send(c stream.Chunk) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	w.deliver(event{chunk: c})
	return nil
}

func (w chanWriter) Write(data any) error {
	return w.send(stream.Chunk{Type: stream.TypeToolOutput, RunID: w.runID, From: stream.FromUser,
		Payload: stream.ToolOutputPayload{Output: data, ToolCallID: w.id, ToolName: w.name}})
}

func (w chanWriter) Custom(c tools.DataChunk) error {
	if err := tools.CheckDataChunk(c); err != nil {
		return err
	}
	return w.send(stream.Chunk{Type: c.Type, Data: c.Data, ID: c.ID, Transient: c.Transient})
}
