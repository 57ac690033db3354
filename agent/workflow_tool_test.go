package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/workflows"
)

type wfTopic struct {
	Topic string `json:"topic"`
}
type wfQuery struct {
	Query string `json:"query"`
}
type wfSummary struct {
	Summary string `json:"summary"`
}
type wfQuestion struct {
	Question string `json:"question"`
}
type wfAnswer struct {
	OK bool `json:"ok"`
}

func wfPlan(runs *atomic.Int32) *workflows.Step {
	return workflows.NewStep(workflows.StepConfig[wfTopic, wfQuery]{ID: "plan", Execute: func(_ workflows.StepContext, in wfTopic) (wfQuery, error) {
		runs.Add(1)
		return wfQuery{Query: "about " + in.Topic}, nil
	}})
}

func wfCommit(t *testing.T, w *workflows.Workflow) *workflows.Workflow {
	t.Helper()
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w
}

func wfAgent(t *testing.T, m *mock.Model, w *workflows.Workflow) *agent.Agent {
	t.Helper()
	a, err := agent.New(agent.Config{ID: "researcher", Name: "Researcher", Instructions: "You research.", Model: m,
		Workflows: map[string]*workflows.Workflow{"research": w}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// toolResult is the one tool-result chunk of the run, as JSON, and
// fails if a tool-error chunk came instead.
func toolResult(t *testing.T, chunks []stream.Chunk) map[string]json.RawMessage {
	t.Helper()
	var got map[string]json.RawMessage
	n := 0
	for _, c := range chunks {
		switch c.Type {
		case stream.TypeToolError:
			t.Fatalf("tool-error chunk: %+v", c.Payload)
		case stream.TypeToolResult:
			p := c.Payload.(stream.ToolResultPayload)
			if p.ToolName != "workflow-research" || p.IsError {
				t.Errorf("tool-result %+v", p)
			}
			b, err := json.Marshal(p.Result)
			if err != nil {
				t.Fatal(err)
			}
			got = nil
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("tool result %s: %v", b, err)
			}
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d tool-result chunks, want 1", n)
	}
	return got
}

func keys(m map[string]json.RawMessage) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

// workflowChunks are the workflow chunks carried by the run's tool-output
// chunks of workflow-research.
func workflowChunks(t *testing.T, chunks []stream.Chunk) []stream.Chunk {
	t.Helper()
	var inner []stream.Chunk
	for _, c := range chunks {
		if c.Type != stream.TypeToolOutput {
			continue
		}
		p := c.Payload.(stream.ToolOutputPayload)
		if p.ToolName != "workflow-research" {
			t.Errorf("tool-output from %s", p.ToolName)
		}
		wc, ok := p.Output.(stream.Chunk)
		if !ok {
			t.Fatalf("tool-output carries %T, want stream.Chunk", p.Output)
		}
		inner = append(inner, wc)
	}
	return inner
}

func chunkTypeList(cs []stream.Chunk) string {
	ts := make([]string, len(cs))
	for i, c := range cs {
		ts[i] = c.Type
	}
	return strings.Join(ts, " ")
}

func TestWorkflowToolSuccess(t *testing.T) {
	var runs atomic.Int32
	search := workflows.NewStep(workflows.StepConfig[wfQuery, wfSummary]{ID: "search", Execute: func(_ workflows.StepContext, in wfQuery) (wfSummary, error) {
		return wfSummary{Summary: "found " + in.Query}, nil
	}})
	w := wfCommit(t, workflows.New(workflows.Config{ID: "research-wf"}).Then(wfPlan(&runs)).Then(search))
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "workflow-research", Args: `{"inputData":{"topic":"go"}}`}}},
		mock.Step{Text: "Go is found."},
	)
	out, err := wfAgent(t, m, w).Generate(context.Background(), "research go")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Go is found." || out.FinishReason != model.FinishStop {
		t.Fatalf("output %q %s", out.Text, out.FinishReason)
	}

	// The result is {runId, result}.
	res := toolResult(t, out.Chunks)
	if keys(res) != "result,runId" || string(res["result"]) != `{"summary":"found about go"}` {
		t.Errorf("tool result %v", res)
	}
	var runID string
	if err := json.Unmarshal(res["runId"], &runID); err != nil || runID == "" {
		t.Fatalf("runId %s", res["runId"])
	}

	// The workflow's chunks stream as tool-output chunks.
	inner := workflowChunks(t, out.Chunks)
	want := "workflow-start workflow-step-start workflow-step-result workflow-step-start workflow-step-result workflow-finish"
	if got := chunkTypeList(inner); got != want {
		t.Errorf("workflow chunks:\n got %s\nwant %s", got, want)
	}
	for _, c := range inner {
		if c.RunID != runID {
			t.Errorf("%s chunk of run %q, want %q", c.Type, c.RunID, runID)
		}
	}

	// The model sees the tool with {inputData} required and the default
	// description.
	var def *model.ToolDefinition
	for i, d := range m.Calls()[0].Tools {
		if d.Name == "workflow-research" {
			def = &m.Calls()[0].Tools[i]
		}
	}
	if def == nil {
		t.Fatalf("workflow-research not offered: %+v", m.Calls()[0].Tools)
	}
	if def.Description != "Workflow: research" {
		t.Errorf("description %q", def.Description)
	}
	if def.InputSchema == nil || !slices.Contains(def.InputSchema.Required, "inputData") || def.InputSchema.Properties["inputData"] == nil {
		b, _ := json.Marshal(def.InputSchema)
		t.Errorf("input schema %s", b)
	}
	// The model's next call gets the result.
	second := m.Calls()[1]
	last := second.Messages[len(second.Messages)-1]
	if b, _ := json.Marshal(last); !strings.Contains(string(b), `found about go`) {
		t.Errorf("the model saw %s", b)
	}
}

func TestWorkflowToolDescription(t *testing.T) {
	var runs atomic.Int32
	w := wfCommit(t, workflows.New(workflows.Config{ID: "research-wf", Description: "Researches a topic"}).Then(wfPlan(&runs)))
	m := mock.New(mock.Step{Text: "Hi."})
	if _, err := wfAgent(t, m, w).Generate(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	for _, d := range m.Calls()[0].Tools {
		if d.Name == "workflow-research" && d.Description != "Researches a topic" {
			t.Errorf("description %q, want the workflow's", d.Description)
		}
	}
}

func TestWorkflowToolFailure(t *testing.T) {
	var runs atomic.Int32
	broken := workflows.NewStep(workflows.StepConfig[wfQuery, wfSummary]{ID: "search", Execute: func(_ workflows.StepContext, in wfQuery) (wfSummary, error) {
		return wfSummary{}, errors.New("search engine down")
	}})
	w := wfCommit(t, workflows.New(workflows.Config{ID: "research-wf"}).Then(wfPlan(&runs)).Then(broken))
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "workflow-research", Args: `{"inputData":{"topic":"go"}}`}}},
		mock.Step{Text: "It failed."},
	)
	out, err := wfAgent(t, m, w).Generate(context.Background(), "research go")
	if err != nil {
		t.Fatal(err)
	}
	// A failed run is a result the model reads: {runId, error}.
	res := toolResult(t, out.Chunks)
	if keys(res) != "error,runId" {
		t.Fatalf("tool result %v", res)
	}
	var msg string
	if err := json.Unmarshal(res["error"], &msg); err != nil || msg != "search engine down" {
		t.Errorf("error %s, want the step's message", res["error"])
	}
	inner := workflowChunks(t, out.Chunks)
	if len(inner) == 0 || inner[len(inner)-1].Type != stream.TypeWorkflowFinish {
		t.Errorf("workflow chunks %s", chunkTypeList(inner))
	}
	if out.Text != "It failed." {
		t.Errorf("text %q", out.Text)
	}
}

func TestWorkflowToolSuspendAndResume(t *testing.T) {
	var planRuns, approveRuns atomic.Int32
	approve := workflows.NewStep(workflows.StepConfig[wfQuery, wfSummary]{ID: "approve",
		SuspendSchema: schema.MustFor[wfQuestion](), ResumeSchema: schema.MustFor[wfAnswer](),
		Execute: func(ctx workflows.StepContext, in wfQuery) (wfSummary, error) {
			approveRuns.Add(1)
			var ans wfAnswer
			if data := ctx.ResumeData(); data != nil {
				if err := json.Unmarshal(data, &ans); err != nil {
					return wfSummary{}, err
				}
			} else {
				return wfSummary{}, ctx.Suspend(wfQuestion{Question: "search " + in.Query + "?"})
			}
			if !ans.OK {
				return wfSummary{Summary: "declined"}, nil
			}
			return wfSummary{Summary: "approved " + in.Query}, nil
		}})
	w := wfCommit(t, workflows.New(workflows.Config{ID: "research-wf"}).Then(wfPlan(&planRuns)).Then(approve))
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "workflow-research", Args: `{"inputData":{"topic":"go"}}`}}},
		mock.Step{Text: "Approved and done."},
	)
	a := wfAgent(t, m, w)
	ctx := context.Background()
	out, err := a.Generate(ctx, "research go")
	if err != nil {
		t.Fatal(err)
	}
	if out.FinishReason != model.FinishSuspended {
		t.Fatalf("finish reason %s", out.FinishReason)
	}
	sp, ok := out.SuspendPayload.(stream.ToolCallSuspendedPayload)
	if !ok {
		t.Fatalf("suspend payload %T", out.SuspendPayload)
	}
	if b, _ := json.Marshal(sp.SuspendPayload); sp.ToolName != "workflow-research" || sp.ToolCallID != "c1" || string(b) != `{"question":"search about go?"}` {
		t.Errorf("suspend payload %+v (%s)", sp, b)
	}
	wantSchema, _ := json.Marshal(schema.MustFor[wfAnswer]().JSONSchema())
	if sp.ResumeSchema != string(wantSchema) || out.ResumeSchema != string(wantSchema) {
		t.Errorf("resume schema %q / %q, want the step's %s", sp.ResumeSchema, out.ResumeSchema, wantSchema)
	}
	inner := workflowChunks(t, out.Chunks)
	if got := chunkTypeList(inner); got != "workflow-start workflow-step-start workflow-step-result workflow-step-start workflow-step-suspended workflow-finish" {
		t.Errorf("workflow chunks before the suspension: %s", got)
	}
	if len(inner) == 0 {
		t.Fatal("no workflow chunks")
	}
	workflowRunID := inner[0].RunID

	resumed, err := a.ResumeGenerate(ctx, out.RunID, wfAnswer{OK: true})
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Text != "Approved and done." || resumed.FinishReason != model.FinishStop {
		t.Fatalf("resumed %q %s", resumed.Text, resumed.FinishReason)
	}
	res := toolResult(t, resumed.Chunks)
	var runID string
	_ = json.Unmarshal(res["runId"], &runID)
	if runID != workflowRunID || string(res["result"]) != `{"summary":"approved about go"}` {
		t.Errorf("tool result %v, want run %s resumed", res, workflowRunID)
	}
	for _, c := range workflowChunks(t, resumed.Chunks) {
		if c.RunID != workflowRunID {
			t.Errorf("%s chunk of run %q after the resume, want %q", c.Type, c.RunID, workflowRunID)
		}
	}
	if planRuns.Load() != 1 || approveRuns.Load() != 2 {
		t.Errorf("plan ran %d times (want 1), approve %d (want 2)", planRuns.Load(), approveRuns.Load())
	}
}

func TestAgentAsWorkflowStep(t *testing.T) {
	writerModel := mock.New(mock.Step{Text: "A poem about Go."}).RepeatLast()
	writer, err := agent.New(agent.Config{ID: "writer", Name: "Writer", Instructions: "You write poems.", Model: writerModel, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	prompt := workflows.NewStep(workflows.StepConfig[wfTopic, agent.AgentStepInput]{ID: "prompt", Execute: func(_ workflows.StepContext, in wfTopic) (agent.AgentStepInput, error) {
		return agent.AgentStepInput{Prompt: "Write a poem about " + in.Topic}, nil
	}})
	w := wfCommit(t, workflows.New(workflows.Config{ID: "poem"}).Then(prompt).Then(agent.AsStep(writer)))
	ctx := context.Background()

	res, err := w.CreateRun().Start(ctx, wfTopic{Topic: "Go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.StatusSuccess || string(res.Result) != `{"text":"A poem about Go."}` {
		t.Errorf("result %+v", res)
	}
	if len(writerModel.Calls()) != 1 {
		t.Fatalf("writer model calls %d", len(writerModel.Calls()))
	}
	if b, _ := json.Marshal(writerModel.Calls()[0].Messages); !strings.Contains(string(b), "Write a poem about Go") {
		t.Errorf("the writer was asked %s", b)
	}

	// The agent's chunks stream as workflow-step-output chunks of its step.
	var outputs []string
	for c, err := range w.CreateRun().Stream(ctx, wfTopic{Topic: "Go"}, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if c.Type == stream.TypeWorkflowStepOutput {
			b, _ := json.Marshal(c.Payload)
			outputs = append(outputs, string(b))
		}
	}
	if joined := strings.Join(outputs, "\n"); !strings.Contains(joined, `"stepName":"writer"`) || !strings.Contains(joined, `"type":"text-delta"`) {
		t.Errorf("step outputs %s", joined)
	}
}
