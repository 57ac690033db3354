package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// The Go twin of testdata/mastra/capture.mjs: the same tools, agents and
// workflows, so that our answers can be compared with Mastra's.

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

type textIn struct {
	Text string `json:"text"`
}

type echoIn struct {
	Text  string  `json:"text"`
	Count float64 `json:"count,omitempty"`
}

type idIn struct {
	ID string `json:"id" jsonschema:"The id"`
}

type confirmIn struct {
	Action string `json:"action"`
}

type confirmSuspend struct {
	Message string `json:"message"`
}

type confirmResume struct {
	Approved bool `json:"approved" jsonschema:"Whether to go ahead"`
}

type doubleIn struct {
	N float64 `json:"n"`
}

type doubleOut struct {
	Doubled float64 `json:"doubled"`
}

type itemIn struct {
	Item string `json:"item"`
}

type approvalOut struct {
	Item     string `json:"item"`
	Approved bool   `json:"approved"`
}

type approvalResume struct {
	Approved bool `json:"approved"`
}

func ptr[T any](v T) *T { return &v }

func fixtureTools() tools.Set {
	return tools.Set{
		"adder": tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers",
			Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }}),
		"echoText": tools.New(tools.Config[textIn, string]{ID: "echo-text", Description: "Echoes the text back",
			Execute: func(_ tools.Context, in textIn) (string, error) { return in.Text, nil }}),
		"echoObject": tools.New(tools.Config[echoIn, any]{ID: "echo-object", Description: "Echoes an object back",
			Execute: func(_ tools.Context, in echoIn) (any, error) {
				return struct {
					Echoed string  `json:"echoed"`
					Count  float64 `json:"count"`
				}{in.Text, in.Count}, nil
			}}),
		"fail": tools.New(tools.Config[struct{}, any]{ID: "fail", Description: "Always fails",
			Execute: func(tools.Context, struct{}) (any, error) { return nil, errors.New("boom") }}),
		"clientOnly": tools.New(tools.Config[struct {
			Q string `json:"q"`
		}, any]{ID: "client-only", Description: "Runs in the client"}),
		"annotated": tools.New(tools.Config[idIn, any]{ID: "annotated", Description: "Has MCP annotations and meta",
			Strict: ptr(true),
			MCP: &tools.MCPOptions{
				Annotations: &tools.MCPAnnotations{Title: "Annotated tool", ReadOnlyHint: ptr(true), OpenWorldHint: ptr(false)},
				Meta:        map[string]any{"example.com/owner": "team-a"},
			},
			Execute: func(_ tools.Context, in idIn) (any, error) {
				return struct {
					ID string `json:"id"`
				}{in.ID}, nil
			}}),
		"noSchema": mustDynamic(tools.DynamicConfig{ID: "no-schema", Description: "Takes anything",
			Execute: func(_ tools.Context, in any) (any, error) { return map[string]any{"got": in}, nil }}),
		"confirm": tools.New(tools.Config[confirmIn, any]{ID: "confirm", Description: "Asks a person before acting",
			SuspendSchema: workflows.MustSchemaFor[confirmSuspend](),
			ResumeSchema:  workflows.MustSchemaFor[confirmResume](),
			Execute: func(ctx tools.Context, in confirmIn) (any, error) {
				answer, resumed, err := tools.ResumeDataAs[confirmResume](ctx)
				if err != nil {
					return nil, err
				}
				if !resumed {
					return nil, ctx.Suspend(confirmSuspend{Message: "Approve " + in.Action + "?"})
				}
				asked, _, _ := tools.SuspendPayloadAs[confirmSuspend](ctx)
				return struct {
					Action   string `json:"action"`
					Approved bool   `json:"approved"`
					Asked    string `json:"asked"`
				}{in.Action, answer.Approved, asked.Message}, nil
			}}),
		"ask_calc": tools.New(tools.Config[struct{}, string]{ID: "clash", Description: "Takes the name ask_calc first",
			Execute: func(tools.Context, struct{}) (string, error) { return "tool wins", nil }}),
	}
}

func mustDynamic(cfg tools.DynamicConfig) *tools.Tool {
	t, err := tools.NewDynamic(cfg)
	if err != nil {
		panic(err)
	}
	return t
}

// textModel answers every call with text.
func textModel(text string) *mock.Model {
	return mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: text} })
}

func fixtureAgents(t testing.TB) map[string]*agent.Agent {
	t.Helper()
	calc, err := agent.New(agent.Config{ID: "calc-agent", Name: "Calc Agent", Description: "Answers arithmetic questions.",
		Instructions: "You answer arithmetic questions.", Model: textModel("The sum is 5.")})
	if err != nil {
		t.Fatal(err)
	}
	helper, err := agent.New(agent.Config{ID: "helper-agent", Name: "Helper", Description: "Helps with anything.",
		Instructions: "You help.", Model: textModel("Happy to help.")})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*agent.Agent{"calc": calc, "helper": helper}
}

func fixtureWorkflows(t testing.TB) map[string]*workflows.Workflow {
	t.Helper()
	double := workflows.New(workflows.Config{ID: "double-workflow", Description: "Doubles a number",
		InputSchema: workflows.MustSchemaFor[doubleIn](), OutputSchema: workflows.MustSchemaFor[doubleOut]()}).
		Then(workflows.NewStep(workflows.StepConfig[doubleIn, doubleOut]{ID: "double-step",
			Execute: func(_ workflows.StepContext, in doubleIn) (doubleOut, error) {
				return doubleOut{Doubled: in.N * 2}, nil
			}}))
	approval := workflows.New(workflows.Config{ID: "approval-workflow", Description: "Waits for a person",
		InputSchema: workflows.MustSchemaFor[itemIn](), OutputSchema: workflows.MustSchemaFor[approvalOut]()}).
		Then(workflows.NewStep(workflows.StepConfig[itemIn, approvalOut]{ID: "approval-step",
			SuspendSchema: workflows.MustSchemaFor[itemIn](), ResumeSchema: workflows.MustSchemaFor[approvalResume](),
			Execute: func(ctx workflows.StepContext, in itemIn) (approvalOut, error) {
				var answer approvalResume
				if ctx.ResumeData() == nil {
					return approvalOut{}, ctx.Suspend(itemIn{Item: in.Item})
				}
				if err := workflows.DecodeResumeData(ctx, &answer); err != nil {
					return approvalOut{}, err
				}
				return approvalOut{Item: in.Item, Approved: answer.Approved}, nil
			}}))
	for _, w := range []*workflows.Workflow{double, approval} {
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]*workflows.Workflow{"double": double, "approval": approval}
}

// stateKey is the continuation key of the capture (32 bytes of 7).
var stateKey = func() []byte {
	k := make([]byte, 32)
	for i := range k {
		k[i] = 7
	}
	return k
}()

// fixtureConfig is the capture's MCPServer config, in the capture's order.
func fixtureConfig(t testing.TB) Config {
	return Config{
		ID: "my-server", Name: "My Server", Version: "1.2.3",
		Description: "Tools, agents and workflows over MCP",
		ReleaseDate: "2026-01-02T03:04:05.000Z",
		Tools:       fixtureTools(),
		Agents:      fixtureAgents(t),
		Workflows:   fixtureWorkflows(t),
		Order: Order{
			Tools:     []string{"adder", "echoText", "echoObject", "fail", "clientOnly", "annotated", "noSchema", "confirm", "ask_calc"},
			Agents:    []string{"calc", "helper"},
			Workflows: []string{"double", "approval"},
		},
		RequestStateKey: stateKey,
		Logger:          discardLogger(),
	}
}

func fixtureServer(t testing.TB) *Server {
	t.Helper()
	s, err := New(fixtureConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// recordingLogger keeps the messages of warnings.
type recordingLogger struct {
	mu       sync.Mutex
	warnings []string
}

func (r *recordingLogger) Enabled(context.Context, slog.Level) bool { return true }
func (r *recordingLogger) Handle(_ context.Context, rec slog.Record) error {
	if rec.Level >= slog.LevelWarn {
		r.mu.Lock()
		r.warnings = append(r.warnings, rec.Message)
		r.mu.Unlock()
	}
	return nil
}

func (r *recordingLogger) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.warnings...)
}
func (r *recordingLogger) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recordingLogger) WithGroup(string) slog.Handler      { return r }

func mapOf[V any](key string, v V) map[string]V { return map[string]V{key: v} }

func agentWithoutDescription(t testing.TB) *agent.Agent {
	t.Helper()
	a, err := agent.New(agent.Config{ID: "bare", Name: "Bare", Instructions: "x", Model: textModel("x")})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func bareWorkflow(t testing.TB) *workflows.Workflow {
	t.Helper()
	w := workflows.New(workflows.Config{ID: "bare-wf"}).
		Then(workflows.NewStep(workflows.StepConfig[doubleIn, doubleOut]{ID: "double-step",
			Execute: func(_ workflows.StepContext, in doubleIn) (doubleOut, error) {
				return doubleOut{Doubled: in.N * 2}, nil
			}}))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w
}

type nestedResume struct {
	A struct {
		B string `json:"b"`
	} `json:"a"`
}

func nestedResumeTool() *tools.Tool {
	return tools.New(tools.Config[struct{}, int]{ID: "nested", Description: "x",
		ResumeSchema: workflows.MustSchemaFor[nestedResume](),
		Execute:      func(tools.Context, struct{}) (int, error) { return 1, nil }})
}

func mustSchema(text string) *jsonschema.Schema {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		panic(err)
	}
	return &s
}
