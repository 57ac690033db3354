package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

func bookingAgent(t *testing.T) *agent.Agent {
	t.Helper()
	book := tools.New(tools.Config[BookingInput, BookingOutput]{
		ID: "book-flight", Description: "Books a seat",
		ResumeSchema: schema.MustFor[SeatAnswer](),
		Execute: func(ctx tools.Context, in BookingInput) (BookingOutput, error) {
			if _, resumed, _ := tools.ResumeDataAs[SeatAnswer](ctx); !resumed {
				return BookingOutput{}, ctx.Suspend(SeatQuestion{Question: "Which seat?", Options: []string{"12A"}})
			}
			return BookingOutput{Flight: in.Flight, Seat: "12A"}, nil
		},
	})
	a, err := agent.New(agent.Config{ID: "travel", Model: mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "bookFlight", Args: `{"flight":"AF123"}`}}},
		mock.Step{Text: "Booked."},
	), Tools: tools.Set{"bookFlight": book}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// jsonRoundTrip is out as a client of the generate route reads it back.
func jsonRoundTrip(t *testing.T, out *agent.Output) *agent.Output {
	t.Helper()
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var back agent.Output
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

// normalJSON is w with its JSON fields decoded: an Output read back from
// JSON holds objects as maps, whose keys come back sorted.
func normalJSON(t *testing.T, w agent.WaitingCall) map[string]any {
	t.Helper()
	decode := func(b json.RawMessage) any {
		if b == nil {
			return nil
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	return map[string]any{"id": w.ToolCallID, "tool": w.ToolName, "args": decode(w.Args), "suspended": w.Suspended,
		"payload": decode(w.SuspendPayload), "schema": w.ResumeSchema}
}

func TestWaitingSuspension(t *testing.T) {
	out, err := bookingAgent(t).Generate(context.Background(), "Book AF123.")
	if err != nil {
		t.Fatal(err)
	}
	want := agent.WaitingCall{ToolCallID: "call-1", ToolName: "bookFlight", Args: json.RawMessage(`{"flight":"AF123"}`),
		Suspended: true, SuspendPayload: json.RawMessage(`{"question":"Which seat?","options":["12A"]}`), ResumeSchema: out.ResumeSchema}
	for name, o := range map[string]*agent.Output{"in memory": out, "decoded from JSON": jsonRoundTrip(t, out)} {
		got, ok := o.Waiting()
		if !ok {
			t.Fatalf("%s: not waiting", name)
		}
		if d := cmp.Diff(normalJSON(t, want), normalJSON(t, got)); d != "" {
			t.Errorf("%s: (-want +got)\n%s", name, d)
		}
		q, ok, err := agent.SuspendPayloadAs[SeatQuestion](o)
		if err != nil || !ok || q.Question != "Which seat?" || len(q.Options) != 1 {
			t.Errorf("%s: SuspendPayloadAs: %+v %v %v", name, q, ok, err)
		}
	}
	// In memory, the JSON is the tool's, byte for byte.
	if got, _ := out.Waiting(); string(got.SuspendPayload) != string(want.SuspendPayload) || string(got.Args) != string(want.Args) {
		t.Errorf("in memory: %s %s", got.Args, got.SuspendPayload)
	}
	if out.ResumeSchema == "" {
		t.Error("no resume schema")
	}
	if _, _, err := agent.SuspendPayloadAs[[]int](out); err == nil {
		t.Error("a payload that does not decode gave no error")
	}
}

func TestWaitingApproval(t *testing.T) {
	transfer := tools.New(tools.Config[TransferInput, TransferOutput]{ID: "transfer", RequireApproval: true,
		Execute: func(ctx tools.Context, in TransferInput) (TransferOutput, error) {
			return TransferOutput{Done: true}, nil
		}})
	a, err := agent.New(agent.Config{ID: "bank", Model: mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "transfer", Args: `{"to":"Bob","amount":20}`}}},
	), Tools: tools.Set{"transfer": transfer}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(context.Background(), "Send Bob 20.")
	if err != nil {
		t.Fatal(err)
	}
	want := agent.WaitingCall{ToolCallID: "call-1", ToolName: "transfer", Args: json.RawMessage(`{"to":"Bob","amount":20}`), ResumeSchema: stream.ApprovalResumeSchema}
	for name, o := range map[string]*agent.Output{"in memory": out, "decoded from JSON": jsonRoundTrip(t, out)} {
		got, ok := o.Waiting()
		if d := cmp.Diff(normalJSON(t, want), normalJSON(t, got)); !ok || d != "" {
			t.Errorf("%s: %v (-want +got)\n%s", name, ok, d)
		}
		if _, ok, err := agent.SuspendPayloadAs[SeatQuestion](o); ok || err != nil {
			t.Errorf("%s: an approval has no suspend payload: %v %v", name, ok, err)
		}
	}
}

func TestWaitingNothing(t *testing.T) {
	a, err := agent.New(agent.Config{ID: "plain", Model: mock.New(mock.Step{Text: "hi"})})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(context.Background(), "hello")
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := out.Waiting(); ok {
		t.Errorf("a finished run waits: %+v", w)
	}
	if _, ok, err := agent.SuspendPayloadAs[SeatQuestion](out); ok || err != nil {
		t.Errorf("SuspendPayloadAs: %v %v", ok, err)
	}
}
