package aisdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/stream"
)

// greeter is an agent whose scripted model answers "Hello there!".
func greeter() *agent.Agent {
	a, err := agent.New(agent.Config{ID: "greeter", Instructions: "Greet people.",
		Model: mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: "Hello there!"} })})
	if err != nil {
		panic(err)
	}
	return a
}

// A useChat front end posts its messages to /chat/<agent id> and reads the
// answer as a UI message stream.
func ExampleChatRoute() {
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"greeter": greeter()}})
	srv := server.New(m, server.Options{Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{})}})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Shutdown(context.Background())

	body := `{"id":"chat-1","trigger":"submit-message","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"Hi!"}]}]}`
	resp, err := http.Post(ts.URL+"/chat/greeter", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Header.Get("X-Vercel-Ai-Ui-Message-Stream"))
	for _, frame := range strings.Split(strings.TrimSpace(string(b)), "\n\n") {
		if !strings.Contains(frame, `"start"`) { // its messageId is generated
			fmt.Println(frame)
		}
	}
	// Output:
	// v1
	// data: {"type":"start-step"}
	// data: {"type":"text-start","id":"t1"}
	// data: {"type":"text-delta","id":"t1","delta":"Hello "}
	// data: {"type":"text-delta","id":"t1","delta":"there!"}
	// data: {"type":"text-end","id":"t1"}
	// data: {"type":"finish-step"}
	// data: {"type":"finish","finishReason":"stop"}
	// data: [DONE]
}

// NewChatRoute reports a route that cannot name its agent when it is
// built; a fixed agent needs no {agentId}.
func ExampleNewChatRoute() {
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"greeter": greeter()}})
	_, err := aisdk.NewChatRoute(m, aisdk.ChatRouteOptions{Path: "/chat"})
	fmt.Println(err)
	rt, err := aisdk.NewChatRoute(m, aisdk.ChatRouteOptions{Path: "/support-chat", Agent: "greeter"})
	fmt.Println(rt.Method, rt.Path, err)
	// Output:
	// aisdk: the chat route's path must include {agentId} (or :agentId), or the agent must be given
	// POST /support-chat <nil>
}

// StreamChat is the chat route without HTTP (Mastra's handleChatStream):
// a request in, UI message stream parts out.
func ExampleStreamChat() {
	req, err := aisdk.ParseChatRequest([]byte(`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"Hi!"}]}]}`))
	if err != nil {
		panic(err)
	}
	for p, err := range aisdk.StreamChat(context.Background(), greeter(), req, aisdk.ChatOptions{}) {
		if err != nil {
			panic(err)
		}
		if p.Type == aisdk.PartTextDelta {
			fmt.Printf("%q\n", p.Delta)
		}
	}
	// Output:
	// "Hello "
	// "there!"
}

// ToUIStream converts an agent's chunks (Mastra's toAISdkStream).
func ExampleToUIStream() {
	chunks := greeter().Stream(context.Background(), "Hi!")
	for p, err := range aisdk.ToUIStream(chunks, aisdk.StreamOptions{OmitStart: true}) {
		if err != nil {
			panic(err)
		}
		b, _ := json.Marshal(p)
		fmt.Println(string(b))
	}
	// Output:
	// {"type":"start-step"}
	// {"type":"text-start","id":"t1"}
	// {"type":"text-delta","id":"t1","delta":"Hello "}
	// {"type":"text-delta","id":"t1","delta":"there!"}
	// {"type":"text-end","id":"t1"}
	// {"type":"finish-step"}
	// {"type":"finish","finishReason":"stop"}
}

// A Converter converts chunk by chunk, for streams of your own.
func ExampleConverter() {
	c := aisdk.NewConverter(aisdk.StreamOptions{Version: aisdk.V6})
	approval := stream.Chunk{Type: stream.TypeToolCallApproval, RunID: "run-1", From: stream.FromAgent,
		Payload: stream.ToolCallApprovalPayload{ToolCallID: "call-1", ToolName: "deleteFile", Args: json.RawMessage(`{"path":"/tmp/a"}`)}}
	for _, p := range c.Convert(approval) {
		b, _ := json.Marshal(p)
		fmt.Println(string(b))
	}
	// Output:
	// {"type":"tool-approval-request","approvalId":"run-1::call-1","toolCallId":"call-1"}
	// {"type":"data-tool-call-approval","data":{"state":"data-tool-call-approval","runId":"run-1","toolCallId":"call-1","toolName":"deleteFile","args":{"path":"/tmp/a"}},"id":"call-1"}
}

// ToModelMessages turns a chat's history into an agent's input: each step
// of an assistant message becomes an assistant message and the results of
// its tool calls.
func ExampleToModelMessages() {
	var msgs []aisdk.UIMessage
	_ = json.Unmarshal([]byte(`[
	  {"id":"m1","role":"user","parts":[{"type":"text","text":"Weather in Paris?"}]},
	  {"id":"m2","role":"assistant","parts":[
	    {"type":"step-start"},
	    {"type":"tool-weatherTool","toolCallId":"c1","state":"output-available","input":{"location":"Paris"},"output":{"conditions":"Sunny"}},
	    {"type":"step-start"},
	    {"type":"text","text":"Sunny."}]}]`), &msgs)
	out, err := aisdk.ToModelMessages(msgs)
	if err != nil {
		panic(err)
	}
	for _, m := range out {
		b, _ := json.Marshal(m)
		fmt.Println(string(b))
	}
	// Output:
	// {"role":"user","content":[{"type":"text","text":"Weather in Paris?"}]}
	// {"role":"assistant","content":[{"type":"tool-call","toolCallId":"c1","toolName":"weatherTool","input":{"location":"Paris"}}]}
	// {"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"weatherTool","output":{"type":"json","value":{"conditions":"Sunny"}},"input":{"location":"Paris"}}]}
	// {"role":"assistant","content":[{"type":"text","text":"Sunny."}]}
}

// ParseChatRequest names every field that is wrong.
func ExampleParseChatRequest() {
	_, err := aisdk.ParseChatRequest([]byte(`{"messages":"Hi","maxSteps":0}`))
	var re *aisdk.RequestError
	if errors.As(err, &re) {
		fmt.Println(re.Status, re.Message)
		for _, is := range re.Issues {
			fmt.Println(is.Field+":", is.Message)
		}
	}
	// Output:
	// 400 Invalid request body
	// messages: Invalid input: expected array, received string
	// maxSteps: Invalid input: expected a positive integer
}

// NativeApprovals reads the answers an AI SDK v6 client gives on tool
// parts.
func ExampleNativeApprovals() {
	var msgs []aisdk.UIMessage
	_ = json.Unmarshal([]byte(`[{"id":"a1","role":"assistant","parts":[{"type":"tool-deleteFile","toolCallId":"call-1",
	  "state":"approval-responded","input":{"path":"/tmp/a"},"approval":{"id":"run-7::call-1","approved":false,"reason":"keep it"}}]}]`), &msgs)
	for _, a := range aisdk.NativeApprovals(msgs) {
		fmt.Println(a.RunID, a.ToolCallID, string(a.ResumeData))
	}
	// Output:
	// run-7 call-1 {"approved":false,"reason":"keep it"}
}

// SafeErrorText keeps what could leak a prompt out of error texts.
func ExampleSafeErrorText() {
	fmt.Println(aisdk.SafeErrorText(map[string]any{"message": "Bad request", "requestBodyValues": map[string]any{"system": "secret"}}))
	fmt.Println(aisdk.SafeErrorText("plain text"))
	// Output:
	// {"message":"Bad request"}
	// plain text
}

// Parts marshal with exactly the keys the AI SDK's UI stream uses.
func ExamplePart_MarshalJSON() {
	b, _ := json.Marshal(aisdk.Part{Type: aisdk.PartToolOutputError, ToolCallID: "c1", ErrorText: "boom"})
	fmt.Println(string(b))
	// Output:
	// {"type":"tool-output-error","toolCallId":"c1","errorText":"boom"}
}
