package workflows

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// resumeTarget is the suspended step a resume is for.
type resumeTarget struct {
	path []string
	// index is the foreach iteration, -1 for the first suspended one.
	index int
	data  json.RawMessage
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
	r.cancel = cancel
	r.mu.Unlock()
	r.emit = func(c stream.Chunk) bool { return yield(c, nil) }
	r.send(stream.TypeWorkflowStart, map[string]any{"workflowId": r.wf.cfg.ID})
	nodes := r.wf.nodes
	for {
		r.mu.Lock()
		pos := r.state.Position
		prev := r.state.Prev
		r.mu.Unlock()
		if pos >= len(nodes) {
			r.finish(ctx, StatusSuccess, prev, "")
			return
		}
		out, how, err := r.execNode(ctx, nodes[pos], prev)
		if ctx.Err() != nil && how != suspended {
			r.finish(ctx, StatusCanceled, nil, "")
			return
		}
		switch how {
		case suspended:
			r.mu.Lock()
			r.state.Status = StatusSuspended
			r.state.Suspended = r.suspendedPaths()
			r.mu.Unlock()
			if err := r.persist(ctx); err != nil {
				r.finish(ctx, StatusFailed, nil, err.Error())
				return
			}
			r.send(stream.TypeWorkflowFinish, r.finishPayload(StatusSuspended))
			return
		case failed:
			r.finish(ctx, StatusFailed, nil, err.Error())
			return
		case bailed:
			r.finish(ctx, StatusSuccess, out, "")
			return
		}
		r.mu.Lock()
		r.state.Position, r.state.Prev, r.state.Iteration, r.state.LoopInput = pos+1, out, 0, nil
		r.mu.Unlock()
		if err := r.persist(ctx); err != nil {
			r.finish(ctx, StatusFailed, nil, err.Error())
			return
		}
	}
}

// finish ends the run with status.
func (r *Run) finish(ctx context.Context, status string, result json.RawMessage, errText string) {
	r.mu.Lock()
	r.state.Status, r.state.Error, r.state.Suspended = status, errText, nil
	if status == StatusSuccess {
		r.state.Result = result
	}
	r.mu.Unlock()
	if err := r.persist(ctx); err != nil && status == StatusSuccess {
		r.mu.Lock()
		r.state.Status, r.state.Error = StatusFailed, err.Error()
		r.mu.Unlock()
		status = StatusFailed
	}
	if status == StatusCanceled {
		r.send(stream.TypeWorkflowCanceled, map[string]any{})
	}
	r.send(stream.TypeWorkflowFinish, r.finishPayload(status))
}

func (r *Run) finishPayload(status string) map[string]any {
	return map[string]any{"workflowStatus": status, "output": map[string]any{}, "metadata": map[string]any{}}
}

// send emits a workflow chunk.
func (r *Run) send(typ string, payload any) {
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	if r.emit != nil {
		if !r.emit(stream.Chunk{Type: typ, RunID: r.id, From: stream.FromWorkflow, Payload: payload}) {
			r.emit = nil
		}
	}
}

// execNode runs one node on its input.
func (r *Run) execNode(ctx context.Context, n *node, in json.RawMessage) (json.RawMessage, outcome, error) {
	switch n.kind {
	case kindStep:
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
		r.record(n.id, &StepResult{Status: StatusSuccess, Payload: in, Output: out, StartedAt: nowMillis(), EndedAt: nowMillis()})
		return out, done, nil
	case kindSleep:
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
		resumeData = rt.data
	}
	res := &StepResult{Status: StatusRunning, Payload: in, StartedAt: nowMillis()}
	if prior != nil && resumeData != nil {
		res.StartedAt, res.SuspendPayload, res.ResumePayload, res.ResumedAt = prior.StartedAt, prior.SuspendPayload, resumeData, nowMillis()
	}
	r.record(key, res)
	r.send(stream.TypeWorkflowStepStart, map[string]any{"id": key, "stepCallId": newID(), "status": StatusRunning, "payload": in, "startedAt": res.StartedAt})
	out, how, err := r.callStep(ctx, s, key, in, resumeData, prior)
	return out, how, err
}

// callStep executes the step's tool and records the outcome.
func (r *Run) callStep(ctx context.Context, s *Step, key string, in, resumeData json.RawMessage, prior *StepResult) (json.RawMessage, outcome, error) {
	f := &frame{run: r, stepID: key, step: s}
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
	result, err := s.tool.Execute(withFrame(ctx, f), in, inv)
	rec := r.stepRecord(key)
	rec.EndedAt = nowMillis()
	var bail *bailError
	switch {
	case errors.As(err, &bail):
		rec.Status, rec.Output = StatusSuccess, bail.result
		r.sendResult(key, rec)
		return bail.result, bailed, nil
	case err != nil:
		rec.Status, rec.Error = StatusFailed, err.Error()
		r.sendResult(key, rec)
		return nil, failed, fmt.Errorf("step %s: %w", key, err)
	case result.Suspended():
		rec.Status, rec.SuspendPayload, rec.SuspendedAt, rec.EndedAt = StatusSuspended, result.Suspension.Payload, nowMillis(), 0
		rec.ResumeSchema, rec.SuspendedRunID = result.Suspension.Options.ResumeSchema, result.Suspension.Options.RunID
		if rec.ResumeSchema == "" && s.ResumeSchema() != nil {
			if b, err := json.Marshal(s.ResumeSchema().JSONSchema()); err == nil {
				rec.ResumeSchema = string(b)
			}
		}
		r.send(stream.TypeWorkflowStepSuspended, map[string]any{"id": key, "status": StatusSuspended, "suspendPayload": rec.SuspendPayload, "suspendedAt": rec.SuspendedAt})
		return nil, suspended, nil
	case result.ValidationError() != nil:
		rec.Status, rec.Error = StatusFailed, result.ValidationError().Message
		r.sendResult(key, rec)
		return nil, failed, fmt.Errorf("step %s: %s", key, result.ValidationError().Message)
	}
	out, err := result.JSON()
	if err != nil {
		rec.Status, rec.Error = StatusFailed, err.Error()
		r.sendResult(key, rec)
		return nil, failed, fmt.Errorf("step %s: %w", key, err)
	}
	rec.Status, rec.Output = StatusSuccess, out
	r.sendResult(key, rec)
	return out, done, nil
}

func (r *Run) sendResult(key string, rec *StepResult) {
	p := map[string]any{"id": key, "status": rec.Status, "endedAt": rec.EndedAt}
	if rec.Status == StatusSuccess {
		p["output"] = rec.Output
	} else {
		p["error"] = rec.Error
	}
	r.send(stream.TypeWorkflowStepResult, p)
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
	r.mu.Lock()
	rec := r.state.Steps[s.ID()]
	if rec == nil || len(rec.Items) != len(items) {
		rec = &StepResult{Status: StatusRunning, Payload: in, StartedAt: nowMillis(), Items: make([]*StepResult, len(items))}
		r.state.Steps[s.ID()] = rec
	}
	r.mu.Unlock()
	outs := make([]json.RawMessage, len(items))
	hows := make([]outcome, len(items))
	errs := make([]error, len(items))
	sem := make(chan struct{}, n.concurrency)
	var wg sync.WaitGroup
	for i := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			outs[i], hows[i], errs[i] = r.runItem(ctx, s, rec, i, items[i])
		}()
	}
	wg.Wait()
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
	r.mu.Lock()
	defer r.mu.Unlock()
	switch worst {
	case done:
		out, err := json.Marshal(outs)
		rec.Status, rec.Output, rec.EndedAt = StatusSuccess, out, nowMillis()
		return out, done, err
	case suspended:
		rec.Status = StatusSuspended
	default:
		rec.Status, rec.Error = StatusFailed, firstErr.Error()
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
		resumeData = rt.data
	}
	item := &StepResult{Status: StatusRunning, Payload: in, StartedAt: nowMillis()}
	r.mu.Lock()
	rec.Items[i] = item
	r.mu.Unlock()
	key := fmt.Sprintf("%s[%d]", s.ID(), i)
	f := &frame{run: r, stepID: s.ID(), step: s}
	inv := &tools.Invocation{RunID: r.id, ToolName: s.ID(), RequestContext: r.rc, Writer: stepWriter{run: r, stepID: s.ID()},
		Workflow: &tools.WorkflowInfo{RunID: r.id, WorkflowID: r.wf.cfg.ID, State: r.stateValue(), SetState: func(v any) error { return r.setState(s, v) }}}
	if resumeData != nil {
		inv.ResumeData, inv.SuspendPayload = resumeData, prior.SuspendPayload
		item.ResumePayload, item.ResumedAt = resumeData, nowMillis()
	}
	result, err := s.tool.Execute(withFrame(ctx, f), in, inv)
	r.mu.Lock()
	defer r.mu.Unlock()
	item.EndedAt = nowMillis()
	switch {
	case err != nil:
		item.Status, item.Error = StatusFailed, err.Error()
		return nil, failed, fmt.Errorf("step %s: %w", key, err)
	case result.Suspended():
		item.Status, item.SuspendPayload, item.SuspendedAt, item.EndedAt = StatusSuspended, result.Suspension.Payload, nowMillis(), 0
		return nil, suspended, nil
	case result.ValidationError() != nil:
		item.Status, item.Error = StatusFailed, result.ValidationError().Message
		return nil, failed, fmt.Errorf("step %s: %s", key, item.Error)
	}
	out, err := result.JSON()
	if err != nil {
		return nil, failed, err
	}
	item.Status, item.Output = StatusSuccess, out
	return out, done, nil
}

// takeResume returns the resume for step key (foreach iteration index,
// -1 for any) and consumes it.
func (r *Run) takeResume(key string, index int) *resumeTarget {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt := r.resume
	if rt == nil || rt.path[len(rt.path)-1] != key {
		return nil
	}
	if index >= 0 && rt.index >= 0 && rt.index != index {
		return nil
	}
	r.resume = nil
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
	r.state.Steps[key] = rec
	r.mu.Unlock()
}

func (r *Run) clearRecord(key string) {
	r.mu.Lock()
	delete(r.state.Steps, key)
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

// validate checks raw against s.
func validate(s schema.Schema, raw json.RawMessage, what string) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if _, issues := s.Validate(v); len(issues) > 0 {
		msg := ""
		for i, is := range issues {
			if i > 0 {
				msg += "; "
			}
			msg += is.PathString() + ": " + is.Message
		}
		return fmt.Errorf("invalid %s: %s", what, msg)
	}
	return nil
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
	w.run.send(stream.TypeWorkflowStepOutput, map[string]any{"output": data, "runId": w.run.id, "stepName": w.stepID})
	return nil
}

func (w stepWriter) Custom(c tools.DataChunk) error {
	if err := tools.CheckDataChunk(c); err != nil {
		return err
	}
	w.run.emitMu.Lock()
	defer w.run.emitMu.Unlock()
	if w.run.emit != nil && !w.run.emit(stream.Chunk{Type: c.Type, Data: c.Data, ID: c.ID, Transient: c.Transient}) {
		w.run.emit = nil
	}
	return nil
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
