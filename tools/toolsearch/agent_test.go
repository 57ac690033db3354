package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/toolsearch"
)

func newSearchAgent(t *testing.T, m model.LanguageModel, p *toolsearch.Processor) *agent.Agent {
	t.Helper()
	a, err := agent.New(agent.Config{
		ID: "a", Name: "a", Instructions: "You are helpful.", Model: m,
		Tools: tools.Set{"calc": calcTool(t)}, Processors: []agent.StepProcessor{p},
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func offeredNames(req *model.Request) []string {
	var out []string
	for _, td := range req.Tools {
		out = append(out, td.Name)
	}
	return out
}

func systemTexts(req *model.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == model.RoleSystem {
			out = append(out, m.TextContent())
		}
	}
	return out
}

// The captured Mastra runs, replayed through a real agent: every model
// call gets Mastra's system messages and tool definitions, in Mastra's
// order, and ends with the tool results Mastra's model saw, error texts
// included; the approval run suspends on the loaded tool.
func TestAgentMatchesMastraRuns(t *testing.T) {
	f := mastraFixtures(t)
	for _, run := range f.AgentRuns {
		t.Run(run.Name, func(t *testing.T) {
			opts := run.Options.options(catalogueSet(t, f, "small", run.Approval...))
			opts.InjectCatalog = run.InjectCatalog
			var steps []mock.Step
			for i, sc := range run.Script {
				if sc.Tool == "" {
					steps = append(steps, mock.Step{Text: sc.Text})
					continue
				}
				steps = append(steps, mock.Step{ToolCalls: []mock.ToolCall{{ID: fmt.Sprint("call-", i+1), Name: sc.Tool, Args: string(sc.Args)}}})
			}
			m := mock.New(steps...)
			a := newSearchAgent(t, m, newProcessor(t, opts))
			out, err := a.Generate(context.Background(), "go", agent.WithMaxSteps(10))
			if err != nil {
				t.Fatal(err)
			}
			if string(out.FinishReason) != run.FinishReason {
				t.Errorf("finish reason %s, Mastra %s", out.FinishReason, run.FinishReason)
			}
			calls := m.Calls()
			if len(calls) != len(run.Prompts) {
				t.Fatalf("%d model calls, Mastra made %d", len(calls), len(run.Prompts))
			}
			for i, want := range run.Prompts {
				req := calls[i]
				if diff := cmp.Diff(want.System, systemTexts(req)); diff != "" {
					t.Errorf("call %d system (-mastra +go):\n%s", i, diff)
				}
				var wantNames []string
				for _, td := range want.Tools {
					wantNames = append(wantNames, td.Name)
				}
				if diff := cmp.Diff(wantNames, offeredNames(req)); diff != "" {
					t.Fatalf("call %d tools (-mastra +go):\n%s", i, diff)
				}
				for j, td := range want.Tools {
					got := req.Tools[j]
					schema, err := compat.Marshal(got.InputSchema)
					if err != nil {
						t.Fatal(err)
					}
					if got.Description != td.Description {
						t.Errorf("call %d %s description %q", i, td.Name, got.Description)
					}
					sameValue(t, fmt.Sprintf("call %d %s schema", i, td.Name), td.InputSchema, schema)
				}
				last := req.Messages[len(req.Messages)-1]
				var results []model.ToolResultPart
				if last.Role == model.RoleTool {
					for _, p := range last.Content {
						results = append(results, *p.ToolResult)
					}
				}
				if len(results) != len(want.LastToolResults) {
					t.Fatalf("call %d ends with %d tool results, Mastra %d", i, len(results), len(want.LastToolResults))
				}
				for j, w := range want.LastToolResults {
					g := results[j]
					if g.ToolName != w.ToolName || g.Output.Type != w.Output.Type {
						t.Errorf("call %d result %d: %s %s, Mastra %s %s", i, j, g.ToolName, g.Output.Type, w.ToolName, w.Output.Type)
					}
					sameJSON(t, fmt.Sprintf("call %d result %s", i, w.ToolName), w.Output.Value, jsonOf(t, g.Output.Value))
				}
			}
			if run.ChunkTypes != nil {
				last := out.Chunks[len(out.Chunks)-1]
				if last.Type != stream.TypeToolCallApproval {
					t.Errorf("last chunk %s, Mastra's run ended with %s", last.Type, run.ChunkTypes[len(run.ChunkTypes)-1])
				}
			}
		})
	}
}

// recorder is a model that keeps the requests it is given.
type recorder struct {
	*mock.Model
	mu    sync.Mutex
	calls []*model.Request
}

func (r *recorder) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	r.mu.Lock()
	r.calls = append(r.calls, req)
	r.mu.Unlock()
	return r.Model.Stream(ctx, req)
}

func (r *recorder) Calls() []*model.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// reactive answers each model call from its prompt: a user message
// "load X" or "search X" makes it call load_tool or search_tools, "use X"
// makes it call X; once a tool result is in, it answers "done".
func reactive() *recorder {
	return &recorder{Model: mock.NewFunc(func(req *model.Request) mock.Step {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == model.RoleTool {
			return mock.Step{Text: "done"}
		}
		verb, arg, _ := strings.Cut(last.TextContent(), " ")
		var name, args string
		switch verb {
		case "load":
			name, args = "load_tool", fmt.Sprintf(`{"toolName":%q}`, arg)
		case "search":
			name, args = "search_tools", fmt.Sprintf(`{"query":%q}`, arg)
		case "use":
			name, args = arg, `{"value":"x"}`
		default:
			return mock.Step{Text: "?"}
		}
		return mock.Step{ToolCalls: []mock.ToolCall{{ID: "c-" + name, Name: name, Args: args}}}
	})}
}

// ask runs one prompt and returns the tools the first model call was
// offered (beyond search_tools, load_tool and calc) and the result of the
// call it made (its output value, or the error text).
func ask(t *testing.T, a *agent.Agent, m *recorder, prompt string, opts ...agent.Option) (offered []string, result string) {
	t.Helper()
	before := len(m.Calls())
	out, err := a.Generate(context.Background(), prompt, opts...)
	if err != nil {
		t.Fatal(err)
	}
	calls := m.Calls()[before:]
	for _, n := range offeredNames(calls[0]) {
		if n != "search_tools" && n != "load_tool" && n != "calc" {
			offered = append(offered, n)
		}
	}
	if len(calls) > 1 {
		msgs := calls[1].Messages
		last := msgs[len(msgs)-1]
		if last.Role != model.RoleTool || len(last.Content) != 1 {
			t.Fatalf("%q: the second model call does not end with a tool result: %+v", prompt, last)
		}
		result = string(jsonOf(t, last.Content[0].ToolResult.Output.Value))
	}
	if out.FinishReason != model.FinishStop {
		t.Fatalf("%q: finish %s", prompt, out.FinishReason)
	}
	return offered, result
}

func TestAgentThreadsAreIsolated(t *testing.T) {
	m := reactive()
	a := newSearchAgent(t, m, newProcessor(t, toolsearch.Options{Tools: catalogueSet(t, mastraFixtures(t), "small")}))
	ask(t, a, m, "load weather", agent.WithMemory("thread-a", "u"))
	ask(t, a, m, "load send_email", agent.WithMemory("thread-b", "u"))
	if got, res := ask(t, a, m, "use weather", agent.WithMemory("thread-a", "u")); !slices.Equal(got, []string{"weather"}) || !strings.Contains(res, `"ran":"weather"`) {
		t.Errorf("thread a: offered %v, result %s", got, res)
	}
	if got, res := ask(t, a, m, "use weather", agent.WithMemory("thread-b", "u")); !slices.Equal(got, []string{"send_email"}) || !strings.Contains(res, `not found`) {
		t.Errorf("thread b: offered %v, result %s", got, res)
	}
	if got, _ := ask(t, a, m, "hello"); len(got) != 0 {
		t.Errorf("no thread: offered %v", got)
	}
}

func TestAgentTTL(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := reactive()
	p := newProcessor(t, toolsearch.Options{Tools: catalogueSet(t, mastraFixtures(t), "small"), TTL: time.Hour, Now: func() time.Time { return now }})
	a := newSearchAgent(t, m, p)
	mem := agent.WithMemory("t", "u")
	ask(t, a, m, "load weather", mem)
	now = now.Add(50 * time.Minute)
	if got, _ := ask(t, a, m, "use weather", mem); !slices.Equal(got, []string{"weather"}) {
		t.Errorf("after 50m: %v", got)
	}
	now = now.Add(61 * time.Minute)
	if got, res := ask(t, a, m, "use weather", mem); len(got) != 0 || !strings.Contains(res, "not found") {
		t.Errorf("after 61m unused: offered %v, result %s", got, res)
	}
}

func TestAgentFilterPerRequest(t *testing.T) {
	m := reactive()
	p := newProcessor(t, toolsearch.Options{
		Tools: catalogueSet(t, mastraFixtures(t), "small"),
		Filter: func(a toolsearch.FilterArgs) error {
			if role, _ := a.RequestContext.Get("role"); role == "guest" && a.ToolName == "send_email" {
				return fmt.Errorf("guests cannot email")
			}
			return nil
		},
	})
	a := newSearchAgent(t, m, p)
	guest := agent.WithRequestContext(tools.NewRequestContext(map[string]any{"role": "guest"}))
	if _, res := ask(t, a, m, "load send_email", guest, agent.WithMemory("g", "u")); !strings.Contains(res, `"success":false`) {
		t.Errorf("guest load: %s", res)
	}
	if _, res := ask(t, a, m, "search email", guest, agent.WithMemory("g", "u")); !strings.Contains(res, `"results":[]`) {
		t.Errorf("guest search: %s", res)
	}
	ask(t, a, m, "load send_email", agent.WithMemory("staff", "u"))
	if got, _ := ask(t, a, m, "hello", agent.WithMemory("staff", "u")); !slices.Equal(got, []string{"send_email"}) {
		t.Errorf("staff: %v", got)
	}
	// Loaded by staff, hidden from a guest on the same thread.
	if got, _ := ask(t, a, m, "hello", guest, agent.WithMemory("staff", "u")); len(got) != 0 {
		t.Errorf("guest on staff's thread: %v", got)
	}
}

func TestAgentAutoLoad(t *testing.T) {
	m := reactive()
	p := newProcessor(t, toolsearch.Options{Tools: catalogueSet(t, mastraFixtures(t), "small"), Search: toolsearch.SearchOptions{AutoLoad: true, TopK: 1}})
	a := newSearchAgent(t, m, p)
	mem := agent.WithMemory("t", "u")
	out, err := a.Generate(context.Background(), "search calendar", mem)
	if err != nil {
		t.Fatal(err)
	}
	if got := offeredNames(m.Calls()[0]); !slices.Equal(got, []string{"search_tools", "calc"}) {
		t.Errorf("autoLoad offers %v", got)
	}
	if got := offeredNames(m.Calls()[1]); !slices.Equal(got, []string{"search_tools", "calc", "calendar_create_event"}) {
		t.Errorf("after the search: %v (%s)", got, out.Text)
	}
}

// With StorageContext the conversation is the record: a later run given
// the earlier messages has the tool; one without them does not.
func TestAgentContextStorage(t *testing.T) {
	m := reactive()
	p := newProcessor(t, toolsearch.Options{Tools: catalogueSet(t, mastraFixtures(t), "small"), Storage: toolsearch.StorageContext})
	a := newSearchAgent(t, m, p)
	out, err := a.Generate(context.Background(), "load weather")
	if err != nil {
		t.Fatal(err)
	}
	history := append([]model.Message{model.UserText("load weather")}, out.Response.Messages...)
	input := append(history, model.UserText("use weather"))
	if got, res := ask(t, a, m, "", agent.WithContextMessages(input...)); !slices.Equal(got, []string{"weather"}) {
		t.Errorf("with the history: offered %v (%s)", got, res)
	}
	if got, _ := ask(t, a, m, "use weather"); len(got) != 0 {
		t.Errorf("without it: %v", got)
	}
}

// A loaded tool that requires approval still does: the run suspends, and
// when approved (a resumed run, which never saw the load) the tool runs.
func TestAgentApprovalKeptOnLoadedTool(t *testing.T) {
	var sent atomic.Int32
	email := tools.New(tools.Config[catalogueInput, catalogueOutput]{
		ID: "send_email", Description: "Send an email", RequireApproval: true,
		Execute: func(_ tools.Context, in catalogueInput) (catalogueOutput, error) {
			sent.Add(1)
			return catalogueOutput{Ran: "send_email", Input: in}, nil
		},
	})
	for _, approve := range []bool{true, false} {
		m := mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "load_tool", Args: `{"toolName":"send_email"}`}}},
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "c2", Name: "send_email", Args: `{"value":"hi"}`}}},
			mock.Step{Text: "sent"},
		)
		a := newSearchAgent(t, m, newProcessor(t, toolsearch.Options{Tools: tools.Set{"email": email}}))
		out, err := a.Generate(context.Background(), "email", agent.WithMemory("t", "u"))
		if err != nil {
			t.Fatal(err)
		}
		last := out.Chunks[len(out.Chunks)-1]
		if out.FinishReason != model.FinishSuspended || last.Type != stream.TypeToolCallApproval || sent.Load() != 0 {
			t.Fatalf("not suspended for approval: %s %s, sent %d", out.FinishReason, last.Type, sent.Load())
		}
		var res *agent.Output
		if approve {
			res, err = a.ApproveToolCallGenerate(context.Background(), out.RunID, "c2", agent.WithMemory("t", "u"))
		} else {
			res, err = a.DeclineToolCallGenerate(context.Background(), out.RunID, "c2", "no", agent.WithMemory("t", "u"))
		}
		if err != nil {
			t.Fatal(err)
		}
		if res.FinishReason != model.FinishStop || res.Text != "sent" {
			t.Errorf("resumed run: %s %q", res.FinishReason, res.Text)
		}
		want := int32(0)
		if approve {
			want = 1
		}
		if sent.Load() != want {
			t.Errorf("approve=%v: sent %d times", approve, sent.Load())
		}
		sent.Store(0)
		var calls []string
		for _, c := range res.ToolResults {
			b, _ := json.Marshal(c.Payload)
			calls = append(calls, string(b))
		}
		// The resumed run lists every step's results: load_tool's, then
		// send_email's.
		if approve && (len(calls) != 2 || !strings.Contains(calls[1], `"ran":"send_email"`)) {
			t.Errorf("results %v", calls)
		}
	}
}
