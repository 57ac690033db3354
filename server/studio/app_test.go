package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
	"github.com/gomastra/mastra/workflows"
	"github.com/google/jsonschema-go/jsonschema"
)

// The test app: a registry with a trip-planning tool (a schema with every
// kind of field the form generates), a weather tool that needs a person's
// approval, the builtin ask_user tool, a workflow, and an agent on a
// stateless model that decides from the prompt what to do.

type tripIn struct {
	City      string         `json:"city"`
	Days      int            `json:"days"`
	Budget    float64        `json:"budget,omitempty"`
	Unit      string         `json:"unit,omitempty"`
	WithHotel bool           `json:"withHotel,omitempty"`
	Traveller *travellerIn   `json:"traveller,omitempty"`
	Tags      []string       `json:"tags,omitempty"`
	Extra     map[string]any `json:"extra,omitempty"`
}

type travellerIn struct {
	Name string `json:"name"`
	Age  int    `json:"age,omitempty"`
}

type tripOut struct {
	Summary string `json:"summary"`
}

// tripSchema is the trip tool's input schema: strings, a bounded
// integer, a number, an enum, a boolean, a nested object and two fields
// the form leaves to raw JSON (an array and a free-form object).
const tripSchema = `{
  "type": "object",
  "properties": {
    "city": {"type": "string", "description": "Where to go", "minLength": 1},
    "days": {"type": "integer", "minimum": 1, "maximum": 14, "description": "Length of the stay"},
    "budget": {"type": "number", "description": "In euros"},
    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    "withHotel": {"type": "boolean"},
    "traveller": {"type": "object", "properties": {
      "name": {"type": "string"},
      "age": {"type": "integer"}
    }, "required": ["name"]},
    "tags": {"type": "array", "items": {"type": "string"}},
    "extra": {"anyOf": [{"type": "object"}, {"type": "null"}]}
  },
  "required": ["city", "days"],
  "additionalProperties": false
}`

func tripTool(t testing.TB) *tools.Tool {
	t.Helper()
	in, err := schema.FromJSON([]byte(tripSchema))
	if err != nil {
		t.Fatal(err)
	}
	return tools.New(tools.Config[tripIn, tripOut]{
		ID: "plan-trip", Description: "Plans a trip", InputSchema: in,
		Execute: func(_ tools.Context, in tripIn) (tripOut, error) {
			s := fmt.Sprintf("%d days in %s", in.Days, in.City)
			if in.Budget > 0 {
				s += fmt.Sprintf(" for %g EUR", in.Budget)
			}
			if in.Unit != "" {
				s += " in " + in.Unit
			}
			if in.WithHotel {
				s += " with a hotel"
			}
			if in.Traveller != nil {
				s += fmt.Sprintf(" for %s (%d)", in.Traveller.Name, in.Traveller.Age)
			}
			if len(in.Tags) > 0 {
				s += " tagged " + strings.Join(in.Tags, ",")
			}
			return tripOut{Summary: s}, nil
		},
	})
}

type weatherIn struct {
	City string `json:"city" jsonschema:"city name"`
}

type weatherOut struct {
	City       string  `json:"city"`
	Celsius    float64 `json:"celsius"`
	Conditions string  `json:"conditions"`
}

// weatherTool needs a person's approval for every call.
func weatherTool() *tools.Tool {
	return tools.New(tools.Config[weatherIn, weatherOut]{
		ID: "get-weather", Description: "Current weather for a city", RequireApproval: true,
		Execute: func(_ tools.Context, in weatherIn) (weatherOut, error) {
			return weatherOut{City: in.City, Celsius: 21, Conditions: "sunny"}, nil
		},
	})
}

type bookIn struct {
	Seats int `json:"seats"`
}

type bookOut struct {
	Booked bool   `json:"booked"`
	Note   string `json:"note,omitempty"`
}

type bookResume struct {
	Confirm bool   `json:"confirm"`
	Note    string `json:"note,omitempty"`
}

// bookTool holds seats and suspends until someone confirms: resumed with
// confirm false it asks again (a second suspension of the same call),
// with confirm true it books.
func bookTool(t testing.TB) *tools.Tool {
	t.Helper()
	resume, err := schema.For[bookResume]()
	if err != nil {
		t.Fatal(err)
	}
	return tools.New(tools.Config[bookIn, bookOut]{
		ID: "book-seats", Description: "Holds seats until confirmed",
		SuspendSchema: schema.MustCompile(&jsonschema.Schema{Type: "object"}), ResumeSchema: resume,
		Execute: func(ctx tools.Context, in bookIn) (bookOut, error) {
			var r bookResume
			if raw := ctx.ResumeData(); raw != nil {
				if err := json.Unmarshal(raw, &r); err != nil {
					return bookOut{}, err
				}
				if r.Confirm {
					return bookOut{Booked: true, Note: r.Note}, nil
				}
				return bookOut{}, ctx.Suspend(map[string]any{"held": in.Seats, "asked": 2})
			}
			return bookOut{}, ctx.Suspend(map[string]any{"held": in.Seats})
		},
	})
}

// explodeTool always fails: its error reaches the model as a tool error.
func explodeTool() *tools.Tool {
	return tools.New(tools.Config[struct{}, struct{}]{
		ID: "explode", Description: "Fails",
		Execute: func(tools.Context, struct{}) (struct{}, error) {
			return struct{}{}, errors.New("the fuse blew")
		},
	})
}

type greetIn struct {
	Name string `json:"name"`
}

type greetOut struct {
	Greeting string `json:"greeting"`
}

func greetWorkflow(t testing.TB) *workflows.Workflow {
	t.Helper()
	step := workflows.NewStep(workflows.StepConfig[greetIn, greetOut]{
		ID: "greet", Description: "Greets someone",
		Execute: func(_ workflows.StepContext, in greetIn) (greetOut, error) {
			return greetOut{Greeting: "Hello, " + in.Name + "!"}, nil
		},
	})
	wf := workflows.New(workflows.Config{ID: "greeting", Description: "Says hello"}).Then(step)
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	return wf
}

// lastUserText is the text of the prompt's last user message
// (lower-cased), its index, and how many user messages the prompt holds.
func lastUserText(req *model.Request) (text string, index, users int) {
	index = -1
	for i, m := range req.Messages {
		if m.Role == model.RoleUser {
			index, users = i, users+1
		}
	}
	if index >= 0 {
		text = strings.ToLower(req.Messages[index].TextContent())
	}
	return text, index, users
}

// turnResult is the last tool result after the prompt's last user message.
func turnResult(req *model.Request, last int) *model.ToolResultPart {
	var result *model.ToolResultPart
	if last < 0 {
		return nil
	}
	for _, m := range req.Messages[last+1:] {
		for _, p := range m.Content {
			if p.Type == model.MessageToolResult {
				result = p.ToolResult
			}
		}
	}
	return result
}

// assistantModel decides from the prompt alone (so one model serves
// every run): once the turn's tool has answered it describes the result;
// otherwise "weather" calls the weather tool, "colour" asks the user,
// "how many" counts the user's messages in the thread, and anything else
// is echoed. Tool calls are numbered in the order they are made
// ("call-1", "call-2", ...), as a provider's ids are unique.
func assistantModel() *mock.Model {
	var calls atomic.Int64
	return mock.NewFunc(func(req *model.Request) mock.Step {
		prompt, last, users := lastUserText(req)
		id := fmt.Sprintf("call-%d", calls.Load()+1)
		if turnResult(req, last) == nil && (strings.Contains(prompt, "weather") || strings.Contains(prompt, "colour") ||
			strings.Contains(prompt, "book") || strings.Contains(prompt, "explode")) {
			id = fmt.Sprintf("call-%d", calls.Add(1))
		}
		switch {
		case turnResult(req, last) != nil:
			return mock.Step{Text: describeResult(turnResult(req, last))}
		case strings.Contains(prompt, "patiently"):
			return mock.Step{Text: patientAnswer}
		case strings.Contains(prompt, "slowly"):
			return mock.Step{Text: "Checking the weather slowly.", ToolCalls: []mock.ToolCall{{ID: id, Name: "weather", Args: `{"city":"Paris"}`, ChunkSize: 11}}}
		case strings.Contains(prompt, "weather"):
			return mock.Step{Text: "Let me check. ", ToolCalls: []mock.ToolCall{{ID: id, Name: "weather", Args: `{"city":"Paris"}`, ChunkSize: 4}}}
		case strings.Contains(prompt, "colour"):
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: id, Name: "askUser", ChunkSize: 12,
				Args: `{"question":"Which colour do you like?","options":[{"label":"Red","description":"warm"},{"label":"Blue"}]}`}}}
		case strings.Contains(prompt, "book"):
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: id, Name: "book", Args: `{"seats":2}`}}}
		case strings.Contains(prompt, "explode"):
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: id, Name: "explode", Args: `{}`}}}
		case strings.Contains(prompt, "how many"):
			return mock.Step{Text: fmt.Sprintf("You have sent %d messages in this thread.", users)}
		}
		return mock.Step{Text: "You said: " + prompt}
	})
}

// patientAnswer is the answer to a "patiently" prompt, which the gated
// model stops in after its first word.
const patientAnswer = "One, two, three, four, five: counted patiently."

// gatedModel is the assistant model with a hand brake: on a "slowly" or
// "patiently" prompt it waits for the test (a value on gate) after the first text
// delta and after the first tool-input delta, so the test sees the page
// in the middle of a stream, with a partial text and partial arguments.
type gatedModel struct {
	*mock.Model
	gate chan struct{}
}

func (g *gatedModel) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	inner := g.Model.Stream(ctx, req)
	prompt, last, _ := lastUserText(req)
	if !(strings.Contains(prompt, "slowly") || strings.Contains(prompt, "patiently")) || turnResult(req, last) != nil {
		return inner
	}
	return func(yield func(model.StreamPart, error) bool) {
		waited := map[model.PartType]bool{}
		for part, err := range inner {
			if !yield(part, err) {
				return
			}
			if (part.Type == model.PartTextDelta || part.Type == model.PartToolInputDelta) && !waited[part.Type] {
				waited[part.Type] = true
				select {
				case <-g.gate:
				case <-ctx.Done():
					yield(model.StreamPart{}, ctx.Err())
					return
				}
			}
		}
	}
}

// describeResult is the model's answer once a tool has answered.
func describeResult(r *model.ToolResultPart) string {
	switch {
	case r.Output.Type == "execution-denied",
		// A declined call reaches the model as Mastra tells it: the
		// decline's reason as the call's text result (the weather tool's
		// own results are JSON).
		r.Output.Type == "text" && r.ToolName == "weather":
		return "The " + r.ToolName + " call was declined."
	case r.Output.Type == "error-text", r.Output.Type == "error-json":
		return "The " + r.ToolName + " call failed."
	}
	b, _ := json.Marshal(r.Output.Value)
	var v struct {
		City       string  `json:"city"`
		Celsius    float64 `json:"celsius"`
		Conditions string  `json:"conditions"`
		Content    string  `json:"content"`
	}
	_ = json.Unmarshal(b, &v)
	switch r.ToolName {
	case "weather":
		return fmt.Sprintf("It is %g°C and %s in %s.", v.Celsius, v.Conditions, v.City)
	case "askUser":
		return "Noted: " + strings.TrimPrefix(v.Content, "User answered: ") + "."
	case "book":
		return "Booked: " + string(b) + "."
	}
	return "The tool answered " + string(b) + "."
}

type testApp struct {
	srv *server.Server
	ts  *httptest.Server
	// gate lets a "slowly" stream go on (see gatedModel).
	gate chan struct{}
}

// newTestApp serves the app with the studio on 127.0.0.1.
func newTestApp(t testing.TB, opts server.Options) *testApp {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	gate := make(chan struct{})
	a, err := agent.New(agent.Config{
		ID: "assistant", Name: "Assistant", Description: "Checks the weather and asks questions (mock model).",
		Instructions: "Help the user.", Model: &gatedModel{Model: assistantModel(), gate: gate},
		Tools:   tools.Set{"weather": weatherTool(), "askUser": builtin.AskUserTool, "book": bookTool(t), "explode": explodeTool()},
		Storage: st, Memory: &agent.MemoryOptions{LastMessages: 1000}, Logger: quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{
		Tools:     map[string]*tools.Tool{"plan-trip": tripTool(t), "get-weather": weatherTool()},
		Agents:    map[string]*agent.Agent{"assistant": a},
		Workflows: map[string]*workflows.Workflow{"greeting": greetWorkflow(t)},
		Logger:    quiet,
	})
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	srv := server.New(m, opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		_ = st.Close()
	})
	return &testApp{srv: srv, ts: ts, gate: gate}
}
