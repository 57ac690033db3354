package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// resumeTarget is the suspended step a resume is for. It is part of the
// snapshot, so a resume cut short by a crash is taken up again with the
// same data.
type resumeTarget struct {
	Step string `json:"step"`
	// Index is the foreach iteration, -1 for every suspended one.
	Index int             `json:"index"`
	Data  json.RawMessage `json:"data"`
}

// outcome is how a node (or a step) ended.
type outcome int

const (
	done outcome = iota
	suspended
	failed
	bailed
	canceled
)

// execute runs the graph from the state's position to the end or a
// suspension, streaming chunks through yield.
func (r *Run) execute(parent context.Context, yield func(stream.Chunk, error) bool) {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	r.mu.Lock()
	r.cancel, r.executing = cancel, true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.executing = false
		r.mu.Unlock()
	}()
	r.emitMu.Lock()
	r.emit = func(c stream.Chunk) bool { return yield(c, nil) }
	r.openLog(parent)
	r.emitMu.Unlock()
	if r.announces() {
		r.send(stream.TypeWorkflowStart, stream.FromWorkflow, map[string]any{"workflowId": r.wf.cfg.ID})
	}
	// A run with storage is found again even if its first step never
	// ends (a crash).
	if err := r.persist(ctx); err != nil {
		r.finish(ctx, StatusFailed, nil, err)
		return
	}
	nodes := r.wf.nodes
	for {
		r.mu.Lock()
		pos := r.state.Position
		prev := r.state.Prev
		r.mu.Unlock()
		if pos >= len(nodes) {
			r.finish(ctx, StatusSuccess, prev, nil)
			return
		}
		if r.pausesBefore(nodes[pos]) {
			r.flushLog()
			return
		}
		out, how, err := r.execNode(ctx, nodes[pos], prev)
		if ctx.Err() != nil && how != suspended {
			r.finish(ctx, StatusCanceled, nil, nil)
			return
		}
		switch how {
		case suspended:
			r.suspend(ctx)
			return
		case failed:
			r.finish(ctx, StatusFailed, nil, err)
			return
		case bailed:
			r.finish(ctx, StatusSuccess, out, nil)
			return
		}
		logNext := r.placedNext()
		r.mu.Lock()
		r.state.Position, r.state.Prev, r.state.Iteration, r.state.LoopInput = pos+1, out, 0, nil
		if r.advance != nil {
			r.state.LogNext = logNext
		}
		r.mu.Unlock()
		if err := r.persist(ctx); err != nil {
			r.finish(ctx, StatusFailed, nil, err)
			return
		}
		if r.isAdvance() && pos+1 < len(nodes) {
			r.flushLog() // one node per Advance
			return
		}
	}
}

// suspend ends the run's stream at a suspension, once the suspended run
// is saved (until then it reports itself running); a failed save fails
// the run.
func (r *Run) suspend(ctx context.Context) {
	r.mu.Lock()
	r.state.Status = StatusSuspended
	r.state.Suspended = r.suspendedPaths()
	r.unsaved = true
	r.mu.Unlock()
	err := r.persist(ctx)
	r.mu.Lock()
	r.unsaved = false
	r.mu.Unlock()
	if err != nil {
		r.finish(ctx, StatusFailed, nil, err)
		return
	}
	r.send(stream.TypeWorkflowFinish, stream.FromWorkflow, r.finishPayload(StatusSuspended))
	r.flushLog()
}

// finish ends the run with status (and err, when it failed).
func (r *Run) finish(ctx context.Context, status string, result json.RawMessage, err error) {
	r.mu.Lock()
	r.state.Status, r.state.Error, r.state.Suspended = status, errorInfo(err), nil
	if status == StatusSuccess {
		r.state.Result = result
	}
	r.mu.Unlock()
	if perr := r.persist(ctx); perr != nil && status == StatusSuccess {
		r.mu.Lock()
		r.state.Status, r.state.Error = StatusFailed, errorInfo(perr)
		r.mu.Unlock()
		status = StatusFailed
	}
	if status == StatusCanceled {
		r.send(stream.TypeWorkflowCanceled, stream.FromWorkflow, map[string]any{})
	}
	r.send(stream.TypeWorkflowFinish, stream.FromWorkflow, r.finishPayload(status))
	r.endLog()
}

func (r *Run) finishPayload(status string) finishPayload {
	p := finishPayload{WorkflowStatus: status, Metadata: map[string]any{}}
	if status == StatusSuccess {
		r.mu.Lock()
		p.FinalWorkflowResult = orNull(r.state.Result)
		r.mu.Unlock()
	}
	return p
}

// send emits a chunk of the run.
func (r *Run) send(typ string, from stream.From, payload any) {
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	c := stream.Chunk{Type: typ, RunID: r.id, From: from, Payload: payload}
	r.publish(c)
	if r.emit != nil {
		if !r.emit(c) {
			r.emit = nil
		}
	}
}

// execNode runs one node on its input.
func (r *Run) execNode(ctx context.Context, n *node, in json.RawMessage) (json.RawMessage, outcome, error) {
	switch n.kind {
	case kindStep:
		r.onPath(n.steps[0].ID())
		return r.runStep(ctx, n.steps[0], n.steps[0].ID(), in, true)
	case kindParallel, kindBranch:
		return r.runGroup(ctx, n, in)
	case kindDoWhile, kindDoUntil:
		return r.runLoop(ctx, n, in)
	case kindForeach:
		return r.runForeach(ctx, n, in)
	case kindMap:
		v, err := n.mapFn(ctx, MapInput{Output: in, InitData: r.state.Input, State: r.currentState(), StepResult: r.stepOutputBytes})
		if err != nil {
			return nil, failed, fmt.Errorf("map %s: %w", n.id, err)
		}
		out, err := marshal(v)
		if err != nil {
			return nil, failed, fmt.Errorf("map %s: %w", n.id, err)
		}
		r.onPath(n.id)
		r.record(n.id, &StepResult{Status: StatusSuccess, Payload: in, Output: out, StartedAt: nowMillis(), EndedAt: nowMillis()})
		return out, done, nil
	case kindSleep:
		if r.isAdvance() {
			return in, done, nil // the engine slept (AdvanceOptions.Slept)
		}
		t := time.NewTimer(n.sleep)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, canceled, context.Cause(ctx)
		}
		return in, done, nil
	}
	return nil, failed, fmt.Errorf("unknown node %q", n.kind)
}

// runStep runs a step on in, or reuses its result when it already
// succeeded in this position (reuse is false for loop iterations). A
// suspended step runs again only when the resume is for it.
func (r *Run) runStep(ctx context.Context, s *Step, key string, in json.RawMessage, reuse bool) (json.RawMessage, outcome, error) {
	prior := r.stepRecord(key)
	var resumeData json.RawMessage
	switch {
	case prior != nil && prior.Status == StatusSuccess && reuse:
		return prior.Output, done, nil
	case prior != nil && prior.Status == StatusSuspended:
		rt := r.takeResume(key, -1)
		if rt == nil {
			return nil, suspended, nil
		}
		resumeData = rt.Data
	}
	res := &StepResult{Status: StatusRunning, Payload: in, StartedAt: nowMillis()}
	if prior != nil && resumeData != nil {
		// As Mastra: the record keeps its start, and the suspension's
		// payload and time give way to the resume's.
		res.StartedAt, res.ResumePayload, res.ResumedAt = prior.StartedAt, resumeData, nowMillis()
	}
	r.record(key, res)
	callID := newID()
	r.stepChunk(stream.TypeWorkflowStepStart, key, callID, res)
	return r.callStep(ctx, s, key, callID, in, resumeData, prior)
}

// callStep executes the step's tool and records the outcome.
func (r *Run) callStep(ctx context.Context, s *Step, key, callID string, in, resumeData json.RawMessage, prior *StepResult) (json.RawMessage, outcome, error) {
	inv := r.withRegistry(ctx, r.invocation(s, key, resumeData, prior))
	result, err := s.tool.Execute(withFrame(ctx, &frame{run: r, stepID: key, step: s}), in, inv)
	r.mu.Lock()
	rec := r.state.Steps[key]
	out, how, stepErr := settle(rec, s, result, err)
	r.touchStep(key)
	r.mu.Unlock()
	typ := stream.TypeWorkflowStepResult
	if how == suspended {
		typ = stream.TypeWorkflowStepSuspended
	}
	r.stepChunk(typ, key, callID, rec)
	return out, how, stepErr
}

// invocation is the tool invocation of a step.
func (r *Run) invocation(s *Step, key string, resumeData json.RawMessage, prior *StepResult) *tools.Invocation {
	inv := &tools.Invocation{
		RunID: r.id, ToolName: s.ID(), RequestContext: r.rc,
		Writer: stepWriter{run: r, stepID: key},
		Workflow: &tools.WorkflowInfo{RunID: r.id, WorkflowID: r.wf.cfg.ID, State: r.stateValue(),
			SetState: func(v any) error { return r.setState(s, v) }},
	}
	if resumeData != nil {
		inv.ResumeData = resumeData
		if prior != nil {
			inv.SuspendPayload = prior.SuspendPayload
		}
	}
	return inv
}

// settle records how a step's tool call ended in rec (the caller holds
// r.mu) and returns the step's output and outcome.
func settle(rec *StepResult, s *Step, result *tools.Result, err error) (json.RawMessage, outcome, error) {
	rec.EndedAt = nowMillis()
	var bail *bailError
	switch {
	case errors.As(err, &bail):
		rec.Status, rec.Output = StatusSuccess, bail.result
		return bail.result, bailed, nil
	case err != nil:
		rec.Status, rec.Error = StatusFailed, errorInfo(err)
		return nil, failed, err
	case result.Suspended():
		rec.Status, rec.SuspendPayload, rec.SuspendedAt, rec.EndedAt = StatusSuspended, result.Suspension.Payload, nowMillis(), 0
		rec.ResumeSchema, rec.SuspendedRunID = result.Suspension.Options.ResumeSchema, result.Suspension.Options.RunID
		if rec.ResumeSchema == "" && s.ResumeSchema() != nil {
			if b, err := json.Marshal(s.ResumeSchema().JSONSchema()); err == nil {
				rec.ResumeSchema = string(b)
			}
		}
		return nil, suspended, nil
	case result.ValidationError() != nil:
		ve := result.ValidationError()
		verr := newError(mastraerror.IDWorkflowStepInputValidationFailed, "Step input validation failed: \n"+issueLines(ve.Issues, ve.Truncated))
		rec.Status, rec.Error = StatusFailed, errorInfo(verr)
		return nil, failed, verr
	}
	out, err := result.JSON()
	if err != nil {
		rec.Status, rec.Error = StatusFailed, errorInfo(err)
		return nil, failed, err
	}
	rec.Status, rec.Output = StatusSuccess, out
	return out, done, nil
}

// runGroup runs a parallel node's steps, or a branch's chosen ones, at
// once; the output is their outputs keyed by step id.
func (r *Run) runGroup(ctx context.Context, n *node, in json.RawMessage) (json.RawMessage, outcome, error) {
	chosen := n.steps
	if n.kind == kindBranch {
		var err error
		if chosen, err = r.branchSteps(ctx, n, in); err != nil {
			return nil, failed, err
		}
	}
	outs := make([]json.RawMessage, len(chosen))
	hows := make([]outcome, len(chosen))
	errs := make([]error, len(chosen))
	var wg sync.WaitGroup
	for i, s := range chosen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], hows[i], errs[i] = r.runStep(ctx, s, s.ID(), in, true)
		}()
	}
	wg.Wait()
	obj := map[string]json.RawMessage{}
	worst := done
	var firstErr error
	for i, s := range chosen {
		switch hows[i] {
		case failed, canceled:
			if firstErr == nil {
				firstErr = errs[i]
			}
			worst = failed
		case suspended:
			if worst == done {
				worst = suspended
			}
		case bailed:
			return outs[i], bailed, nil
		}
		obj[s.ID()] = outs[i]
	}
	if worst != done {
		return nil, worst, firstErr
	}
	out, err := orderedObject(chosen, obj)
	return out, done, err
}

// branchSteps are the steps of a branch whose conditions hold: decided
// once, then remembered through the results the chosen steps leave.
func (r *Run) branchSteps(ctx context.Context, n *node, in json.RawMessage) ([]*Step, error) {
	var earlier []*Step
	for _, s := range n.steps {
		if r.stepRecord(s.ID()) != nil {
			earlier = append(earlier, s)
		}
	}
	if len(earlier) > 0 {
		return earlier, nil
	}
	var chosen []*Step
	for i, cond := range n.conds {
		ok, err := cond(ctx, r.conditionInput(in, 0))
		if err != nil {
			return nil, fmt.Errorf("branch condition %d: %w", i, err)
		}
		if ok {
			chosen = append(chosen, n.steps[i])
		}
	}
	return chosen, nil
}

// runLoop runs a dowhile/dountil node: the step on its own output until
// the condition says stop.
func (r *Run) runLoop(ctx context.Context, n *node, in json.RawMessage) (json.RawMessage, outcome, error) {
	s := n.steps[0]
	r.mu.Lock()
	iteration, input := r.state.Iteration, r.state.LoopInput
	r.mu.Unlock()
	if iteration == 0 {
		iteration, input = 1, in
	}
	for {
		resuming := false
		if rec := r.stepRecord(s.ID()); rec != nil && rec.Status == StatusSuspended {
			resuming = true
		}
		if !resuming {
			r.clearRecord(s.ID())
		}
		r.mu.Lock()
		r.state.Iteration, r.state.LoopInput = iteration, input
		r.mu.Unlock()
		out, how, err := r.runStep(ctx, s, s.ID(), input, false)
		if rec := r.stepRecord(s.ID()); rec != nil {
			r.mu.Lock()
			rec.Metadata = map[string]any{"iterationCount": iteration}
			r.touchStep(s.ID())
			r.mu.Unlock()
		}
		if how != done {
			return out, how, err
		}
		more, err := n.cond(ctx, r.conditionInput(out, iteration))
		if err != nil {
			return nil, failed, fmt.Errorf("loop condition of %s: %w", s.ID(), err)
		}
		if n.kind == kindDoUntil {
			more = !more
		}
		if !more {
			return out, done, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, canceled, err
		}
		iteration, input = iteration+1, out
	}
}

// runForeach runs the step on each element, at most n.concurrency at a
// time; the output is the outputs in order.
func (r *Run) runForeach(ctx context.Context, n *node, in json.RawMessage) (json.RawMessage, outcome, error) {
	s := n.steps[0]
	var items []json.RawMessage
	if err := json.Unmarshal(in, &items); err != nil {
		return nil, failed, fmt.Errorf("foreach %s: the input is not an array: %w", s.ID(), err)
	}
	rec := r.foreachRecord(s.ID(), in, len(items))
	r.stepChunk(stream.TypeWorkflowStepStart, s.ID(), "", &StepResult{Status: StatusRunning, Payload: in, StartedAt: rec.StartedAt})
	outs := make([]json.RawMessage, len(items))
	hows := make([]outcome, len(items))
	errs := make([]error, len(items))
	sem := make(chan struct{}, n.concurrency)
	var wg sync.WaitGroup
	for i := range items {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			outs[i], hows[i], errs[i] = r.runItem(ctx, s, rec, i, items[i])
		}()
	}
	wg.Wait()
	r.mu.Lock()
	if r.state.Resume != nil && r.state.Resume.Step == s.ID() {
		r.state.Resume = nil
	}
	r.mu.Unlock()
	worst := done
	var firstErr error
	for i := range items {
		switch hows[i] {
		case failed, canceled:
			worst = failed
			if firstErr == nil {
				firstErr = errs[i]
			}
		case suspended:
			if worst == done {
				worst = suspended
			}
		}
	}
	return r.endForeach(s, rec, worst, outs, firstErr)
}

// foreachRecord is the record of foreach step key over n items: the one
// the run has (a resumed foreach's), or a new one.
func (r *Run) foreachRecord(key string, in json.RawMessage, n int) *StepResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	rec := r.state.Steps[key]
	if rec == nil || len(rec.Items) != n {
		rec = &StepResult{Status: StatusRunning, Payload: in, StartedAt: nowMillis(), Items: make([]*StepResult, n)}
		r.state.Steps[key] = rec
		r.touch(key)
	}
	return rec
}

// endForeach records how foreach step s ended in rec (worst: the worst
// of its iterations' outcomes, outs their outputs) and, unless it
// suspended, streams its result.
func (r *Run) endForeach(s *Step, rec *StepResult, worst outcome, outs []json.RawMessage, firstErr error) (json.RawMessage, outcome, error) {
	r.mu.Lock()
	r.touchStep(s.ID())
	defer func() {
		r.mu.Unlock()
		if worst != suspended {
			r.send(stream.TypeWorkflowStepResult, stream.FromWorkflow, stepPayload{StepName: s.ID(), ID: s.ID(), Status: rec.Status, Output: rec.Output, Error: rec.Error, EndedAt: rec.EndedAt})
		}
	}()
	switch worst {
	case done:
		out, err := json.Marshal(outs)
		rec.Status, rec.Output, rec.EndedAt = StatusSuccess, out, nowMillis()
		return out, done, err
	case suspended:
		rec.Status = StatusSuspended
	default:
		rec.Status, rec.Error = StatusFailed, errorInfo(firstErr)
	}
	return nil, worst, firstErr
}

// runItem runs one foreach iteration.
func (r *Run) runItem(ctx context.Context, s *Step, rec *StepResult, i int, in json.RawMessage) (json.RawMessage, outcome, error) {
	r.mu.Lock()
	prior := rec.Items[i]
	r.mu.Unlock()
	var resumeData json.RawMessage
	switch {
	case prior != nil && prior.Status == StatusSuccess:
		return prior.Output, done, nil
	case prior != nil && prior.Status == StatusSuspended:
		rt := r.takeResume(s.ID(), i)
		if rt == nil {
			return nil, suspended, nil
		}
		resumeData = rt.Data
	}
	item := &StepResult{Status: StatusRunning, Payload: in, StartedAt: nowMillis()}
	r.mu.Lock()
	rec.Items[i] = item
	r.touchItem(s.ID(), i)
	r.mu.Unlock()
	inv := r.invocation(s, s.ID(), resumeData, prior)
	if resumeData != nil {
		item.StartedAt, item.ResumePayload, item.ResumedAt = prior.StartedAt, resumeData, nowMillis()
	}
	result, err := s.tool.Execute(withFrame(ctx, &frame{run: r, stepID: s.ID(), step: s}), in, inv)
	r.mu.Lock()
	out, how, stepErr := settle(item, s, result, err)
	r.touchItem(s.ID(), i)
	completed := 0
	for _, it := range rec.Items {
		if it != nil && it.Status != StatusRunning {
			completed++
		}
	}
	status := item.Status
	r.mu.Unlock()
	r.send(stream.TypeWorkflowStepProgress, stream.FromWorkflow, progressPayload{
		StepName: s.ID(), ID: s.ID(), CompletedCount: completed, TotalCount: len(rec.Items), CurrentIndex: i, IterationStatus: status, IterationOutput: out,
	})
	return out, how, stepErr
}

// takeResume returns the resume for step key (foreach iteration index,
// -1 for any) and consumes it.
func (r *Run) takeResume(key string, index int) *resumeTarget {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt := r.state.Resume
	if rt == nil || rt.Step != key {
		return nil
	}
	if index >= 0 && rt.Index >= 0 && rt.Index != index {
		return nil
	}
	if index >= 0 && rt.Index < 0 {
		// A foreach resumed without an index: every suspended
		// iteration gets the data (runForeach clears the resume).
		return rt
	}
	r.state.Resume = nil
	return rt
}

// suspendedPaths lists the suspended steps.
func (r *Run) suspendedPaths() [][]string {
	var paths [][]string
	for _, n := range r.wf.nodes {
		for _, s := range n.steps {
			if rec := r.state.Steps[s.ID()]; rec != nil && rec.Status == StatusSuspended {
				p := []string{s.ID()}
				if s.nested != nil && rec.SuspendedRunID != "" {
					p = append(p, nestedPath(rec.SuspendPayload)...)
				}
				paths = append(paths, p)
			}
		}
	}
	return paths
}

func (r *Run) record(key string, rec *StepResult) {
	r.mu.Lock()
	if !slices.Contains(r.state.Order, key) {
		r.state.Order = append(r.state.Order, key)
	}
	r.state.Steps[key] = rec
	r.touch(key)
	r.mu.Unlock()
}

// onPath records a sequential step in the execution path (once).
func (r *Run) onPath(key string) {
	r.mu.Lock()
	if !slices.Contains(r.state.Path, key) {
		r.state.Path = append(r.state.Path, key)
	}
	r.mu.Unlock()
}

func (r *Run) clearRecord(key string) {
	r.mu.Lock()
	delete(r.state.Steps, key)
	r.touch(key)
	r.mu.Unlock()
}

func (r *Run) stepRecord(key string) *StepResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state.Steps[key]
}

func (r *Run) stepOutput(stepID string) (json.RawMessage, bool) {
	rec := r.stepRecord(stepID)
	if rec == nil || rec.Status != StatusSuccess {
		return nil, false
	}
	return rec.Output, true
}

func (r *Run) stepOutputBytes(stepID string) ([]byte, bool) { return r.stepOutput(stepID) }

func (r *Run) currentState() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.state.State) == 0 {
		return json.RawMessage("null")
	}
	return r.state.State
}

func (r *Run) stateValue() any {
	var v any
	_ = json.Unmarshal(r.currentState(), &v)
	return v
}

// setState replaces the workflow state after validating it against the
// step's and the workflow's state schemas.
func (r *Run) setState(s *Step, v any) error {
	raw, err := marshal(v)
	if err != nil {
		return fmt.Errorf("workflows: state: %w", err)
	}
	if s != nil && s.state != nil {
		if err := validate(s.state, raw, "state"); err != nil {
			return err
		}
	}
	if r.wf.cfg.StateSchema != nil {
		if err := validate(r.wf.cfg.StateSchema, raw, "state"); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.state.State = raw
	r.mu.Unlock()
	return nil
}

func (r *Run) conditionInput(out json.RawMessage, iteration int) ConditionInput {
	return ConditionInput{Output: out, Iteration: iteration, State: r.currentState(), StepResult: r.stepOutputBytes}
}

// validate checks raw against s; the error is Mastra's
// "Invalid <what>: \n- <path>: <message>" text.
func validate(s schema.Schema, raw json.RawMessage, what string) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return validationError(what, "Invalid "+what+": "+err.Error())
	}
	if _, issues := s.Validate(v); len(issues) > 0 {
		return validationError(what, "Invalid "+what+": \n"+issueLines(issues, false))
	}
	return nil
}

// validateAbsent checks that s accepts no value at all (JavaScript's
// undefined: a start without inputData), with validate's error. The
// schema is checked as a required property of an object that lacks it,
// which is how the schema package validates an absent value.
func validateAbsent(s schema.Schema, what string) error {
	js := s.JSONSchema()
	if js == nil {
		return nil
	}
	holder, err := schema.Compile(&jsonschema.Schema{Type: "object",
		Properties: map[string]*jsonschema.Schema{"value": js}, Required: []string{"value"}})
	if err != nil {
		return nil // the schema compiled once already; nothing better to say
	}
	if _, issues := holder.Validate(map[string]any{}); len(issues) > 0 {
		for i := range issues {
			issues[i].Path = issues[i].Path[min(1, len(issues[i].Path)):]
		}
		return validationError(what, "Invalid "+what+": \n"+issueLines(issues, false))
	}
	return nil
}

// issueLines are "- <path>: <message>" lines, as Mastra writes them (the
// path joined with ".", empty for the value itself), for the first
// schema.MaxIssues issues, then tools.LeftOutLine when there were more
// or truncated says some were left out already.
func issueLines(issues []schema.Issue, truncated bool) string {
	shown, more := schema.CapIssues(issues)
	var b strings.Builder
	for i, is := range shown {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- " + strings.Join(is.Path, ".") + ": " + is.Message)
	}
	if more || truncated {
		b.WriteString("\n" + tools.LeftOutLine)
	}
	return b.String()
}

// orderedObject encodes outputs keyed by step id, in the steps' order.
func orderedObject(steps []*Step, obj map[string]json.RawMessage) (json.RawMessage, error) {
	b := []byte{'{'}
	for i, s := range steps {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(s.ID())
		b = append(append(append(b, k...), ':'), obj[s.ID()]...)
	}
	return append(b, '}'), nil
}

// stepWriter streams a step's writes as workflow-step-output chunks.
type stepWriter struct {
	run    *Run
	stepID string
}

func (w stepWriter) Write(data any) error {
	w.run.send(stream.TypeWorkflowStepOutput, stream.FromUser, outputPayload{StepName: w.stepID, Output: data, RunID: w.run.id})
	return nil
}

func (w stepWriter) Custom(c tools.DataChunk) error {
	if err := tools.CheckDataChunk(c); err != nil {
		return err
	}
	w.run.emitMu.Lock()
	defer w.run.emitMu.Unlock()
	if w.run.emit != nil && !w.run.emit(stream.Chunk{Type: c.Type, RunID: w.run.id, From: stream.FromWorkflow, Data: c.Data, ID: c.ID, Transient: c.Transient}) {
		w.run.emit = nil
	}
	return nil
}

func newID() string { return uuid.New() }
