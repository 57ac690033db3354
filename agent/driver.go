package agent

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools/transform"
)

// run is one stream of a run: the run's state (what is saved), how it is
// saved, and what the stream needs and reports on the way. The driver
// (steps) moves it from step to step; the stages it composes — a model
// call (assembler), a step's calls (dispatch, execute) — are given what
// they need, not the run.
type run struct {
	agent   *Agent
	opts    runOptions
	ctx     context.Context
	cancel  context.CancelCauseFunc
	engine  Engine
	state   *runState
	journal *journal
	kit     *toolkit
	models  models
	st      *structuring // structured output, or nil
	policy  *transform.Policy
	report  report  // what the stream has reported
	result  outcome // how the run ended
	// deferred are the deferred background tasks the run enqueued on a
	// BackgroundEngine, which its end waits for (settleBackground).
	deferred []deferredTask
}

// models are the run's model and the current step's (prepareStep may
// change it for one step).
type models struct {
	base, step model.LanguageModel
}

// outcome is how the run ended: its finish reason, structured object, and
// error or tripwire.
type outcome struct {
	finishReason model.FinishReason
	object       any
	usedFallback bool
	err          *RunError
	tripwire     *Tripwire
}

// sink receives a run's chunks; false means its consumer has stopped.
type sink func(stream.Chunk) bool

// errStopped is the cause a run's context is cancelled with when its
// consumer stops.
var errStopped = errors.New("agent: the stream's consumer stopped")

// Stream runs the agent on input (a string, a model.Message or a
// []model.Message) and yields Mastra's chunks as they happen. The run
// stops when the consumer stops iterating or ctx is cancelled; no
// goroutine outlives it. A non-nil error ends the stream (an input the
// agent cannot take, a model call that failed); tool failures are chunks,
// not errors.
func (a *Agent) Stream(ctx context.Context, input any, opts ...Option) iter.Seq2[stream.Chunk, error] {
	if l := a.launcherFor(opts); l != nil {
		return a.launch(ctx, l, input, opts)
	}
	if s, ok := a.untilIdleStream(ctx, input, opts); ok {
		return s
	}
	return func(yield func(stream.Chunk, error) bool) {
		r, msgs, err := a.start(ctx, input, opts)
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		defer r.cancel(nil)
		out, end := r.live(r.sinkOf(yield))
		defer end()
		r.begin(out, msgs)
	}
}

// start prepares a run: its options, tools and input messages. The
// caller runs it (begin) and cancels its context.
func (a *Agent) start(ctx context.Context, input any, opts []Option) (*run, []model.Message, error) {
	msgs, err := inputMessages(input)
	if err != nil {
		return nil, nil, err
	}
	o := a.options(opts)
	r, err := a.newRun(ctx, o, &runState{AgentID: a.cfg.ID})
	if err != nil {
		return nil, nil, err
	}
	store, durable := a.runStore(), a.cfg.Storage != nil
	if _, replaying := r.engine.(ReplayingEngine); replaying {
		// The engine keeps the run's state; a journal in storage would
		// have a second process recover it.
		store, durable = a.local, false
	}
	r.journal = newJournal(store, storage.Run{RunID: o.runID, Kind: storage.KindAgent, Name: a.cfg.ID, ThreadID: o.threadID, ResourceID: o.resourceID}, durable)
	return r, msgs, nil
}

// newRun makes a run of options o on state: its model, tools, structured
// output and transform policy, and a cancelable context. The caller sets
// its journal.
func (a *Agent) newRun(ctx context.Context, o runOptions, state *runState) (*run, error) {
	m, err := a.resolveModel(ctx, o)
	if err != nil {
		return nil, err
	}
	own, err := a.ownTools(ctx, o)
	if err != nil {
		return nil, err
	}
	all, err := a.withClientTools(own, o.clientTools)
	if err != nil {
		return nil, err
	}
	var st *structuring
	if o.structured != nil {
		if st, err = newStructuring(o.structured); err != nil {
			return nil, fmt.Errorf("agent %s: %w", a.cfg.ID, err)
		}
	}
	engine := a.engine()
	if o.engine != nil {
		engine = o.engine
	}
	if _, replaying := engine.(ReplayingEngine); replaying && !a.log.shared() {
		return nil, fmt.Errorf("agent %s: a run on a replaying engine needs Config.Storage or Config.Events: a run event log that readers in other processes follow", a.cfg.ID)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	r := &run{agent: a, opts: o, ctx: ctx, cancel: cancel, engine: engine, state: state,
		kit: newToolkit(all, o.activeTools), models: models{base: m, step: m}, st: st, policy: transformPolicy(o, a)}
	if len(o.clientTools) > 0 {
		r.kit.own = own
	}
	r.report.messageID = r.engine.NewID()
	return r, nil
}

// sinkOf is the sink of a stream whose consumer is yield: once it stops,
// the run's context is cancelled (so running tools end) and nothing more
// is sent.
func (r *run) sinkOf(yield func(stream.Chunk, error) bool) sink {
	return func(c stream.Chunk) bool {
		if r.stopped() {
			return false
		}
		if !yield(c, nil) {
			r.cancel(errStopped)
			return false
		}
		return true
	}
}

// stopped reports whether the stream's consumer has stopped.
func (r *run) stopped() bool { return errors.Is(context.Cause(r.ctx), errStopped) }

// emit sends one chunk of the run.
func (r *run) emit(out sink, typ string, payload any) bool {
	return out(stream.Chunk{Type: typ, RunID: r.opts.runID, From: stream.FromAgent, Payload: payload})
}

// begin runs a fresh run on its input: the start chunk, the run's
// memory, its first save (before its input is remembered: a run whose
// input memory holds is always one a recovery finds), then its steps.
func (r *run) begin(out sink, input []model.Message) {
	span := r.startRunSpan()
	defer span.End()
	if !r.emit(out, stream.TypeStart, stream.StartPayload{ID: r.agent.cfg.ID, MessageID: r.report.messageID}) {
		return
	}
	carried, err := r.takeInput(input)
	if err == nil {
		err = r.save(storage.RunRunning, nil)
	}
	if err == nil {
		err = r.rememberInput(carried)
	}
	if err != nil {
		r.fail(out, err)
		return
	}
	r.steps(out, nil)
}

// takeInput fills the state from the request: the instructions, the
// memory history, the input (its system messages stay in the input; the
// messages it carries of an earlier response start the response; of the
// messages a thread with history already holds, none, see newToThread),
// and the options a resume keeps. It returns the carried messages.
func (r *run) takeInput(input []model.Message) ([]model.Message, error) {
	s := r.state
	s.Instructions = r.agent.cfg.Instructions
	if r.opts.instructions != nil {
		s.Instructions = *r.opts.instructions
	}
	if r.st != nil {
		s.Instructions = r.st.system(s.Instructions)
	}
	s.Context, s.MaxSteps, s.ThreadID, s.ResourceID = r.opts.context, r.opts.maxSteps, r.opts.threadID, r.opts.resourceID
	s.RequestContext = r.opts.requestContext.Serialisable()
	if err := r.remember(); err != nil {
		return nil, err
	}
	input = r.ingestToolResults(input)
	if len(s.History) > 0 {
		input = newToThread(input)
	}
	in, carried := splitInput(input)
	for _, m := range in {
		if m.Role != model.RoleSystem {
			s.User = append(s.User, m)
		}
	}
	if err := r.recall(); err != nil {
		return nil, err
	}
	if r.st != nil {
		in = r.st.inline(in)
	}
	s.Input, s.Carried = in, len(carried)
	s.Response = append(s.Response, carried...)
	return carried, nil
}

// steps is the driver: from the run's state, step after step — the
// model call (unless a step is pending: a resumed or recovered run's),
// the step's calls, its end — until the run ends, stops or suspends.
// resume, when set, is the answer to one waiting call of the pending
// step.
func (r *run) steps(out sink, resume *resumeInput) {
	for {
		if r.state.Pending == nil && !r.modelStep(out) {
			return
		}
		results, client, ok := r.callsStep(out, resume)
		if !ok {
			return
		}
		resume = nil
		if !r.endStep(out, results, client) {
			return
		}
	}
}

// change applies c to the run's state and, unless the run is ending
// (save false), saves it as running.
func (r *run) change(c stateChange, save bool) error {
	r.state.apply(c)
	if !save {
		return nil
	}
	return r.save(storage.RunRunning, &c)
}

// save saves the run's state as it is now in status: the change c, or
// (nil) all of it. Saves outlive the run's cancellation, so that a run
// stopped mid-way still saves what it has and stays recoverable.
func (r *run) save(status string, c *stateChange) error {
	return r.engine.Save(r.storageCtx(), func(ctx context.Context) error {
		return r.journal.record(ctx, status, r.state, c)
	})
}
