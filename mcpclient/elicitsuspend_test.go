package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// suspendOnce runs "book" as call id of a run until it suspends, and
// returns the suspension and its decoded payload.
func suspendOnce(t *testing.T, book *tools.Tool, id string) (*tools.Suspension, ElicitationSuspension) {
	t.Helper()
	res, err := book.Execute(ctxT(t), nil, &tools.Invocation{RunID: "run-1", ToolCallID: id})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Suspended() {
		t.Fatalf("call did not suspend: %+v", res.Output)
	}
	var p ElicitationSuspension
	if err := json.Unmarshal(res.Suspension.Payload, &p); err != nil {
		t.Fatal(err)
	}
	return res.Suspension, p
}

// resume resumes call id with data.
func resume(t *testing.T, book *tools.Tool, id string, sus *tools.Suspension, data string) *tools.Result {
	t.Helper()
	res, err := book.Execute(ctxT(t), nil, &tools.Invocation{RunID: "run-1", ToolCallID: id,
		ResumeData: json.RawMessage(data), SuspendPayload: sus.Payload})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Without a handler, the call suspends with the server's question and the
// requested schema as the resume schema; resuming with the answer hands it
// to the waiting request (defaults added). Both protocol styles.
func TestElicitationSuspendsAndResumes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		versions []string
	}{{"classic", classicVersions}, {"multi-round-trip", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(elicitingServer(tc.versions))}})
			book := bookTool(t, c)
			sus, p := suspendOnce(t, book, "c1")
			if p.Type != ElicitationSuspensionType || p.Server != "s" || p.Tool != "book" || p.Message != "Which seat?" || p.RequestedSchema == nil {
				t.Errorf("payload %+v", p)
			}
			var rs map[string]any
			if err := json.Unmarshal([]byte(sus.Options.ResumeSchema), &rs); err != nil {
				t.Fatalf("resume schema %q: %v", sus.Options.ResumeSchema, err)
			}
			content := rs["properties"].(map[string]any)["content"].(map[string]any)
			if content["required"] == nil {
				t.Errorf("resume schema's content is not the requested schema: %v", rs)
			}
			res := resume(t, book, "c1", sus, `{"action":"accept","content":{"seat":"7C"}}`)
			if got, want := answerText(t, res), `{"action":"accept","content":{"meal":"veg","seat":"7C"}}`; got != want {
				t.Errorf("server got %s, want %s", got, want)
			}
		})
	}
}

// Decline and cancel go through; an answer that fails the schema suspends
// the call again with the problem, and a good answer then completes it.
func TestElicitationSuspendedAnswers(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(elicitingServer(classicVersions))}})
	book := bookTool(t, c)
	for _, action := range []string{"decline", "cancel"} {
		sus, _ := suspendOnce(t, book, "c-"+action)
		res := resume(t, book, "c-"+action, sus, `{"action":"`+action+`"}`)
		if got := answerText(t, res); got != `{"action":"`+action+`"}` {
			t.Errorf("%s: server got %s", action, got)
		}
	}

	sus, _ := suspendOnce(t, book, "c-bad")
	for _, bad := range []struct{ data, problem string }{
		{`{"action":"accept","content":{"seat":"7"}}`, "does not match the requested schema"},
		{`{"action":"accept","content":{"meal":"fish"}}`, "does not match the requested schema"},
		{`{"action":"sure"}`, "action must be"},
		{`{"seat":"7C"}`, "the answer must be"},
		{`{"action":"decline","content":{"seat":"7C"}}`, "must not carry content"},
	} {
		res := resume(t, book, "c-bad", sus, bad.data)
		if !res.Suspended() {
			t.Fatalf("%s: not suspended again: %+v", bad.data, res.Output)
		}
		var p ElicitationSuspension
		if err := json.Unmarshal(res.Suspension.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Error, bad.problem) || p.Message != "Which seat?" {
			t.Errorf("%s: payload %+v, want error containing %q", bad.data, p, bad.problem)
		}
		sus = res.Suspension
	}
	res := resume(t, book, "c-bad", sus, `{"action":"accept","content":{"seat":"7C","meal":"fish"}}`)
	if got := answerText(t, res); got != `{"action":"accept","content":{"meal":"fish","seat":"7C"}}` {
		t.Errorf("server got %s", got)
	}
}

// A resume for which no call waits (timed out, or another process) is a
// clear error; an unanswered call is cancelled after ElicitationTimeout.
func TestElicitationSuspendedCallGone(t *testing.T) {
	sc := inMemory(elicitingServer(classicVersions))
	sc.ElicitationTimeout = time.Millisecond
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	book := bookTool(t, c)
	sus, _ := suspendOnce(t, book, "c1")
	s, _ := c.server("s")
	var pc *pendingCall
	s.events.mu.Lock()
	for _, p := range s.events.calls {
		pc = p
	}
	s.events.mu.Unlock()
	if pc != nil {
		<-pc.done // the expiry cancelled the request
	}
	_, err := book.Execute(ctxT(t), nil, &tools.Invocation{RunID: "run-1", ToolCallID: "c1",
		ResumeData: json.RawMessage(`{"action":"cancel"}`), SuspendPayload: sus.Payload})
	if err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Errorf("resume of an expired call: %v", err)
	}
}

// An agent run suspends on the elicitation, reports the payload, and
// ResumeGenerate hands the person's answer to the server.
func TestAgentResumesElicitation(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(elicitingServer(classicVersions))}})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "s_book", Args: `{}`}}},
		mock.Step{Text: "Booked."},
	)
	a, err := agent.New(agent.Config{ID: "booker", Name: "Booker", Instructions: "Book.", Model: m, Tools: c.ListTools(ctxT(t))})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(ctxT(t), "Book me a seat")
	if err != nil {
		t.Fatal(err)
	}
	w, ok := out.Waiting()
	if !ok || !w.Suspended || w.ToolCallID != "call-1" {
		t.Fatalf("run not suspended on the call: %+v %v", w, out.FinishReason)
	}
	p, _, err := agent.SuspendPayloadAs[ElicitationSuspension](out)
	if err != nil || p.Message != "Which seat?" {
		t.Fatalf("payload %+v, %v", p, err)
	}
	out, err = a.ResumeGenerate(ctxT(t), out.RunID, ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"seat": "3F"}},
		agent.WithToolCallID("call-1"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Booked." {
		t.Errorf("text %q", out.Text)
	}
	found := false
	for _, tr := range out.ToolResults {
		b, _ := json.Marshal(tr)
		if strings.Contains(string(b), `\"seat\":\"3F\"`) && strings.Contains(string(b), `\"meal\":\"veg\"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("the tool result does not carry the answer: %+v", out.ToolResults)
	}
}

// A call that can suspend still times out and is cancelled as any call:
// the server's Timeout, the caller's context.
func TestSuspendableCallTimeoutAndCancel(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	started := make(chan struct{}, 2)
	mcp.AddTool(srv, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	sc := inMemory(srv)
	sc.Timeout = 50 * time.Millisecond
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	set, err := c.ServerTools(ctxT(t), "s")
	if err != nil {
		t.Fatal(err)
	}
	_, err = set["hang"].Execute(ctxT(t), nil, &tools.Invocation{RunID: "r", ToolCallID: "c1"})
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("timeout: %v", err)
	}
	<-started

	sc.Timeout = time.Minute
	c2 := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	set, err = c2.ServerTools(ctxT(t), "s")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(ctxT(t))
	go func() {
		<-started
		cancel()
	}()
	_, err = set["hang"].Execute(ctx, nil, &tools.Invocation{RunID: "r", ToolCallID: "c2"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
	s, _ := c2.server("s")
	if n := s.events.running(); n != 0 {
		t.Errorf("%d calls still registered", n)
	}
}

// Closing the client while a call is suspended ends the waiting request;
// a later resume fails with ErrClosed.
func TestElicitationSuspendedThenClosed(t *testing.T) {
	c, err := New(Config{Logger: quietLogger(), Servers: map[string]ServerConfig{"s": inMemory(elicitingServer(classicVersions))}})
	if err != nil {
		t.Fatal(err)
	}
	book := bookTool(t, c)
	sus, _ := suspendOnce(t, book, "c1")
	c.Close()
	_, err = book.Execute(ctxT(t), nil, &tools.Invocation{RunID: "run-1", ToolCallID: "c1",
		ResumeData: json.RawMessage(`{"action":"cancel"}`), SuspendPayload: sus.Payload})
	if !errors.Is(err, ErrClosed) {
		t.Errorf("resume after Close: %v", err)
	}
}

// With two calls of one server running, an in-flight elicitation cannot
// be tied to either: the server gets an error saying so, and no call
// suspends.
func TestElicitationAmbiguousCalls(t *testing.T) {
	srv := elicitingServer(classicVersions)
	release := make(chan struct{})
	running := make(chan struct{}, 1)
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		running <- struct{}{}
		<-release
		return textResult("released"), nil, nil
	})
	sc := inMemory(srv)
	sc.OnToolError = ToolErrorReturn
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	set, err := c.ServerTools(ctxT(t), "s")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := set["wait"].Execute(ctxT(t), nil, &tools.Invocation{RunID: "r", ToolCallID: "w"})
		done <- err
	}()
	<-running
	res, err := set["book"].Execute(ctxT(t), nil, &tools.Invocation{RunID: "r", ToolCallID: "b"})
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	if got := answerText(t, res); !strings.Contains(got, "2 tool calls run on this server") {
		t.Errorf("server got %q", got)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// The time a call spends suspended does not count against the server's
// Timeout: only the time the server works does.
func TestSuspendedTimeIsNotTimeout(t *testing.T) {
	sc := inMemory(elicitingServer(classicVersions))
	sc.Timeout = 300 * time.Millisecond
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	book := bookTool(t, c)
	sus, _ := suspendOnce(t, book, "c1")
	// Not a synchronisation: the person takes longer than Timeout to answer.
	time.Sleep(2 * sc.Timeout)
	res := resume(t, book, "c1", sus, `{"action":"decline"}`)
	if got := answerText(t, res); got != `{"action":"decline"}` {
		t.Errorf("server got %s", got)
	}
}
