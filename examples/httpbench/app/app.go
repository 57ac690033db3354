// Package app is the app the HTTP load benchmark serves: the same app as
// the Mastra anchor's server/server.mjs, so that both servers answer the
// same requests with the same work behind them. It registers the add
// tool ({a, b} → {sum}) and calc-agent, an agent on a scripted model
// that calls add once with {"a":2,"b":3} and then answers "The sum is
// 5.".
//
// The model is stateless (mock.NewFunc): each call looks at the tool
// results already in its prompt, as the anchor's lib/mock-model.mjs
// does, so one model serves any number of runs, concurrent ones
// included, and keeps nothing between them.
package app

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// FinalText is what calc-agent answers after its tool step.
const FinalText = "The sum is 5."

// AgentStorageEnv names the environment variable that makes [Build] give
// calc-agent the server's storage ("1" or "true"); by default its runs
// are kept in the process, as the anchor's are (its Mastra has no
// storage).
const AgentStorageEnv = "HTTPBENCH_AGENT_STORAGE"

// AddInput is the add tool's input.
type AddInput struct {
	A int `json:"a"`
	B int `json:"b"`
}

// AddOutput is the add tool's output.
type AddOutput struct {
	Sum int `json:"sum"`
}

// NewAddTool returns the anchor's add tool: "Add two integers", integer
// inputs a and b, output {sum}.
func NewAddTool() *tools.Tool {
	return tools.New(tools.Config[AddInput, AddOutput]{
		ID:          "add",
		Description: "Add two integers",
		Execute: func(_ tools.Context, in AddInput) (AddOutput, error) {
			return AddOutput{Sum: in.A + in.B}, nil
		},
	})
}

// NewModel returns the anchor's scripted model: while its prompt holds
// fewer than toolSteps tool results it calls add with {"a":2,"b":3}
// (call ids call-1, call-2, ...); then it answers FinalText. Every call
// reports 10 input and 5 output tokens. It is safe for concurrent use.
func NewModel(toolSteps int) *mock.Model {
	usage := model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}
	resp := &model.ResponseMetadata{ID: "resp-scripted-mock", Timestamp: time.Unix(0, 0).UTC(), ModelID: "scripted-mock"}
	return mock.NewFunc(func(req *model.Request) mock.Step {
		step := mock.Step{Usage: usage, Response: resp}
		if done := toolResults(req); done < toolSteps {
			step.ToolCalls = []mock.ToolCall{{ID: "call-" + strconv.Itoa(done+1), Name: "add", Args: `{"a":2,"b":3}`}}
		} else {
			step.Text = FinalText
		}
		return step
	}).WithID("mock-provider", "scripted-mock")
}

// toolResults counts the tool results in a prompt.
func toolResults(req *model.Request) int {
	n := 0
	for _, msg := range req.Messages {
		if msg.Role != model.RoleTool {
			continue
		}
		for _, p := range msg.Content {
			if p.Type == model.MessageToolResult {
				n++
			}
		}
	}
	return n
}

// Config is what New needs.
type Config struct {
	// Storage, when set, keeps calc-agent's resumable runs; nil keeps
	// them in the process.
	Storage storage.Store
	// Logger is the agent's and the registry's logger; nil means
	// slog.Default().
	Logger *slog.Logger
}

// New returns the registry: tools {add}, agents {calcAgent: calc-agent
// with tools {add} on NewModel(1)}. It fails only if the agent cannot be
// built.
func New(cfg Config) (*mastra.Mastra, error) {
	add := NewAddTool()
	calc, err := agent.New(agent.Config{
		ID:           "calc-agent",
		Name:         "calc-agent",
		Description:  "Adds numbers with the add tool (mock model).",
		Instructions: "You add numbers using the add tool.",
		Model:        NewModel(1),
		Tools:        tools.Set{"add": add},
		Storage:      cfg.Storage,
		Logger:       cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	return mastra.New(mastra.Config{
		Tools:  tools.Set{"add": add},
		Agents: map[string]*agent.Agent{"calcAgent": calc},
		Logger: cfg.Logger,
	}), nil
}

// Build is New as a serve.Build: calc-agent gets env.Storage when the
// AgentStorageEnv variable is "1" or "true".
func Build(_ context.Context, env serve.Env) (*mastra.Mastra, error) {
	cfg := Config{Logger: env.Logger}
	if v := env.Getenv(AgentStorageEnv); v == "1" || v == "true" {
		cfg.Storage = env.Storage
	}
	return New(cfg)
}
