package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
)

// An agent runs MCP tools of a stdio server: a plain result, a structured
// one (mapped for the model), progress as tool-output chunks, an isError
// result as a tool-error, all in one run.
func TestAgentCallsMCPTools(t *testing.T) {
	sc := stdioChild(t, "plain", nil)
	sc.EnableProgressTracking = true
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": sc}})
	set := c.ListTools(ctxT(t))

	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{
			{ID: "c1", Name: "srv_add", Args: `{"a":2,"b":40}`},
			{ID: "c2", Name: "srv_weather", Args: `{"location":"Rome"}`},
			{ID: "c3", Name: "srv_progress", Args: `{"steps":2}`},
			{ID: "c4", Name: "srv_fail", Args: `{}`},
		}},
		mock.Step{Text: "The sum is 42 and Rome is sunny."},
	)
	a, err := agent.New(agent.Config{ID: "mcp-agent", Name: "MCP Agent", Instructions: "Use the tools.", Model: m, Tools: set})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(ctxT(t), "What is 2+40, and the weather in Rome?")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "The sum is 42 and Rome is sunny." {
		t.Errorf("text = %q", out.Text)
	}

	calls := m.Calls()
	if len(calls) != 2 {
		t.Fatalf("model called %d times", len(calls))
	}
	offered := map[string]model.ToolDefinition{}
	for _, d := range calls[0].Tools {
		offered[d.Name] = d
	}
	if d, ok := offered["srv_add"]; !ok || d.Description != "Adds two numbers" {
		t.Errorf("srv_add offered as %+v", d)
	}

	results := map[string]stream.ToolResultPayload{}
	var toolErrors []stream.ToolErrorPayload
	var progress []stream.ToolOutputPayload
	for _, ch := range out.Chunks {
		switch p := ch.Payload.(type) {
		case stream.ToolResultPayload:
			results[p.ToolCallID] = p
		case stream.ToolErrorPayload:
			toolErrors = append(toolErrors, p)
		case stream.ToolOutputPayload:
			progress = append(progress, p)
		}
	}
	raw, _ := json.Marshal(results["c1"].Result)
	if !strings.Contains(string(raw), "The sum of 2 and 40 is 42.") {
		t.Errorf("add result = %s", raw)
	}
	raw, _ = json.Marshal(results["c2"].Result)
	if string(raw) != `{"conditions":"sunny in Rome","temperature":21.5}` {
		t.Errorf("weather result = %s", raw)
	}
	mo, _ := json.Marshal(results["c2"].ProviderMetadata)
	if !strings.Contains(string(mo), `"modelOutput":{"type":"text"`) {
		t.Errorf("weather model output = %s", mo)
	}
	if len(progress) != 2 || progress[1].ToolName != "srv_progress" {
		t.Fatalf("progress chunks = %+v", progress)
	}
	raw, _ = json.Marshal(progress[1].Output)
	if !strings.Contains(string(raw), `"progress":2,"total":2,"message":"step 2"`) {
		t.Errorf("progress output = %s", raw)
	}
	if len(toolErrors) != 1 || toolErrors[0].ToolCallID != "c4" {
		t.Fatalf("tool errors = %+v", toolErrors)
	}
	raw, _ = json.Marshal(toolErrors[0].Error)
	if !strings.Contains(string(raw), "boom: the database is down") {
		t.Errorf("tool error = %s", raw)
	}

	// What the model saw for each call in its second request.
	var seen []string
	for _, msg := range calls[1].Messages {
		for _, part := range msg.Content {
			if part.Type == model.MessageToolResult {
				b, _ := json.Marshal(part)
				seen = append(seen, string(b))
			}
		}
	}
	all := strings.Join(seen, "\n")
	for _, want := range []string{"The sum of 2 and 40 is 42.", `sunny in Rome`, "boom: the database is down"} {
		if !strings.Contains(all, want) {
			t.Errorf("the model did not see %q in:\n%s", want, all)
		}
	}
}

// A server whose calls need approval suspends the agent's run before the
// MCP server is called.
func TestAgentAsksApprovalForMCPTools(t *testing.T) {
	sc := inMemory(newTestServer())
	sc.RequireToolApproval = true
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": sc}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "srv_add", Args: `{"a":1,"b":2}`}}})
	a, err := agent.New(agent.Config{ID: "approver", Name: "Approver", Model: m, Tools: c.ListTools(ctxT(t))})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(ctxT(t), "add 1 and 2")
	if err != nil {
		t.Fatal(err)
	}
	var approval, result bool
	for _, ch := range out.Chunks {
		approval = approval || ch.Type == stream.TypeToolCallApproval
		result = result || ch.Type == stream.TypeToolResult
	}
	if !approval || result || out.FinishReason != "suspended" {
		t.Errorf("approval chunk %v, result %v, finish %q", approval, result, out.FinishReason)
	}
}

// The client does not shorten ids; an agent's name sanitising does
// (agent.SanitizeToolName, at most 63 characters for every provider): a
// 70-character id reaches the model cut to 63 characters and still runs
// the MCP tool.
func TestAgentSanitisesLongMCPToolNames(t *testing.T) {
	long := strings.Repeat("x", 60)
	srv := newTestServer()
	mcpAddEcho(srv, long)
	c := newClient(t, Config{Servers: map[string]ServerConfig{"server": inMemory(srv)}})
	set := c.ListTools(ctxT(t))
	id := "server_" + long
	if set[id] == nil || len(id) != 67 {
		t.Fatalf("tool %q missing", id)
	}
	sanitized := agent.SanitizeToolName(id)
	if len(sanitized) != 63 {
		t.Fatalf("sanitized name %q", sanitized)
	}
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: sanitized, Args: `{"text":"hi"}`}}},
		mock.Step{Text: "done"},
	)
	a, err := agent.New(agent.Config{ID: "long", Name: "Long", Model: m, Tools: set})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(ctxT(t), "echo hi")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.ToolResults) != 1 {
		t.Fatalf("tool results = %+v", out.ToolResults)
	}
	raw, _ := json.Marshal(out.ToolResults[0])
	if !strings.Contains(string(raw), `echo: hi`) {
		t.Errorf("result = %s", raw)
	}
}
