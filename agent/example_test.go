package agent_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

type WeatherInput struct {
	Location string `json:"location" jsonschema:"City name, e.g. San Francisco"`
}

type WeatherOutput struct {
	Location           string  `json:"location"`
	TemperatureCelsius float64 `json:"temperatureCelsius"`
	Conditions         string  `json:"conditions"`
}

// The guide's weather agent, run with a scripted model.
func ExampleAgent_Stream() {
	weatherTool := tools.New(tools.Config[WeatherInput, WeatherOutput]{
		ID: "weather-tool", Description: "Fetches weather for a location",
		Execute: func(ctx tools.Context, in WeatherInput) (WeatherOutput, error) {
			return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
		},
	})
	weatherAgent, err := agent.New(agent.Config{
		ID: "weather-agent", Name: "Weather Agent",
		Instructions: "You are a helpful weather assistant. Use the weatherTool to fetch current weather data.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "weatherTool", Args: `{"location":"Paris"}`}}},
			mock.Step{Text: "It is 21°C and sunny in Paris."},
		),
		Tools: tools.Set{"weatherTool": weatherTool},
	})
	if err != nil {
		panic(err)
	}
	for chunk, err := range weatherAgent.Stream(context.Background(), "Weather in Paris?") {
		if err != nil {
			panic(err)
		}
		fmt.Println(chunk.Type)
	}
	// Output:
	// start
	// step-start
	// tool-call-input-streaming-start
	// tool-call-delta
	// tool-call-input-streaming-end
	// tool-call
	// tool-result
	// step-finish
	// step-start
	// text-start
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-end
	// step-finish
	// finish
}

// A structured answer after a tool call: the model answers in JSON that
// matches the Go type, which GenerateObject decodes.
func ExampleGenerateObject() {
	type Forecast struct {
		City       string  `json:"city"`
		TempC      float64 `json:"tempC"`
		Conditions string  `json:"conditions"`
	}
	weatherTool := tools.New(tools.Config[WeatherInput, WeatherOutput]{
		ID: "weather-tool", Description: "Fetches weather for a location",
		Execute: func(ctx tools.Context, in WeatherInput) (WeatherOutput, error) {
			return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
		},
	})
	weatherAgent, err := agent.New(agent.Config{
		ID: "weather-agent", Instructions: "You are a helpful weather assistant.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{Name: "weatherTool", Args: `{"location":"Paris"}`}}},
			mock.Step{Text: `{"city":"Paris","tempC":21,"conditions":"Sunny"}`},
		),
		Tools: tools.Set{"weatherTool": weatherTool},
	})
	if err != nil {
		panic(err)
	}
	forecast, out, err := agent.GenerateObject[Forecast](context.Background(), weatherAgent, "Weather in Paris?", agent.StructuredOutput{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v after %d steps\n", forecast, len(out.Steps))
	// Output:
	// {City:Paris TempC:21 Conditions:Sunny} after 2 steps
}

// A supervisor delegating to a writer: the writer is the tool
// "agent-writer", and the supervisor's model sees only its text.
func ExampleAgentTool() {
	writer, _ := agent.New(agent.Config{
		ID: "writer", Description: "Drafts and edits written content", Instructions: "You are a skilled writer.",
		Model: mock.New(mock.Step{Text: "Roses are red."}),
	})
	supervisor, _ := agent.New(agent.Config{
		ID: "supervisor", Instructions: "Coordinate the writer to produce content.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{Name: "agent-writer", Args: `{"prompt":"a two-word poem"}`}}},
			mock.Step{Text: "The writer says: Roses are red."},
		),
		Agents: map[string]*agent.Agent{"writer": writer},
	})
	out, err := supervisor.Generate(context.Background(), "Write me a poem.")
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Calls()[0].ToolName)
	fmt.Println(out.Text)
	// Output:
	// agent-writer
	// The writer says: Roses are red.
}

// Hooks wrap every tool call: BeforeToolCall sees the call before the
// tool runs and may skip it, giving the result itself; AfterToolCall sees
// the tool's output or error.
func ExampleAgent_Generate_hooks() {
	weatherTool := tools.New(tools.Config[WeatherInput, WeatherOutput]{
		ID: "weather-tool", Description: "Fetches weather for a location",
		Execute: func(ctx tools.Context, in WeatherInput) (WeatherOutput, error) {
			return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
		},
	})
	weatherAgent, err := agent.New(agent.Config{
		ID: "weather-agent", Instructions: "You are a helpful weather assistant.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{
				{ID: "call-1", Name: "weatherTool", Args: `{"location":"Paris"}`},
				{ID: "call-2", Name: "weatherTool", Args: `{"location":"Atlantis"}`},
			}},
			mock.Step{Text: "Sunny in Paris; Atlantis is not on the map."},
		),
		Tools: tools.Set{"weatherTool": weatherTool},
		// One call at a time, so that the hooks print in call order.
		ToolCallConcurrency: 1,
		Hooks: agent.Hooks{
			BeforeToolCall: func(ctx context.Context, call agent.HookCall) (*agent.Skip, error) {
				fmt.Println("before", call.ToolName, string(call.Input))
				if strings.Contains(string(call.Input), "Atlantis") {
					// The tool does not run; the model gets this output.
					return &agent.Skip{Output: map[string]string{"error": "unknown location"}}, nil
				}
				return nil, nil
			},
			AfterToolCall: func(ctx context.Context, call agent.HookCall, output any, err error) error {
				fmt.Printf("after %s %+v %v\n", call.ToolCallID, output, err)
				return nil
			},
		},
	})
	if err != nil {
		panic(err)
	}
	out, err := weatherAgent.Generate(context.Background(), "Weather in Paris and Atlantis?")
	if err != nil {
		panic(err)
	}
	for _, r := range out.Results() {
		fmt.Printf("%s: %s\n", r.ToolCallID, r.Result)
	}
	// Output:
	// before weatherTool {"location":"Paris"}
	// after call-1 {Location:Paris TemperatureCelsius:21 Conditions:Sunny} <nil>
	// before weatherTool {"location":"Atlantis"}
	// call-1: {"location":"Paris","temperatureCelsius":21,"conditions":"Sunny"}
	// call-2: {"error":"unknown location"}
}

// Hooks read the call's input and the tool's output as typed values
// (InputAs, OutputAs) and see the run's request context.
func ExampleInputAs() {
	weatherTool := tools.New(tools.Config[WeatherInput, WeatherOutput]{
		ID: "weather-tool", Description: "Fetches weather for a location",
		Execute: func(ctx tools.Context, in WeatherInput) (WeatherOutput, error) {
			return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
		},
	})
	weatherAgent, err := agent.New(agent.Config{
		ID: "weather-agent", Instructions: "You are a helpful weather assistant.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "weatherTool", Args: `{"location":"Paris"}`}}},
			mock.Step{Text: "Sunny in Paris."},
		),
		Tools: tools.Set{"weatherTool": weatherTool},
		Hooks: agent.Hooks{
			BeforeToolCall: func(ctx context.Context, call agent.HookCall) (*agent.Skip, error) {
				in, err := agent.InputAs[WeatherInput](call)
				if err != nil {
					return nil, err
				}
				tenant, _ := call.RequestContext.Get("tenant")
				fmt.Println("before:", tenant, "asks for", in.Location)
				return nil, nil
			},
			AfterToolCall: func(ctx context.Context, call agent.HookCall, output any, err error) error {
				if err != nil {
					return nil
				}
				out, err := agent.OutputAs[WeatherOutput](output)
				if err != nil {
					return err
				}
				fmt.Printf("after: %.0f°C, %s\n", out.TemperatureCelsius, out.Conditions)
				return nil
			},
		},
	})
	if err != nil {
		panic(err)
	}
	rc := tools.NewRequestContext(map[string]any{"tenant": "acme"})
	if _, err := weatherAgent.Generate(context.Background(), "Weather in Paris?", agent.WithRequestContext(rc)); err != nil {
		panic(err)
	}
	// Output:
	// before: acme asks for Paris
	// after: 21°C, Sunny
}

type TransferInput struct {
	To     string `json:"to"`
	Amount int    `json:"amount"`
}

type TransferOutput struct {
	Done bool `json:"done"`
}

// A tool with RequireApproval never runs on the model's word alone: the
// run suspends with a tool-call-approval chunk, and a person approves the
// exact call (ApproveToolCallGenerate) or declines it
// (DeclineToolCallGenerate, whose reason the model is told).
func ExampleAgent_ApproveToolCallGenerate() {
	transfer := tools.New(tools.Config[TransferInput, TransferOutput]{
		ID: "transfer", Description: "Sends money",
		RequireApproval: true,
		Execute: func(ctx tools.Context, in TransferInput) (TransferOutput, error) {
			fmt.Println("transferring", in.Amount, "to", in.To)
			return TransferOutput{Done: true}, nil
		},
	})
	bank, err := agent.New(agent.Config{
		ID: "bank-agent", Instructions: "You move money when asked.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "transfer", Args: `{"to":"Bob","amount":20}`}}},
			mock.Step{Text: "Sent 20 to Bob."},
		),
		Tools: tools.Set{"transfer": transfer},
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	out, err := bank.Generate(ctx, "Send Bob 20.")
	if err != nil {
		panic(err)
	}
	// The run waits for a decision on the call Waiting describes.
	req, _ := out.Waiting()
	fmt.Println(out.FinishReason, req.ToolCallID, req.ToolName, string(req.Args), req.Suspended)

	// Later, perhaps in another request: the person approves.
	out, err = bank.ApproveToolCallGenerate(ctx, out.RunID, req.ToolCallID)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.FinishReason, out.Text)
	// Output:
	// suspended call-1 transfer {"to":"Bob","amount":20} false
	// transferring 20 to Bob
	// stop Sent 20 to Bob.
}

type BookingInput struct {
	Flight string `json:"flight"`
}

type BookingOutput struct {
	Flight string `json:"flight"`
	Seat   string `json:"seat"`
}

type SeatQuestion struct {
	Question string   `json:"question"`
	Options  []string `json:"options"`
}

type SeatAnswer struct {
	Seat string `json:"seat"`
}

// A tool that needs more from a person suspends the run with ctx.Suspend;
// ResumeGenerate runs the tool again from the top with the person's
// answer as its resume data, and the run goes on. With Storage the
// suspended run is kept there (here an in-memory SQLite database), so it
// can be resumed after a restart or by another process sharing the
// database; without Storage it can be resumed in this process only.
func ExampleAgent_ResumeGenerate() {
	book := tools.New(tools.Config[BookingInput, BookingOutput]{
		ID: "book-flight", Description: "Books a seat on a flight",
		SuspendSchema: schema.MustFor[SeatQuestion](),
		ResumeSchema:  schema.MustFor[SeatAnswer](),
		Execute: func(ctx tools.Context, in BookingInput) (BookingOutput, error) {
			answer, resumed, err := tools.ResumeDataAs[SeatAnswer](ctx)
			if err != nil {
				return BookingOutput{}, err
			}
			if !resumed {
				return BookingOutput{}, ctx.Suspend(SeatQuestion{Question: "Which seat on " + in.Flight + "?", Options: []string{"12A", "12C"}})
			}
			return BookingOutput{Flight: in.Flight, Seat: answer.Seat}, nil
		},
	})
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		panic(err)
	}
	defer store.Close()
	travel, err := agent.New(agent.Config{
		ID: "travel-agent", Instructions: "You book flights.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{Name: "bookFlight", Args: `{"flight":"AF123"}`}}},
			mock.Step{Text: "Booked seat 12A on AF123."},
		),
		Tools:   tools.Set{"bookFlight": book},
		Storage: store,
	})
	if err != nil {
		panic(err)
	}
	out, err := travel.Generate(ctx, "Book me on AF123.")
	if err != nil {
		panic(err)
	}
	// The tool asked a SeatQuestion.
	question, _, err := agent.SuspendPayloadAs[SeatQuestion](out)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %q %v\n", out.FinishReason, question.Question, question.Options)

	out, err = travel.ResumeGenerate(ctx, out.RunID, SeatAnswer{Seat: "12A"})
	if err != nil {
		panic(err)
	}
	booking, err := agent.ToolResultAs[BookingOutput](out.Results()[0])
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v %s\n", booking, out.Text)
	// Output:
	// suspended "Which seat on AF123?" [12A 12C]
	// {Flight:AF123 Seat:12A} Booked seat 12A on AF123.
}

type LocationOutput struct {
	City string `json:"city"`
}

// A tool without Execute is a client tool: the caller (a browser, an app)
// runs it. A call to it ends the run with finish reason "tool-calls";
// the caller runs the calls ClientToolCalls lists, and ContinueMessages
// makes the next run's input from their results.
func ExampleWithClientTools() {
	// The caller offers a tool it runs itself: schemas and no Execute.
	getLocation := tools.New(tools.Config[struct{}, LocationOutput]{
		ID: "get-location", Description: "The user's city, from the browser",
	})
	assistant, err := agent.New(agent.Config{
		ID: "assistant", Instructions: "You help with local questions.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "getLocation", Args: `{}`}}},
			mock.Step{Text: "You are in Lyon."},
		),
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	clientTools := agent.WithClientTools(tools.Set{"getLocation": getLocation})
	out, err := assistant.Generate(ctx, "Where am I?", clientTools)
	if err != nil {
		panic(err)
	}
	var results []agent.ClientToolResult
	for _, call := range out.ClientToolCalls() {
		fmt.Println(out.FinishReason, call.ToolName)
		// The caller runs the tool.
		results = append(results, agent.ClientToolResult{ToolCallID: call.ToolCallID, Output: LocationOutput{City: "Lyon"}})
	}
	followUp, err := out.ContinueMessages(results...)
	if err != nil {
		panic(err)
	}
	out, err = assistant.Generate(ctx, followUp, clientTools)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.FinishReason, out.Text)
	// Output:
	// tool-calls getLocation
	// stop You are in Lyon.
}

type ResearchInput struct {
	Topic string `json:"topic"`
}

type ResearchOutput struct {
	Summary string `json:"summary"`
}

// Config.Workflows offers each workflow to the model as the tool
// "workflow-<key>": its input is {inputData, initialState?}, each call
// starts a run, and the model gets {runId, result}.
func ExampleConfig_workflows() {
	summarise := workflows.NewStep(workflows.StepConfig[ResearchInput, ResearchOutput]{ID: "summarise",
		Execute: func(ctx workflows.StepContext, in ResearchInput) (ResearchOutput, error) {
			return ResearchOutput{Summary: in.Topic + " is a programming language."}, nil
		}})
	research := workflows.New(workflows.Config{ID: "research", Description: "Researches a topic"}).Then(summarise)
	if err := research.Commit(); err != nil {
		panic(err)
	}
	researcher, err := agent.New(agent.Config{
		ID: "researcher", Instructions: "Use the research workflow.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{Name: "workflow-research", Args: `{"inputData":{"topic":"Go"}}`}}},
			mock.Step{Text: "Go is a programming language."},
		),
		Workflows: map[string]*workflows.Workflow{"research": research},
	})
	if err != nil {
		panic(err)
	}
	out, err := researcher.Generate(context.Background(), "What is Go?")
	if err != nil {
		panic(err)
	}
	// The tool's result is a workflows.ToolResult.
	r := out.Results()[0]
	res, err := agent.ToolResultAs[workflows.ToolResult](r)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s %s\n", r.ToolName, res.Result)
	fmt.Println(out.Text)
	// Output:
	// workflow-research {"summary":"Go is a programming language."}
	// Go is a programming language.
}
