package enginetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func run(t *testing.T, r Runner, key string, in Input) Outcome {
	t.Helper()
	out, err := r.Run(ctxOf(t), key, in)
	if err != nil {
		t.Fatalf("run: %v (chunks %s)", err, types(out))
	}
	return out
}

func answer(t *testing.T, r Runner, key, runID string, a agent.Answer) Outcome {
	t.Helper()
	out, err := r.Answer(ctxOf(t), key, runID, a)
	if err != nil {
		t.Fatalf("answer: %v (chunks %s)", err, types(out))
	}
	return out
}

// toolLoop: two tool steps, then the answer; each call runs once.
func toolLoop(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	m := mock.NewFunc(mock.ToolSteps(2, mock.ToolCall{Name: "add", Args: `{"a":1,"b":2}`}, mock.Step{Text: "The sum is 3."}))
	reg := registry(t, agent.Config{ID: "adder", Model: m, Tools: tools.Set{"add": addTool(&c)}})
	out := run(t, newRunner(t, reg), "adder", Input{Prompt: "Add 1 and 2, twice."})
	wantResults(t, out, `call-0={"sum":3}`, `call-1={"sum":3}`)
	wantText(t, out, "The sum is 3.")
	wantFinish(t, out, "stop")
	c.want(t, "add", 2)
}

// parallelCalls: two calls of one step run side by side; their results
// come in the model's order.
func parallelCalls(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	calls := []mock.ToolCall{{ID: "p1", Name: "meet", Args: `{"a":1,"b":1}`}, {ID: "p2", Name: "meet", Args: `{"a":2,"b":2}`}}
	reg := registry(t, agent.Config{ID: "meeter", Model: thenText(calls, fixed("Both met.")), Tools: tools.Set{"meet": barrierTool(&c, 2)}})
	out := run(t, newRunner(t, reg), "meeter", Input{Prompt: "Meet twice."})
	wantResults(t, out, `p1={"sum":2}`, `p2={"sum":4}`)
	wantText(t, out, "Both met.")
	c.want(t, "meet", 2)
}

// guarded is an agent whose one tool needs approval.
func guarded(t *testing.T, c *counts) *mastra.Mastra {
	tool := tools.New(tools.Config[numbers, sum]{ID: "transfer", Description: "Moves money.", RequireApproval: true,
		Execute: func(ctx tools.Context, in numbers) (sum, error) {
			c.add("transfer")
			return sum{Sum: in.A + in.B}, nil
		}})
	m := thenText([]mock.ToolCall{{ID: "g1", Name: "transfer", Args: `{"a":5,"b":5}`}}, lastToolText)
	return registry(t, agent.Config{ID: "banker", Model: m, Tools: tools.Set{"transfer": tool}})
}

// approval: a call that needs approval waits, runs once approved.
func approval(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	r := newRunner(t, guarded(t, &c))
	first := run(t, r, "banker", Input{Prompt: "Move 10."})
	if len(first.of(stream.TypeToolCallApproval)) != 1 {
		t.Fatalf("want one tool-call-approval chunk, got %s", types(first))
	}
	c.want(t, "transfer", 0)
	yes := true
	rest := answer(t, r, "banker", first.RunID, agent.Answer{ToolCallID: "g1", Approved: &yes})
	wantResults(t, rest, `g1={"sum":10}`)
	wantText(t, rest, `{"type":"json","value":{"sum":10}}`)
	c.want(t, "transfer", 1)
}

// decline: a declined call never runs; the model hears why.
func decline(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	r := newRunner(t, guarded(t, &c))
	first := run(t, r, "banker", Input{Prompt: "Move 10."})
	no := false
	rest := answer(t, r, "banker", first.RunID, agent.Answer{ToolCallID: "g1", Approved: &no, Reason: "too much"})
	if !strings.Contains(rest.text(), "too much") {
		t.Errorf("the model was not told the reason: text %q", rest.text())
	}
	wantFinish(t, rest, "stop")
	c.want(t, "transfer", 0)
}

type question struct {
	Question string `json:"question"`
}

type reply struct {
	Answer string `json:"answer"`
}

// suspendAndResume: a tool suspends with a payload; its resume data
// reaches it when it runs again.
func suspendAndResume(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	ask := tools.New(tools.Config[numbers, reply]{ID: "ask", Description: "Asks a person.",
		Execute: func(ctx tools.Context, in numbers) (reply, error) {
			c.add("ask")
			got, ok, err := tools.ResumeDataAs[reply](ctx)
			if err != nil {
				return reply{}, err
			}
			if !ok {
				return reply{}, ctx.Suspend(question{Question: "Sure?"})
			}
			return got, nil
		}})
	m := thenText([]mock.ToolCall{{ID: "a1", Name: "ask", Args: `{"a":0,"b":0}`}}, lastToolText)
	r := newRunner(t, registry(t, agent.Config{ID: "asker", Model: m, Tools: tools.Set{"ask": ask}}))
	first := run(t, r, "asker", Input{Prompt: "Ask."})
	sus := first.of(stream.TypeToolCallSuspended)
	if len(sus) != 1 || asJSON(field(sus[0], "suspendPayload")) != `{"question":"Sure?"}` {
		t.Fatalf("want one tool-call-suspended chunk with the question, got %s", types(first))
	}
	rest := answer(t, r, "asker", first.RunID, agent.Answer{ToolCallID: "a1", Data: []byte(`{"answer":"yes"}`)})
	wantResults(t, rest, `a1={"answer":"yes"}`)
	wantText(t, rest, `{"type":"json","value":{"answer":"yes"}}`)
	c.want(t, "ask", 2)
}

// toolErrors: a tool's error and a call of a tool that does not exist
// become tool-error chunks; the run goes on.
func toolErrors(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	fail := tools.New(tools.Config[numbers, sum]{ID: "fail", Description: "Fails.", Execute: func(ctx tools.Context, in numbers) (sum, error) {
		c.add("fail")
		return sum{}, errors.New("boom")
	}})
	calls := []mock.ToolCall{{ID: "f1", Name: "fail", Args: `{"a":1,"b":1}`}, {ID: "n1", Name: "nope", Args: `{}`}}
	r := newRunner(t, registry(t, agent.Config{ID: "failer", Model: thenText(calls, fixed("Handled.")), Tools: tools.Set{"fail": fail}}))
	out := run(t, r, "failer", Input{Prompt: "Fail."})
	errs := out.of(stream.TypeToolError)
	if len(errs) != 2 {
		t.Fatalf("want 2 tool-error chunks, got %s", types(out))
	}
	if msg := asJSON(field(errs[0], "error")); !strings.Contains(msg, "boom") {
		t.Errorf("fail's error is %s", msg)
	}
	if msg := asJSON(field(errs[1], "error")); !strings.Contains(msg, "nope") {
		t.Errorf("the unknown tool's error is %s", msg)
	}
	wantText(t, out, "Handled.")
	c.want(t, "fail", 1)
}

// modelError: a model call that fails ends the run with an error chunk.
func modelError(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	m := mock.New(mock.Step{Err: errors.New("the model refused")})
	r := newRunner(t, registry(t, agent.Config{ID: "refused", Model: m}))
	out, err := r.Run(ctxOf(t), "refused", Input{Prompt: "Hi."})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	errs := out.of(stream.TypeError)
	if len(errs) != 1 || !strings.Contains(asJSON(payload(errs[0])), "the model refused") {
		t.Fatalf("want one error chunk with the model's error, got %s", types(out))
	}
}

// subAgent: agent-<key> runs the sub-agent (a registered agent too) on
// the model's prompt; the parent's model sees its answer.
func subAgent(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	reg := registry(t, agent.Config{ID: "helper", Instructions: "Greet.", Description: "Greets.",
		Model: mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: "hi from helper"} })})
	helper, err := reg.GetAgent("helper")
	if err != nil {
		t.Fatal(err)
	}
	m := thenText([]mock.ToolCall{{ID: "s1", Name: "agent-helper", Args: `{"prompt":"Say hi."}`}}, func(req *model.Request) string {
		if strings.Contains(lastToolText(req), "hi from helper") {
			return "Relayed."
		}
		return "Lost: " + lastToolText(req)
	})
	parent, err := agent.New(agent.Config{ID: "parent", Name: "parent", Instructions: "Delegate.", Model: m,
		Storage: helper.Storage(), Agents: map[string]*agent.Agent{"helper": helper}})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.AddAgent(parent, "parent"); err != nil {
		t.Fatal(err)
	}
	out := run(t, newRunner(t, reg), "parent", Input{Prompt: "Get a greeting."})
	wantText(t, out, "Relayed.")
	if outputs := out.of(stream.TypeToolOutput); len(outputs) == 0 {
		t.Errorf("the sub-agent's chunks did not stream through as tool-output: %s", types(out))
	}
}

// memory: a second run on a thread sees the first.
func memory(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		if prompted(req, "remember 7") && prompted(req, "what did I say") {
			return mock.Step{Text: "You said 7."}
		}
		return mock.Step{Text: "Noted."}
	})
	r := newRunner(t, registry(t, agent.Config{ID: "rememberer", Model: m, Memory: &agent.MemoryOptions{}}))
	in := Input{ThreadID: "thread-1", ResourceID: "user-1"}
	in.Prompt = "remember 7"
	wantText(t, run(t, r, "rememberer", in), "Noted.")
	in.Prompt = "what did I say"
	wantText(t, run(t, r, "rememberer", in), "You said 7.")
}

type city struct {
	City string `json:"city"`
}

type forecast struct {
	Forecast string `json:"forecast"`
}

// workflowTool: workflow-<key> runs the workflow on the model's input;
// the model sees its result.
func workflowTool(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	step := workflows.NewStep(workflows.StepConfig[city, forecast]{ID: "forecast", Execute: func(ctx workflows.StepContext, in city) (forecast, error) {
		c.add("forecast")
		return forecast{Forecast: "sunny in " + in.City}, nil
	}})
	// The workflow is the registry's too, on the agents' store: an
	// engine that launches the registry's workflows runs the tool's run
	// as a launched run of its own.
	store := wfStore(t).(*sqlite.Store)
	wf := workflows.New(workflows.Config{ID: "weather", Description: "Forecasts.", InputSchema: workflows.MustSchemaFor[city](), Storage: store}).Then(step)
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	m := thenText([]mock.ToolCall{{ID: "w1", Name: "workflow-weather", Args: `{"inputData":{"city":"Paris"}}`}}, func(req *model.Request) string {
		if strings.Contains(lastToolText(req), "sunny in Paris") {
			return "Sunny."
		}
		return "Lost: " + lastToolText(req)
	})
	reg := registryOn(t, store, []*workflows.Workflow{wf}, agent.Config{ID: "forecaster", Model: m, Workflows: map[string]*workflows.Workflow{"weather": wf}})
	r := newRunner(t, reg)
	out := run(t, r, "forecaster", Input{Prompt: "Weather in Paris?"})
	wantText(t, out, "Sunny.")
	c.want(t, "forecast", 1)
	if runs, err := wf.ListRuns(ctxOf(t), workflows.StatusSuccess); err != nil || len(runs) != 1 {
		t.Errorf("the workflow's stored runs: %d, %v; want the tool's one", len(runs), err)
	}
}

// structuredOutput: the answer's JSON becomes the run's object.
func structuredOutput(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		if req.ResponseFormat == nil {
			return mock.Step{Text: "no response format"}
		}
		return mock.Step{Text: `{"city":"Paris"}`}
	})
	r := newRunner(t, registry(t, agent.Config{ID: "structured", Model: m}))
	out := run(t, r, "structured", Input{Prompt: "A city.", Output: &agent.StructuredOutput{Schema: workflows.MustSchemaFor[city]()}})
	objs := out.of(stream.TypeObjectResult)
	if len(objs) != 1 || asJSON(objs[0].Object) != `{"city":"Paris"}` {
		t.Fatalf("want one object-result {\"city\":\"Paris\"}, got %s", types(out))
	}
	wantFinish(t, out, "stop")
}

// toolRetries: a failing call is tried again as often as its tool's
// Retries say; the model sees the last attempt.
func toolRetries(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	var mu sync.Mutex // guards failures, which calls of both tools count down
	failures := map[string]int{"flaky": 2, "stubborn": 100}
	failing := func(id string, retries int) *tools.Tool {
		return tools.New(tools.Config[numbers, sum]{ID: id, Description: "Fails at first.", Retries: retries,
			Execute: func(ctx tools.Context, in numbers) (sum, error) {
				c.add(id)
				mu.Lock()
				defer mu.Unlock()
				if failures[id] > 0 {
					failures[id]--
					return sum{}, errors.New(id + " failed")
				}
				return sum{Sum: in.A + in.B}, nil
			}})
	}
	calls := []mock.ToolCall{{ID: "r1", Name: "flaky", Args: `{"a":1,"b":2}`}, {ID: "r2", Name: "stubborn", Args: `{"a":1,"b":2}`}}
	r := newRunner(t, registry(t, agent.Config{ID: "retrier", Model: thenText(calls, fixed("Done.")),
		Tools: tools.Set{"flaky": failing("flaky", 2), "stubborn": failing("stubborn", 1)}}))
	out := run(t, r, "retrier", Input{Prompt: "Try."})
	wantResults(t, out, `r1={"sum":3}`)
	if errs := out.of(stream.TypeToolError); len(errs) != 1 || !strings.Contains(asJSON(field(errs[0], "error")), "stubborn failed") {
		t.Errorf("want stubborn's error, got %s", types(out))
	}
	c.want(t, "flaky", 3)
	c.want(t, "stubborn", 2)
}

// hooksAndModelOutput: the agent's hooks wrap each call (a skip answers
// in the tool's place), a tool's ToModelOutput shapes what the model
// sees of what it ran, its OnOutput sees the output; each runs once a
// call.
func hooksAndModelOutput(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	add := tools.New(tools.Config[numbers, sum]{ID: "add", Description: "Adds.",
		Execute: func(ctx tools.Context, in numbers) (sum, error) { c.add("add"); return sum{Sum: in.A + in.B}, nil },
		ToModelOutput: func(_ context.Context, out sum) (*model.ToolResultOutput, error) {
			o := model.TextOutput(fmt.Sprintf("the sum is %d", out.Sum))
			return &o, nil
		},
		OnOutput: func(context.Context, tools.OutputEvent) { c.add("onOutput") },
	})
	hooks := agent.Hooks{
		BeforeToolCall: func(_ context.Context, call agent.HookCall) (*agent.Skip, error) {
			c.add("before")
			if call.ToolCallID == "h2" {
				return &agent.Skip{Output: sum{Sum: -1}}, nil
			}
			return nil, nil
		},
		AfterToolCall: func(context.Context, agent.HookCall, any, error) error { c.add("after"); return nil },
	}
	calls := []mock.ToolCall{{ID: "h1", Name: "add", Args: `{"a":2,"b":3}`}, {ID: "h2", Name: "add", Args: `{"a":1,"b":1}`}}
	m := thenText(calls, func(req *model.Request) string {
		var seen []string
		for _, msg := range req.Messages {
			for _, p := range msg.Content {
				if p.ToolResult != nil {
					seen = append(seen, asJSON(p.ToolResult.Output))
				}
			}
		}
		return strings.Join(seen, " | ")
	})
	r := newRunner(t, registry(t, agent.Config{ID: "hooked", Model: m, Tools: tools.Set{"add": add}, Hooks: hooks}))
	out := run(t, r, "hooked", Input{Prompt: "Add."})
	// A skipped call's output is the model's as it is.
	wantText(t, out, `{"type":"text","value":"the sum is 5"} | {"type":"json","value":{"sum":-1}}`)
	c.want(t, "add", 1)
	c.want(t, "before", 2)
	c.want(t, "after", 1)
	c.want(t, "onOutput", 1)
}

// workingMemory: a run's updateWorkingMemory call stores the resource's
// document (the tool runs where the engine runs tool calls); a run on
// another thread of the resource is shown it.
func workingMemory(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		switch {
		case prompted(req, "- **First Name**: Ada"):
			return mock.Step{Text: "Hello again, Ada."}
		case prompted(req, "I am Ada") && req.Messages[len(req.Messages)-1].Role == model.RoleUser:
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "wm-1", Name: agent.WorkingMemoryToolName, Args: `{"memory":"# User Information\n- **First Name**: Ada\n"}`}}}
		}
		return mock.Step{Text: "Noted."}
	})
	r := newRunner(t, registry(t, agent.Config{ID: "keeper", Model: m, Memory: &agent.MemoryOptions{WorkingMemory: &agent.WorkingMemory{}}}))
	out := run(t, r, "keeper", Input{Prompt: "I am Ada.", ThreadID: "thread-1", ResourceID: "user-1"})
	wantResults(t, out, `wm-1={"success":true}`)
	wantText(t, run(t, r, "keeper", Input{Prompt: "Who am I?", ThreadID: "thread-2", ResourceID: "user-1"}), "Hello again, Ada.")
}

// semanticRecall: messages a run saves are embedded (where the engine
// saves), and a later run on another thread of the resource is shown
// the one most like its question, in Mastra's system message.
func semanticRecall(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		for _, msg := range req.Messages {
			if msg.Role == model.RoleSystem && strings.Contains(msg.TextContent(), "User: My cat is called Tom") {
				return mock.Step{Text: "Your cat is Tom."}
			}
		}
		return mock.Step{Text: "Noted."}
	})
	store, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	r := newRunner(t, registryOn(t, store, nil, agent.Config{ID: "keeper", Model: m, Memory: &agent.MemoryOptions{
		SemanticRecall: &agent.SemanticRecall{Embedder: mock.NewEmbedder(32), Vector: store, TopK: 1}}}))
	wantText(t, run(t, r, "keeper", Input{Prompt: "My cat is called Tom", ThreadID: "thread-1", ResourceID: "user-1"}), "Noted.")
	wantText(t, run(t, r, "keeper", Input{Prompt: "What is my cat called?", ThreadID: "thread-2", ResourceID: "user-1"}), "Your cat is Tom.")
}
