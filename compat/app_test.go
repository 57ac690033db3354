package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// The apps below mirror the TypeScript servers the recordings were
// made with: the anchor's server/server.mjs plus the two workflows of
// cmd/mastra/testdata/captured/server-wf.mjs (the "anchor" app),
// testdata/twin/twin-server.mjs (all three apps; its "flows" and "memory"
// apps exist only for this gate), and cmd/mastra/testdata/captured/server-toolerror.mjs (the
// "broken" app). Ids, names, descriptions, instructions and schemas must stay
// equal to theirs, or the outputs compared with the recordings differ.

var quiet = slog.New(slog.DiscardHandler)

type addInput struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOutput struct {
	Sum int `json:"sum"`
}

func add(in addInput) addOutput { return addOutput{Sum: in.A + in.B} }

// addTool is the anchor's add tool (lib/tools.mjs): zod's
// z.object({a: z.number().int(), b: z.number().int()}) is a Go struct of
// ints.
func addTool() *tools.Tool {
	return tools.New(tools.Config[addInput, addOutput]{
		ID: "add", Description: "Add two integers",
		Execute: func(_ tools.Context, in addInput) (addOutput, error) { return add(in), nil },
	})
}

// guardedAddTool needs a person's approval before each call.
func guardedAddTool() *tools.Tool {
	return tools.New(tools.Config[addInput, addOutput]{
		ID: "guarded-add", Description: "Add two integers once a person approves",
		RequireApproval: true,
		Execute:         func(_ tools.Context, in addInput) (addOutput, error) { return add(in), nil },
	})
}

type confirmQuestion struct {
	Question string `json:"question"`
}

type confirmAnswer struct {
	Confirmed bool `json:"confirmed"`
}

// confirmAddTool suspends to ask for confirmation, then adds (or answers 0
// when not confirmed).
func confirmAddTool() *tools.Tool {
	return tools.New(tools.Config[addInput, addOutput]{
		ID: "confirm-add", Description: "Add two integers after asking the user to confirm",
		SuspendSchema: schema.MustFor[confirmQuestion](),
		ResumeSchema:  schema.MustFor[confirmAnswer](),
		Execute: func(ctx tools.Context, in addInput) (addOutput, error) {
			raw := ctx.ResumeData()
			if raw == nil {
				return addOutput{}, ctx.Suspend(confirmQuestion{Question: fmt.Sprintf("Add %d and %d?", in.A, in.B)})
			}
			var ans confirmAnswer
			if err := json.Unmarshal(raw, &ans); err != nil {
				return addOutput{}, fmt.Errorf("confirm-add: resume data: %w", err)
			}
			if !ans.Confirmed {
				return addOutput{}, nil
			}
			return add(in), nil
		},
	})
}

// mastraRaw is the provider usage record the anchor's scripted model
// reports (lib/mock-model.mjs usage(10, 5)), as JSON text to keep its key
// order.
var mastraRaw = json.RawMessage(`{"inputTokens":{"total":10,"noCache":10},"outputTokens":{"total":5,"text":5}}`)

// scriptedModel is the anchor's scripted model (lib/mock-model.mjs,
// toolSteps 1): while the prompt holds no tool result it calls toolName
// with {"a":2,"b":3} (call id "call-1"), then it answers "The sum is 5.".
// It is stateless, so one instance serves every run.
//
// Unlike the anchor's mock it also checks the prompt the way providers do:
// a tool result whose tool call is not in an earlier assistant message is
// refused (OpenAI and Anthropic answer 400 to such a prompt), so a server
// that loses the call while rebuilding a conversation fails here as it
// would with a real model.
func scriptedModel(toolName string) model.LanguageModel {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		calls := map[string]bool{}
		results := 0
		for _, msg := range req.Messages {
			for _, p := range msg.Content {
				switch {
				case msg.Role == model.RoleAssistant && p.Type == model.MessageToolCall && p.ToolCall != nil:
					calls[p.ToolCall.ToolCallID] = true
				case msg.Role == model.RoleTool && p.Type == model.MessageToolResult && p.ToolResult != nil:
					if !calls[p.ToolResult.ToolCallID] {
						return mock.Step{Err: fmt.Errorf("scripted model: the prompt has a result for tool call %q but no assistant message making that call (providers refuse such prompts)", p.ToolResult.ToolCallID)}
					}
					results++
				}
			}
		}
		step := mock.Step{
			Usage:    model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15, Raw: mastraRaw},
			Response: &model.ResponseMetadata{ID: "resp-scripted-mock", Timestamp: time.Unix(0, 0).UTC(), ModelID: "scripted-mock"},
		}
		if results < 1 {
			step.ToolCalls = []mock.ToolCall{{ID: "call-1", Name: toolName, Args: `{"a":2,"b":3}`}}
		} else {
			step.Text = "The sum is 5."
		}
		return step
	}).WithID("mock-provider", "scripted-mock")
}

// newAgent builds an agent on the scripted model, with the storage that
// keeps its suspended runs and an (empty-option) memory, as Mastra's
// agents report supportsMemory: true.
func newAgent(t testing.TB, st storage.Store, cfg agent.Config, toolName string) *agent.Agent {
	t.Helper()
	cfg.Model = scriptedModel(toolName)
	cfg.Storage = st
	cfg.Memory = &agent.MemoryOptions{}
	cfg.Logger = quiet
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatalf("agent %s: %v", cfg.ID, err)
	}
	return a
}

type wfNumber struct {
	N float64 `json:"n"`
}

type wfApproved struct {
	N        float64 `json:"n"`
	Approved bool    `json:"approved"`
}

type wfAsk struct {
	Ask string `json:"ask"`
}

type wfApproval struct {
	Approved bool `json:"approved"`
}

func mustCommit(t testing.TB, w *workflows.Workflow) *workflows.Workflow {
	t.Helper()
	if err := w.Commit(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	return w
}

// anchorWorkflows are server-wf.mjs's double-wf and approve-wf (zod's
// z.number() is a float64).
func anchorWorkflows(t testing.TB, st storage.Store) (doubleWf, approveWf *workflows.Workflow) {
	t.Helper()
	double := func() *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[wfNumber, wfNumber]{ID: "double",
			Execute: func(_ workflows.StepContext, in wfNumber) (wfNumber, error) { return wfNumber{N: in.N * 2}, nil }})
	}
	approve := workflows.NewStep(workflows.StepConfig[wfNumber, wfApproved]{ID: "approve",
		ResumeSchema:  schema.MustFor[wfApproval](),
		SuspendSchema: schema.MustFor[wfAsk](),
		Execute: func(ctx workflows.StepContext, in wfNumber) (wfApproved, error) {
			if ctx.ResumeData() == nil {
				return wfApproved{}, ctx.Suspend(wfAsk{Ask: fmt.Sprintf("approve %v?", in.N)})
			}
			var a wfApproval
			if err := workflows.DecodeResumeData(ctx, &a); err != nil {
				return wfApproved{}, err
			}
			return wfApproved{N: in.N, Approved: a.Approved}, nil
		}})
	doubleWf = mustCommit(t, workflows.New(workflows.Config{ID: "double-wf", Description: "Doubles a number", Storage: st}).
		Then(double()))
	approveWf = mustCommit(t, workflows.New(workflows.Config{ID: "approve-wf", Description: "Doubles then waits for approval", Storage: st}).
		Then(double()).Then(approve))
	return doubleWf, approveWf
}

// openStore is a private in-memory SQLite store, closed with the test.
func openStore(t testing.TB) storage.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatalf("sqlite: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// anchorApp is the registry of the server the CLI and client-js
// recordings were made against.
func anchorApp(t testing.TB) *mastra.Mastra {
	t.Helper()
	st := openStore(t)
	calc := newAgent(t, st, agent.Config{
		ID: "calc-agent", Name: "calc-agent",
		Description:  "Adds numbers with the add tool (mock model).",
		Instructions: "You add numbers using the add tool.",
		Tools:        tools.Set{"add": addTool()},
	}, "add")
	m := mastra.New(mastra.Config{
		Tools:  tools.Set{"add": addTool()},
		Agents: map[string]*agent.Agent{"calcAgent": calc},
		Logger: quiet,
	})
	doubleWf, approveWf := anchorWorkflows(t, st)
	// Registered one by one to keep the TypeScript object's key order.
	for _, err := range []error{m.AddWorkflow(doubleWf, "doubleWf"), m.AddWorkflow(approveWf, "approveWf")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// brokenAddTool is server-toolerror.mjs's broken-add: the add tool's
// schemas, and an error on every call.
func brokenAddTool() *tools.Tool {
	return tools.New(tools.Config[addInput, addOutput]{
		ID: "broken-add", Description: "Add two integers (the adder is offline)",
		Execute: func(_ tools.Context, in addInput) (addOutput, error) {
			return addOutput{}, fmt.Errorf("adder offline: cannot add %d and %d", in.A, in.B)
		},
	})
}

// brokenApp is the registry of cmd/mastra/testdata/captured/server-toolerror.mjs:
// broken-agent, whose only tool always fails.
func brokenApp(t testing.TB) *mastra.Mastra {
	t.Helper()
	broken := newAgent(t, openStore(t), agent.Config{
		ID: "broken-agent", Name: "broken-agent",
		Description:  "Adds numbers with a tool that always fails (mock model).",
		Instructions: "You add numbers using the broken-add tool.",
		Tools:        tools.Set{"broken-add": brokenAddTool()},
	}, "broken-add")
	return mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"brokenAgent": broken}, Logger: quiet})
}

// flowsApp holds the agents for the client's multi-request flows: a tool
// needing approval, a tool that suspends, and no tool at all (the client
// brings browserAdd).
func flowsApp(t testing.TB) *mastra.Mastra {
	t.Helper()
	st := openStore(t)
	flow := func(id, description, toolName string, set tools.Set) *agent.Agent {
		return newAgent(t, st, agent.Config{ID: id, Name: id, Description: description,
			Instructions: "You add numbers.", Tools: set}, toolName)
	}
	m := mastra.New(mastra.Config{Logger: quiet})
	// Added one by one to keep the TypeScript object's key order.
	for _, err := range []error{
		m.AddAgent(flow("approval-agent", "Adds with a tool that needs approval.", "guarded-add",
			tools.Set{"guarded-add": guardedAddTool()}), "approvalAgent"),
		m.AddAgent(flow("suspend-agent", "Adds with a tool that asks for confirmation.", "confirm-add",
			tools.Set{"confirm-add": confirmAddTool()}), "suspendAgent"),
		m.AddAgent(flow("browser-agent", "Adds with the caller's own browserAdd tool.", "browserAdd", nil), "browserAgent"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// memoryApp is the twin's memory app: memory-agent keeps threads
// (memory with its defaults); plain-agent keeps none; om-agent keeps
// threads and observational memory (its defaults, the scripted model
// observing).
func memoryApp(t testing.TB) *mastra.Mastra {
	t.Helper()
	st := openStore(t)
	keeper := newAgent(t, st, agent.Config{ID: "memory-agent", Name: "memory-agent",
		Description: "Adds numbers and remembers the conversation.", Instructions: "You add numbers using the add tool.",
		Tools: tools.Set{"add": addTool()}}, "add")
	plain, err := agent.New(agent.Config{ID: "plain-agent", Name: "plain-agent",
		Description: "Adds numbers and keeps no memory.", Instructions: "You add numbers using the add tool.",
		Tools: tools.Set{"add": addTool()}, Model: scriptedModel("add"), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	om, err := observational.New(observational.Config{Model: scriptedModel("add"), Storage: st})
	if err != nil {
		t.Fatal(err)
	}
	observing := newAgent(t, st, agent.Config{ID: "om-agent", Name: "om-agent",
		Description: "Adds numbers and keeps observational memory.", Instructions: "You add numbers using the add tool.",
		Tools: tools.Set{"add": addTool()}, Processors: []agent.StepProcessor{om}}, "add")
	m := mastra.New(mastra.Config{Logger: quiet})
	for _, err := range []error{m.AddAgent(keeper, "memoryAgent"), m.AddAgent(plain, "plainAgent"), m.AddAgent(observing, "omAgent")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// serve starts the Go server for m on 127.0.0.1 and returns its base URL
// (without the /api prefix, as Mastra clients take it). Like Mastra's
// server, it has the MCP registry routes; like the anchor, it registers
// no MCP server.
func serve(t testing.TB, m *mastra.Mastra) string {
	t.Helper()
	srv := server.New(m, server.Options{Logger: quiet, Routes: mcpserver.Routes()})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return ts.URL
}
