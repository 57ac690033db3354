package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// Step is one step of a workflow: a typed function with input, output and
// optional state, suspend and resume schemas. It runs as a tools.Tool, so
// a step validates its input and output, suspends and resumes, and turns
// panics into errors exactly as a tool does.
type Step struct {
	tool *tools.Tool
	// state is the step's state schema (nil: none).
	state schema.Schema
	// nested is the workflow this step runs (AsStep), nil otherwise.
	nested *Workflow
}

// ID returns the step's id (for a tool used as a step, the tool's id).
func (s *Step) ID() string { return s.tool.ID() }

// Description returns the step's description.
func (s *Step) Description() string { return s.tool.Description() }

// InputSchema returns the step's input schema.
func (s *Step) InputSchema() schema.Schema { return s.tool.InputSchema() }

// OutputSchema returns the step's output schema.
func (s *Step) OutputSchema() schema.Schema { return s.tool.OutputSchema() }

// ResumeSchema returns the step's resume schema, or nil.
func (s *Step) ResumeSchema() schema.Schema { return s.tool.ResumeSchema() }

// SuspendSchema returns the step's suspend schema, or nil.
func (s *Step) SuspendSchema() schema.Schema { return s.tool.SuspendSchema() }

// StepConfig describes a typed step (Mastra's createStep). The schemas
// default to the ones of In and Out (schema.For).
type StepConfig[In, Out any] struct {
	ID          string
	Description string
	// InputSchema and OutputSchema override the schemas inferred from In
	// and Out.
	InputSchema, OutputSchema schema.Schema
	// SuspendSchema and ResumeSchema make the step suspendable: it may
	// call ctx.Suspend and is resumed with data matching ResumeSchema.
	SuspendSchema, ResumeSchema schema.Schema
	// StateSchema validates the workflow state the step sets.
	StateSchema schema.Schema
	Execute     func(ctx StepContext, in In) (Out, error)
}

// NewStep makes a step. It panics on an invalid config (no id, no
// Execute), as tools.New does.
func NewStep[In, Out any](cfg StepConfig[In, Out]) *Step {
	if cfg.Execute == nil {
		panic(fmt.Sprintf("workflows: step %q has no Execute", cfg.ID))
	}
	in, out := cfg.InputSchema, cfg.OutputSchema
	if in == nil {
		in = schema.MustFor[In]()
	}
	if out == nil {
		out = schema.MustFor[Out]()
	}
	t := tools.New(tools.Config[In, Out]{
		ID: cfg.ID, Description: cfg.Description, InputSchema: in, OutputSchema: out,
		SuspendSchema: cfg.SuspendSchema, ResumeSchema: cfg.ResumeSchema,
		Execute: func(tc tools.Context, v In) (Out, error) {
			return cfg.Execute(stepContextOf(tc), v)
		},
	})
	return &Step{tool: t, state: cfg.StateSchema}
}

// FromTool uses a tool as a step (Mastra's createStep(tool)): the step's
// id is the tool's, its schemas the tool's, which must have input and
// output schemas. Within a workflow, the tool's Context has Workflow()
// set (run id, workflow id, state and SetState).
func FromTool(t *tools.Tool) (*Step, error) {
	if t.InputSchema() == nil || t.OutputSchema() == nil {
		return nil, fmt.Errorf("workflows: tool %q: Tool must have input and output schemas defined", t.ID())
	}
	return &Step{tool: t}, nil
}

// StepContext is what a step's Execute receives: the tool context
// (cancellation, writer, suspension, resume data, request context) plus
// the workflow's state, its input, and earlier steps' results.
type StepContext interface {
	tools.Context
	// State is the workflow state as JSON ("null" when none).
	State() json.RawMessage
	// SetState replaces the workflow state (validated against the step's
	// and the workflow's state schemas).
	SetState(v any) error
	// InitData is the workflow run's input.
	InitData() json.RawMessage
	// StepResult is the output of an earlier step of the run, by id.
	StepResult(stepID string) (json.RawMessage, bool)
	// Bail ends the whole run now as a success with result: return its
	// error from Execute (`return Out{}, ctx.Bail(result)`).
	Bail(result any) error
	// RetryCount is how many times the step has been retried.
	RetryCount() int
}

// StateAs decodes the workflow state into a T.
func StateAs[T any](ctx StepContext) (T, error) {
	var v T
	raw := ctx.State()
	if len(raw) == 0 || string(raw) == "null" {
		return v, nil
	}
	err := json.Unmarshal(raw, &v)
	return v, err
}

// StepResultAs decodes an earlier step's output into a T.
func StepResultAs[T any](ctx StepContext, stepID string) (T, bool, error) {
	var v T
	raw, ok := ctx.StepResult(stepID)
	if !ok {
		return v, false, nil
	}
	err := json.Unmarshal(raw, &v)
	return v, true, err
}

// bailError carries a Bail result out of Execute.
type bailError struct{ result json.RawMessage }

func (b *bailError) Error() string { return "workflows: step bailed" }

// errBail tells bail errors apart.
var errBail = errors.New("bail")

func (b *bailError) Is(target error) bool { return target == errBail }

// stepKey is the context key the engine stores a step's frame under.
type stepKey struct{}

// frame is what the engine gives a running step.
type frame struct {
	run    *Run
	stepID string
	retry  int
	step   *Step
}

// stepContext implements StepContext over a tool context.
type stepContext struct {
	tools.Context
	f *frame
}

func stepContextOf(tc tools.Context) StepContext {
	f, _ := tc.Value(stepKey{}).(*frame)
	if f == nil {
		f = &frame{run: &Run{state: &runState{}}}
	}
	return &stepContext{Context: tc, f: f}
}

func (c *stepContext) State() json.RawMessage {
	return c.f.run.currentState()
}

func (c *stepContext) SetState(v any) error {
	return c.f.run.setState(c.f.step, v)
}

func (c *stepContext) InitData() json.RawMessage { return c.f.run.state.Input }

func (c *stepContext) StepResult(stepID string) (json.RawMessage, bool) {
	return c.f.run.stepOutput(stepID)
}

func (c *stepContext) Bail(result any) error {
	raw, err := json.Marshal(result)
	if err != nil {
		return fmt.Errorf("workflows: bail result: %w", err)
	}
	return &bailError{result: raw}
}

func (c *stepContext) RetryCount() int { return c.f.retry }

// withFrame returns ctx carrying the step's frame.
func withFrame(ctx context.Context, f *frame) context.Context {
	return context.WithValue(ctx, stepKey{}, f)
}

// MustSchemaFor is schema.For[T], panicking on a type it cannot describe
// (for schemas in step configs).
func MustSchemaFor[T any]() *schema.Compiled { return schema.MustFor[T]() }

// DecodeResumeData decodes the data the step was resumed with into v.
func DecodeResumeData(ctx StepContext, v any) error {
	raw := ctx.ResumeData()
	if raw == nil {
		return errors.New("workflows: the step was not resumed")
	}
	return json.Unmarshal(raw, v)
}
