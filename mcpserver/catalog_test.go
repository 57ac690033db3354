package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// What an MCP server exposes: tools under their keys, agents as
// ask_<key>, workflows as run_<key>, client tools skipped, clashes won by
// the earlier entry, each with Mastra's warning.
func TestCatalogRules(t *testing.T) {
	rec := &recordingLogger{}
	cfg := fixtureConfig(t)
	cfg.Logger = slog.New(rec)
	cfg.Tools["run_double"] = tools.New(tools.Config[struct{}, string]{ID: "run-clash", Description: "Takes run_double first",
		Execute: func(tools.Context, struct{}) (string, error) { return "tool wins again", nil }})
	cfg.Order.Tools = append(cfg.Order.Tools, "run_double")
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{"adder", "echoText", "echoObject", "fail", "annotated", "noSchema", "confirm", "ask_calc", "run_double", "ask_helper", "run_approval"}
	if diff := cmp.Diff(want, s.ToolNames()); diff != "" {
		t.Errorf("exposed tools (-want +got):\n%s", diff)
	}
	for _, w := range []string{
		"Tool has no execute function, skipping",
		"Tool 'ask_calc' already exists; agent 'calc' is not exposed.",
		"Tool 'run_double' already exists; workflow 'double' is not exposed.",
	} {
		if !slices.Contains(rec.messages(), w) {
			t.Errorf("no warning %q in %q", w, rec.messages())
		}
	}
	cs := connect(t, s, clientOptions{})
	for name, want := range map[string]string{"ask_calc": "tool wins", "run_double": "tool wins again"} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != want {
			t.Errorf("%s: %v %+v", name, err, res)
		}
	}
	info, ok := s.Tool("ask_helper")
	if !ok || info.ToolType != "agent" || info.Description != "Ask agent 'Helper' a question. Agent description: Helps with anything." {
		t.Errorf("ask_helper: %+v", info)
	}
	if info, _ := s.Tool("run_approval"); info.ToolType != "workflow" {
		t.Errorf("run_approval: %+v", info)
	}
	if _, ok := s.Tool("add"); ok {
		t.Error("a tool is exposed under its id")
	}
}

// Order lists tools first, then agents, then workflows; keys not listed
// follow sorted.
func TestCatalogOrder(t *testing.T) {
	cfg := fixtureConfig(t)
	cfg.Order = Order{Tools: []string{"noSchema", "nope"}, Workflows: []string{"double"}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{"noSchema", "adder", "annotated", "ask_calc", "confirm", "echoObject", "echoText", "fail", "ask_helper", "run_double", "run_approval"}
	if diff := cmp.Diff(want, s.ToolNames()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FromMastra exposes the registry's tools, agents and workflows in its
// order, and tools reach the registry.
func TestFromMastra(t *testing.T) {
	var seen tools.Registry
	probe := tools.New(tools.Config[struct{}, string]{ID: "probe", Description: "Looks at the registry",
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			seen = ctx.Mastra()
			return "ok", nil
		}})
	m := mastra.New(mastra.Config{
		Tools:     tools.Set{"probe": probe, "adder": fixtureTools()["adder"]},
		Agents:    fixtureAgents(t),
		Workflows: fixtureWorkflows(t),
		Logger:    discardLogger(),
	})
	s, err := FromMastra(m, Config{Name: "Registry Server", Version: "0.1.0", RequestStateKey: stateKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.ID() != "registry-server" {
		t.Errorf("ID = %q", s.ID())
	}
	want := []string{"adder", "probe", "ask_calc", "ask_helper", "run_approval", "run_double"}
	if diff := cmp.Diff(want, s.ToolNames()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := s.ExecuteTool(context.Background(), "probe", []byte(`{}`), nil); err != nil {
		t.Fatal(err)
	}
	if seen != tools.Registry(m) {
		t.Errorf("the tool saw registry %v", seen)
	}
	only, err := FromMastra(m, Config{Name: "Only", Version: "1", Agents: map[string]*agent.Agent{}, Workflows: map[string]*workflows.Workflow{},
		Tools: tools.Set{"probe": probe}, RequestStateKey: stateKey})
	if err != nil {
		t.Fatal(err)
	}
	defer only.Close()
	if diff := cmp.Diff([]string{"probe"}, only.ToolNames()); diff != "" {
		t.Errorf("explicit sets (-want +got):\n%s", diff)
	}
	if _, err := FromMastra(nil, Config{Name: "x", Version: "1"}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("nil registry: %v", err)
	}
}

// Configs New refuses, with errors that say why.
func TestNewRefusesBadConfigs(t *testing.T) {
	stringInput := mustDynamic(tools.DynamicConfig{ID: "s", Description: "x",
		InputSchema: schema.MustCompile(mustSchema(`{"type":"string"}`)),
		Execute:     func(tools.Context, any) (any, error) { return nil, nil }})
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no name", Config{Version: "1"}, "needs a Name"},
		{"no version", Config{Name: "x"}, "needs a Version"},
		{"no letters", Config{Name: "!!!", Version: "1"}, "has no letters or digits"},
		{"string input", Config{Name: "x", Version: "1", Tools: tools.Set{"s": stringInput}}, "input schemas must be objects"},
		{"nil agent", Config{Name: "x", Version: "1", Agents: map[string]*agent.Agent{"a": nil}}, `agent "a" is nil`},
		{"nil workflow", Config{Name: "x", Version: "1", Workflows: map[string]*workflows.Workflow{"w": nil}}, `workflow "w" is nil`},
		{"bad header annotation", Config{Name: "x", Version: "1", Tools: tools.Set{"h": mustDynamic(tools.DynamicConfig{ID: "h", Description: "x",
			InputSchema: schema.MustCompile(mustSchema(`{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"Bad Header"}}}`)),
			Execute:     func(tools.Context, any) (any, error) { return nil, nil }})}}, `tool "h"`},
	} {
		tc.cfg.Logger = discardLogger()
		_, err := New(tc.cfg)
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// A tool whose output schema is not an object schema advertises none and
// answers with text; an object output schema gives structured content.
func TestOutputSchemaKinds(t *testing.T) {
	s, err := New(Config{Name: "x", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: tools.Set{
		"list": tools.New(tools.Config[struct{}, []string]{ID: "list", Description: "Lists",
			Execute: func(tools.Context, struct{}) ([]string, error) { return []string{"a", "b"}, nil }}),
		"sum": fixtureTools()["adder"],
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if info, _ := s.Tool("list"); info.OutputSchema != nil {
		t.Errorf("list advertises %s", info.OutputSchema)
	}
	cs := connect(t, s, clientOptions{})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list"})
	if err != nil || res.StructuredContent != nil || res.Content[0].(*mcp.TextContent).Text != `["a","b"]` {
		t.Errorf("list: %v %+v", err, res)
	}
}

// Without a RequestStateKey a per-process key is used, with a warning
// naming the setting.
func TestMissingStateKeyWarns(t *testing.T) {
	rec := &recordingLogger{}
	s, err := New(Config{Name: "x", Version: "1", Logger: slog.New(rec)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.codec.key) != 32 || !strings.HasPrefix(strings.Join(rec.messages(), "|"), "mcpserver: no Config.RequestStateKey") {
		t.Errorf("key %d bytes, warnings %q", len(s.codec.key), rec.messages())
	}
}
