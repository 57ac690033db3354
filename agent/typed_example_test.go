package agent_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// seatAgent books a flight; its tool suspends to ask for a seat.
func seatAgent() *agent.Agent {
	book := tools.New(tools.Config[BookingInput, BookingOutput]{
		ID: "book-flight", ResumeSchema: schema.MustFor[SeatAnswer](),
		Execute: func(ctx tools.Context, in BookingInput) (BookingOutput, error) {
			answer, resumed, err := tools.ResumeDataAs[SeatAnswer](ctx)
			if err != nil || !resumed {
				return BookingOutput{}, ctx.Suspend(SeatQuestion{Question: "Which seat?", Options: []string{"12A", "12C"}})
			}
			return BookingOutput{Flight: in.Flight, Seat: answer.Seat}, nil
		},
	})
	a, err := agent.New(agent.Config{ID: "travel-agent", Model: mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "bookFlight", Args: `{"flight":"AF123"}`}}},
		mock.Step{Text: "Booked."},
	), Tools: tools.Set{"bookFlight": book}})
	if err != nil {
		panic(err)
	}
	return a
}

// Waiting tells what a suspended run waits for: which call, and whether
// a person must approve it or the tool asked for data.
func ExampleOutput_Waiting() {
	out, err := seatAgent().Generate(context.Background(), "Book me on AF123.")
	if err != nil {
		panic(err)
	}
	if w, ok := out.Waiting(); ok {
		kind := "approval"
		if w.Suspended {
			kind = "suspension"
		}
		fmt.Println(kind, w.ToolCallID, w.ToolName, string(w.Args), string(w.SuspendPayload))
	}
	// Output:
	// suspension call-1 bookFlight {"flight":"AF123"} {"question":"Which seat?","options":["12A","12C"]}
}

// SuspendPayloadAs decodes what the waiting tool suspended with.
func ExampleSuspendPayloadAs() {
	out, err := seatAgent().Generate(context.Background(), "Book me on AF123.")
	if err != nil {
		panic(err)
	}
	question, ok, err := agent.SuspendPayloadAs[SeatQuestion](out)
	if err != nil {
		panic(err)
	}
	fmt.Println(ok, question.Question, question.Options)
	// Output:
	// true Which seat? [12A 12C]
}

// Calls and Results list a run's tool calls and results with their
// fields typed; ToolResultAs decodes a result into the tool's output
// type.
func ExampleOutput_Results() {
	a := seatAgent()
	ctx := context.Background()
	out, err := a.Generate(ctx, "Book me on AF123.")
	if err != nil {
		panic(err)
	}
	out, err = a.ResumeGenerate(ctx, out.RunID, SeatAnswer{Seat: "12C"})
	if err != nil {
		panic(err)
	}
	for _, c := range out.Calls() {
		fmt.Println("call", c.ToolCallID, c.ToolName, string(c.Args))
	}
	for _, r := range out.Results() {
		booking, err := agent.ToolResultAs[BookingOutput](r)
		fmt.Printf("result %s %+v %v\n", r.ToolCallID, booking, err)
	}
	// Output:
	// call call-1 bookFlight {"flight":"AF123"}
	// result call-1 {Flight:AF123 Seat:12C} <nil>
}

// TextStream yields only the text of a streamed run, as it comes.
func ExampleTextStream() {
	a, err := agent.New(agent.Config{ID: "poet", Model: mock.New(mock.Step{TextChunks: []string{"Roses ", "are ", "red."}})})
	if err != nil {
		panic(err)
	}
	for text, err := range agent.TextStream(a.Stream(context.Background(), "A poem, please.")) {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%q\n", text)
	}
	// Output:
	// "Roses "
	// "are "
	// "red."
}

// A run that ended on a client tool's call goes on from ContinueMessages:
// the conversation so far and the caller's results.
func ExampleOutput_ContinueMessages() {
	getLocation := tools.New(tools.Config[struct{}, LocationOutput]{ID: "get-location", Description: "The user's city"})
	assistant, err := agent.New(agent.Config{ID: "assistant", Model: mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "getLocation", Args: `{}`}}},
		mock.Step{Text: "You are in Lyon."},
	)})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	clientTools := agent.WithClientTools(tools.Set{"getLocation": getLocation})
	out, err := assistant.Generate(ctx, "Where am I?", clientTools)
	if err != nil {
		panic(err)
	}
	calls := out.ClientToolCalls()
	fmt.Println(out.FinishReason, calls[0].ToolName)
	next, err := out.ContinueMessages(agent.ClientToolResult{ToolCallID: calls[0].ToolCallID, Output: LocationOutput{City: "Lyon"}})
	if err != nil {
		panic(err)
	}
	for _, m := range next {
		fmt.Println(m.Role, len(m.Content))
	}
	out, err = assistant.Generate(ctx, next, clientTools)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Text)
	// Output:
	// tool-calls getLocation
	// user 1
	// assistant 1
	// tool 1
	// You are in Lyon.
}
