package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

func TestSubAgentAsTool(t *testing.T) {
	writerModel := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "w1", Name: "add", Args: `{"a":20,"b":1}`}}},
		mock.Step{Text: "A poem about 21."},
	)
	writer, err := New(Config{ID: "writer-agent", Description: "Writes short poems", Model: writerModel, Tools: tools.Set{"add": addTool()}, MaxSteps: 4})
	if err != nil {
		t.Fatal(err)
	}
	supervisorModel := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-writer", Args: `{"prompt":"write about 20+1","maxSteps":10}`}}},
		mock.Step{Text: "Here it is."},
	)
	supervisor := newAgent(t, supervisorModel, nil, func(c *Config) { c.Agents = map[string]*Agent{"writer": writer} })
	out, err := supervisor.Generate(context.Background(), "poem please")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Here it is." {
		t.Fatalf("supervisor text %q", out.Text)
	}
	first := supervisorModel.Calls()[0]
	var agentTool *model.ToolDefinition
	for i := range first.Tools {
		if first.Tools[i].Name == "agent-writer" {
			agentTool = &first.Tools[i]
		}
	}
	if agentTool == nil || agentTool.Description != "Writes short poems" {
		t.Fatalf("agent-writer not offered: %+v", first.Tools)
	}
	// Inner chunks arrive as tool-output chunks of the agent tool.
	var inner []string
	for _, c := range out.Chunks {
		if c.Type == stream.TypeToolOutput {
			p := c.Payload.(stream.ToolOutputPayload)
			if p.ToolName != "agent-writer" {
				t.Errorf("tool-output from %s", p.ToolName)
			}
			inner = append(inner, p.Output.(stream.Chunk).Type)
		}
	}
	if !strings.Contains(strings.Join(inner, ","), "tool-result") || inner[len(inner)-1] != stream.TypeFinish {
		t.Errorf("inner chunks: %v", inner)
	}
	// The parent model sees only the sub-agent's text.
	second := supervisorModel.Calls()[1]
	got := second.Messages[len(second.Messages)-1].Content[0].ToolResult.Output
	if got.Type != model.OutputText || got.Value != "A poem about 21." {
		t.Errorf("the parent model saw %+v", got)
	}
	// The result carries the sub-agent's tool results.
	for _, c := range out.Chunks {
		if c.Type == stream.TypeToolResult {
			b, _ := json.Marshal(c.Payload.(stream.ToolResultPayload).Result)
			if !strings.Contains(string(b), `"subAgentToolResults":[{"toolName":"add"`) {
				t.Errorf("agent tool result %s", b)
			}
		}
	}
	// maxSteps from the model (10) is capped at the sub-agent's own (4).
	if len(writerModel.Calls()) != 2 {
		t.Errorf("writer model calls: %d", len(writerModel.Calls()))
	}
}

func TestSubAgentInputValidated(t *testing.T) {
	writer, _ := New(Config{ID: "w", Model: mock.New(mock.Step{Text: "x"})})
	tool := AgentTool("writer", writer)
	res, err := tool.Execute(context.Background(), json.RawMessage(`{"maxSteps":1}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil || !strings.Contains(ve.Message, "- prompt: Invalid input: expected string, received undefined") ||
		!strings.Contains(ve.Message, "- maxSteps: Too small: expected number to be >=3") {
		t.Errorf("validation: %+v", res.Output)
	}
	if tool.Description() != "Agent: writer" {
		t.Errorf("default description %q", tool.Description())
	}
}

func TestSubAgentGetsHistoryContextAndMemoryOfItsOwn(t *testing.T) {
	var seen *tools.RequestContext
	probe := tools.New(tools.Config[struct{}, addOut]{ID: "probe", Execute: func(ctx tools.Context, _ struct{}) (addOut, error) {
		seen = ctx.RequestContext()
		return addOut{Sum: 1}, nil
	}})
	writerModel := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "p1", Name: "probe", Args: `{}`}}},
		mock.Step{Text: "done"},
	)
	writer, _ := New(Config{ID: "writer", Model: writerModel, Tools: tools.Set{"probe": probe}, Instructions: "You write."})
	supervisorModel := mock.New(
		mock.Step{Text: "Let me ask the writer.", ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-writer", Args: `{"prompt":"draft it","threadId":"hijack","resourceId":"hijack"}`}}},
		mock.Step{Text: "ok"},
	)
	supervisor := newAgent(t, supervisorModel, nil, func(c *Config) { c.ID = "Super Visor"; c.Agents = map[string]*Agent{"writer": writer} })
	rc := tools.NewRequestContext(map[string]any{"tenant": "acme"})
	out, err := supervisor.Generate(context.Background(), []model.Message{model.UserText("earlier question"), model.Assistant(model.Text("earlier answer")), model.UserText("write something")},
		WithRequestContext(rc), WithMemory("thread-1", "user-9"))
	if err != nil {
		t.Fatal(err)
	}
	// The writer saw: its instructions, the parent's conversation without
	// tool parts, then the prompt.
	var got []string
	for _, m := range writerModel.Calls()[0].Messages {
		got = append(got, string(m.Role)+": "+m.TextContent())
	}
	want := []string{"system: You write.", "user: earlier question", "assistant: earlier answer", "user: write something", "user: draft it"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("writer's prompt:\n got %q\nwant %q", got, want)
	}
	if v, _ := seen.Get("tenant"); v != "acme" {
		t.Errorf("the request context was not copied: %v", seen.All())
	}
	thread, _ := seen.Get(tools.ThreadIDKey)
	resource, _ := seen.Get(tools.ResourceIDKey)
	if th, _ := thread.(string); th != "thread-1-writer-"+subThreadDigest("user-9", "thread-1", "writer") || resource != "user-9-writer" {
		t.Errorf("sub-agent memory: thread %v, resource %v", thread, resource)
	}
	if v, _ := rc.Get(tools.ThreadIDKey); v != "thread-1" {
		t.Errorf("the parent's request context changed: %v", rc.All())
	}
	var result SubAgentOutput
	for _, c := range out.ToolResults {
		b, _ := json.Marshal(c.Payload.(stream.ToolResultPayload).Result)
		_ = json.Unmarshal(b, &result)
	}
	if result.SubAgentThreadID != thread || result.SubAgentResourceID != "user-9-writer" || result.FinishReason != model.FinishStop || result.Usage == nil {
		t.Errorf("agent tool result: %+v", result)
	}

	// Without a parent thread or resource: a fresh thread, the parent's
	// slugged id for the resource.
	writerModel2 := mock.New(mock.Step{Text: "done"})
	writer2, _ := New(Config{ID: "writer", Model: writerModel2})
	supervisor2 := newAgent(t, mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "agent-writer", Args: `{"prompt":"x"}`}}}, mock.Step{Text: "ok"}),
		nil, func(c *Config) { c.ID = "Super Visor"; c.Agents = map[string]*Agent{"writer": writer2} })
	out, err = supervisor2.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out.ToolResults[0].Payload.(stream.ToolResultPayload).Result)
	if !strings.Contains(string(b), `"subAgentResourceId":"super-visor-writer"`) {
		t.Errorf("resource without a parent resource: %s", b)
	}
}

func TestSubAgentPendingClientToolCalls(t *testing.T) {
	confirm := tools.New(tools.Config[struct{}, addOut]{ID: "confirm"}) // no Execute: a client tool
	writer, _ := New(Config{ID: "writer", Model: mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "confirm", Args: `{}`}}}), Tools: tools.Set{"confirm": confirm}})
	supervisor := newAgent(t, mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "agent-writer", Args: `{"prompt":"x"}`}}}, mock.Step{Text: "ok"}),
		nil, func(c *Config) { c.Agents = map[string]*Agent{"writer": writer} })
	out, err := supervisor.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out.ToolResults[0].Payload.(stream.ToolResultPayload).Result)
	if !strings.Contains(string(b), `"subAgentPendingToolCalls":[{"toolName":"confirm","toolCallId":"c1","args":{}}]`) || !strings.Contains(string(b), `"finishReason":"tool-calls"`) {
		t.Errorf("pending client tool calls: %s", b)
	}
}

func TestSubAgentFailureIsAToolError(t *testing.T) {
	writer, _ := New(Config{ID: "writer", Model: mock.New(mock.Step{Err: errors.New("quota exceeded")})})
	supervisor := newAgent(t, mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "agent-writer", Args: `{"prompt":"x"}`}}}, mock.Step{Text: "sorry"}),
		nil, func(c *Config) { c.Agents = map[string]*Agent{"writer": writer} })
	out, err := supervisor.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	errs := toolErrors(out.Chunks)
	if len(errs) != 1 || errs[0] != "[Agent:calc-agent] - Failed agent tool execution for writer: quota exceeded" || out.Text != "sorry" {
		t.Errorf("tool errors %q, text %q", errs, out.Text)
	}
}

func TestSubAgentApprovalSurfacesAtTheParent(t *testing.T) {
	var executed int
	publish := tools.New(tools.Config[struct{}, addOut]{ID: "publish", RequireApproval: true, Execute: func(tools.Context, struct{}) (addOut, error) {
		executed++
		return addOut{Sum: 1}, nil
	}})
	writerModel := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "w1", Name: "publish", Args: `{}`}}}, mock.Step{Text: "Published."})
	writer, _ := New(Config{ID: "writer", Model: writerModel, Tools: tools.Set{"publish": publish}})
	supervisorModel := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-writer", Args: `{"prompt":"publish it"}`}}}, mock.Step{Text: "The writer published it."})
	supervisor := newAgent(t, supervisorModel, nil, func(c *Config) { c.Agents = map[string]*Agent{"writer": writer} })
	ctx := context.Background()
	out, err := supervisor.Generate(ctx, "publish")
	if err != nil || out.FinishReason != model.FinishSuspended || executed != 0 {
		t.Fatalf("supervisor: %v, %s, executed %d", err, out.FinishReason, executed)
	}
	sp := out.SuspendPayload.(stream.ToolCallSuspendedPayload)
	b, _ := json.Marshal(sp.SuspendPayload)
	if sp.ToolName != "agent-writer" || !strings.Contains(string(b), `"type":"tool-call-approval"`) || !strings.Contains(string(b), `"toolName":"publish"`) || sp.ResumeSchema != stream.ApprovalResumeSchema {
		t.Fatalf("suspension at the parent: %+v %s", sp, b)
	}
	res, err := supervisor.ResumeGenerate(ctx, out.RunID, map[string]any{"approved": true})
	if err != nil || res.Text != "The writer published it." || executed != 1 {
		t.Fatalf("resumed: %v, %q, executed %d", err, res.Text, executed)
	}
	rb, _ := json.Marshal(res.ToolResults[0].Payload.(stream.ToolResultPayload).Result)
	if !strings.Contains(string(rb), `"text":"Published."`) {
		t.Errorf("agent tool result after resume: %s", rb)
	}
}
