package workflows

import (
	"encoding/json"
	"fmt"
	"iter"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// ToolResult is a workflow tool's result: the run's id and its result,
// or its error (a failed run is a result the model reads, not a tool
// error).
type ToolResult struct {
	RunID  string          `json:"runId"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Tool turns w into the tool an agent offers as "workflow-<key>"
// (agent.Config.Workflows, Mastra's workflow tools): its input is
// {inputData, initialState?}; each call starts a fresh run whose chunks
// stream through the tool's writer; the result is {runId, result} or
// {runId, error}. A suspended step suspends the call (payload: the step's
// suspend payload; resume schema: the step's), and resuming the call
// resumes the same workflow run. The description is the workflow's, or
// "Workflow: <key>".
func Tool(key string, w *Workflow) *tools.Tool {
	description := w.cfg.Description
	if description == "" {
		description = "Workflow: " + key
	}
	t, err := tools.NewDynamic(tools.DynamicConfig{
		ID: "workflow-" + key, Description: description,
		InputSchema:  toolInputSchema(w),
		OutputSchema: toolOutputSchema,
		MCP:          &tools.MCPOptions{ToolType: "workflow"},
		Execute: func(ctx tools.Context, v any) (any, error) {
			var in struct {
				InputData    json.RawMessage `json:"inputData"`
				InitialState json.RawMessage `json:"initialState"`
			}
			raw, _ := json.Marshal(v)
			if err := json.Unmarshal(raw, &in); err != nil {
				return nil, err
			}
			var run *Run
			var chunks func(func(stream.Chunk, error) bool)
			if data := ctx.ResumeData(); data != nil && ctx.Agent() != nil && ctx.Agent().SuspendedToolRunID != "" {
				r, err := w.LoadRun(ctx, ctx.Agent().SuspendedToolRunID, WithRequestContext(ctx.RequestContext()))
				if err != nil {
					return nil, workflowToolError(ctx, err)
				}
				run, chunks = r, r.ResumeStream(ctx, ResumeOptions{Data: data})
			} else {
				var state any
				if len(in.InitialState) > 0 && string(in.InitialState) != "null" {
					state = in.InitialState
				}
				var err error
				if run, chunks, err = w.toolRun(ctx, key, in.InputData, state); err != nil {
					return nil, workflowToolError(ctx, err)
				}
			}
			for c, err := range chunks {
				if err != nil {
					return nil, workflowToolError(ctx, err)
				}
				if err := ctx.Writer().Write(c); err != nil {
					return nil, err
				}
			}
			return toolOutcome(ctx, run)
		},
	})
	if err != nil {
		panic(err)
	}
	return t
}

// toolOutcome is the workflow tool's outcome of run, which has ended or
// suspended: its result, its error as a result, or the suspension of
// the call (see Tool).
func toolOutcome(ctx tools.Context, run *Run) (any, error) {
	res := run.result()
	switch res.Status {
	case StatusSuccess:
		return ToolResult{RunID: run.id, Result: res.Result}, nil
	case StatusSuspended:
		path := res.Suspended[0]
		rec := res.Steps[path[0]]
		opts := []tools.SuspendOption{tools.WithRunID(run.id), tools.WithResumeLabel(path...)}
		if rec != nil && rec.ResumeSchema != "" {
			opts = append(opts, tools.WithResumeSchema(rec.ResumeSchema))
		}
		var payload json.RawMessage
		if rec != nil {
			payload = rec.SuspendPayload
		}
		return nil, ctx.Suspend(payload, opts...)
	}
	msg := "workflow " + res.Status
	if res.Error != nil {
		msg = res.Error.Message
	}
	return ToolResult{RunID: run.id, Error: msg}, nil
}

// workflowToolError is Mastra's AGENT_WORKFLOW_TOOL_EXECUTION_FAILED.
func workflowToolError(ctx tools.Context, err error) error {
	parent := ""
	if a := ctx.Agent(); a != nil {
		parent = a.AgentID
	}
	return fmt.Errorf("[Agent:%s] - Failed workflow tool execution: %w", parent, err)
}

// toolInputSchema is {inputData: <the workflow's input schema, or any
// object>, initialState?: <its state schema>}.
func toolInputSchema(w *Workflow) schema.Schema {
	inputData := &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{}}
	if w.cfg.InputSchema != nil {
		inputData = w.cfg.InputSchema.JSONSchema()
	}
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{"inputData": inputData},
		PropertyOrder:        []string{"inputData"},
		Required:             []string{"inputData"},
		AdditionalProperties: &jsonschema.Schema{},
	}
	if w.cfg.StateSchema != nil {
		s.Properties["initialState"] = w.cfg.StateSchema.JSONSchema()
		s.PropertyOrder = append(s.PropertyOrder, "initialState")
	}
	return schema.MustCompile(s)
}

var toolOutputSchema = schema.MustCompile(&jsonschema.Schema{AnyOf: []*jsonschema.Schema{
	{Type: "object", Properties: map[string]*jsonschema.Schema{"runId": {Type: "string"}, "result": {}}, Required: []string{"runId"}},
	{Type: "object", Properties: map[string]*jsonschema.Schema{"runId": {Type: "string"}, "error": {Type: "string"}}, Required: []string{"runId", "error"}},
}})

// toolRun is the run a call of workflow tool key starts, and its chunks.
// A launched workflow's run has an id derived from the call's, so that a
// call made again (on another worker, after the first was lost) finds
// the run the first started and follows it from the start of its log.
func (w *Workflow) toolRun(ctx tools.Context, key string, input json.RawMessage, state any) (*Run, iter.Seq2[stream.Chunk, error], error) {
	if !w.Launched() || ctx.ToolCallID() == "" {
		run := w.CreateRun(WithRequestContext(ctx.RequestContext()))
		return run, run.Stream(ctx, input, state), nil
	}
	id := tools.SubRunID(ctx.RunID(), "workflow-"+key, ctx.ToolCallID())
	run, err := w.CreateStoredRun(ctx, WithRunID(id), WithRequestContext(ctx.RequestContext()))
	if err != nil {
		return nil, nil, err
	}
	if run.startable() {
		return run, run.Stream(ctx, input, state), nil
	}
	return run, run.follow(ctx, 0), nil
}
