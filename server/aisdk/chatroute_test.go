package aisdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
)

// TestMain checks that no goroutine outlives the tests: runs whose
// clients went away, heartbeat pumps, servers.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// post sends body to path and returns the status, the body and the
// decoded SSE frames.
func post(t *testing.T, client *http.Client, url, body string, header ...string) (int, string, []map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var frames []map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		dumpStream(t, b)
		for _, f := range sseFrames(string(b)) {
			if f == "[DONE]" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(f), &m); err != nil {
				t.Fatalf("frame %q: %v", f, err)
			}
			frames = append(frames, m)
		}
	}
	return res.StatusCode, string(b), frames
}

// dumpStream writes an SSE body to $AISDK_DUMP_DIR (when set), for
// testdata/capture/verify.mjs to read with the AI SDK's own client.
func dumpStream(t *testing.T, body []byte) {
	t.Helper()
	dir := os.Getenv("AISDK_DUMP_DIR")
	if dir == "" {
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	for i := 0; ; i++ {
		path := filepath.Join(dir, fmt.Sprintf("%s-%d.sse", name, i))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
}

func userChat(text string, extra string) string {
	return `{"id":"chat-1","trigger":"submit-message","messages":[{"id":"msg-1","role":"user","parts":[{"type":"text","text":` +
		mustJSONString(text) + `}]}]` + extra + `}`
}

func mustJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func ofType(frames []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, f := range frames {
		if f["type"] == typ {
			out = append(out, f)
		}
	}
	return out
}

// TestChatRouteSubAgentParts runs the guide's supervisor, whose writer
// sub-agent is the tool "agent-writer", through a chat route with
// sub-agent metadata on: the tool call is named "agent-writer", and the
// writer's run appears as data-tool-agent parts whose data is the writer
// (its own id) and whose part id is the writer's run.
func TestChatRouteSubAgentParts(t *testing.T) {
	haiku := "Fog on the Golden Gate, / foghorns answer one another, / the city exhales."
	writer, err := agent.New(agent.Config{ID: "writer", Name: "Writer", Description: "Drafts and edits written content",
		Instructions: "You are a skilled writer.", Model: mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: haiku} })})
	if err != nil {
		t.Fatal(err)
	}
	supervisor, err := agent.New(agent.Config{ID: "supervisor", Name: "Supervisor", Description: "Coordinates the writer to produce content",
		Instructions: "Coordinate the writer to produce content.", Agents: map[string]*agent.Agent{"writer": writer},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			if hasToolResult(req) {
				return mock.Step{Text: "Here is your haiku: " + haiku}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-writer", Name: "agent-writer", Args: `{"prompt":"Write a haiku about fog."}`, ChunkSize: 8}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"supervisor": supervisor, "writer": writer}})
	route := ChatRoute(m, ChatRouteOptions{Chat: ChatOptions{Stream: StreamOptions{IncludeSubAgentMetadata: true}}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{route}})

	status, body, frames := post(t, client, ts.URL+"/chat/supervisor", userChat("I need a haiku about San Francisco fog.", ""))
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	starts := ofType(frames, PartToolInputStart)
	if len(starts) != 1 || starts[0]["toolName"] != "agent-writer" || starts[0]["toolCallId"] != "call-writer" {
		t.Fatalf("tool-input-start parts %v, want one for agent-writer", starts)
	}
	if avail := ofType(frames, PartToolInputAvailable); len(avail) != 1 || avail[0]["toolName"] != "agent-writer" {
		t.Fatalf("tool-input-available parts %v", avail)
	}
	snaps := ofType(frames, PartToolAgent)
	if len(snaps) == 0 {
		t.Fatalf("no data-tool-agent part in %s", body)
	}
	runID, _ := snaps[0]["id"].(string)
	if runID == "" {
		t.Fatal("data-tool-agent part without id")
	}
	for _, s := range snaps {
		data := s["data"].(map[string]any)
		if s["id"] != runID || data["id"] != writer.ID() {
			t.Errorf("snapshot id %v data.id %v, want the writer's run %s and id %q", s["id"], data["id"], runID, writer.ID())
		}
		anc := s["ancestry"].([]any)[0].(map[string]any)
		if anc["toolName"] != "agent-writer" || anc["agentId"] != "writer" || anc["toolCallId"] != "call-writer" || s["depth"] != 1.0 {
			t.Errorf("ancestry %v depth %v", s["ancestry"], s["depth"])
		}
	}
	last := snaps[len(snaps)-1]["data"].(map[string]any)
	if last["status"] != "finished" || last["text"] != haiku || last["finishReason"] != "stop" {
		t.Errorf("final snapshot %v", last)
	}
	if steps := ofType(frames, PartToolAgentStep); len(steps) != 1 || steps[0]["id"] != runID+":0" {
		t.Errorf("data-tool-agent-step parts %v", steps)
	}
	out := ofType(frames, PartToolOutputAvailable)
	if len(out) != 1 || out[0]["output"].(map[string]any)["text"] != haiku {
		t.Errorf("tool-output-available parts %v", out)
	}
	// Without the option, as Mastra's chatRoute: no snapshots.
	plain := ChatRoute(m, ChatRouteOptions{Path: "/plain/{agentId}"})
	ts2, client2 := startServer(t, m, server.Options{Routes: []server.Route{plain}})
	_, body, frames = post(t, client2, ts2.URL+"/plain/supervisor", userChat("Another haiku.", ""))
	if n := len(ofType(frames, PartToolAgent)); n != 0 {
		t.Errorf("%d data-tool-agent parts without IncludeSubAgentMetadata", n)
	}
	if out := ofType(frames, PartToolOutputAvailable); len(out) != 1 || out[0]["output"].(map[string]any)["text"] != haiku {
		t.Errorf("without metadata the delegation still answers: %s", body)
	}
}

// The capture's supervisor names its sub-agent by key ("weather") and the
// sub-agent has its own id ("weather-agent"): the tool is agent-weather,
// the snapshot's data.id weather-agent.
func TestChatRouteSubAgentKeyAndID(t *testing.T) {
	m := newTestApp(t)
	route := ChatRoute(m, ChatRouteOptions{Chat: ChatOptions{Stream: StreamOptions{IncludeSubAgentMetadata: true}}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{route}})
	_, body, frames := post(t, client, ts.URL+"/chat/supervisor", userChat("Weather in Paris?", ""))
	if s := ofType(frames, PartToolInputStart); len(s) != 1 || s[0]["toolName"] != "agent-weather" {
		t.Fatalf("tool-input-start %v", s)
	}
	snaps := ofType(frames, PartToolAgent)
	if len(snaps) == 0 {
		t.Fatalf("no data-tool-agent part: %s", body)
	}
	final := snaps[len(snaps)-1]["data"].(map[string]any)
	if final["id"] != "weather-agent" {
		t.Errorf("data.id %v, want weather-agent", final["id"])
	}
	calls := final["steps"].([]any)[0].(map[string]any)["toolCalls"].([]any)
	if len(calls) != 1 || calls[0].(map[string]any)["toolName"] != "weatherTool" {
		t.Errorf("the sub-agent's first step calls %v", calls)
	}
}

// TestChatRouteRejectsBadInput: the recorded bad requests (which Mastra
// answers 500 "Internal Server Error") and a few more get the JSON errors
// of the server's own routes.
func TestChatRouteRejectsBadInput(t *testing.T) {
	m := newTestApp(t)
	ts, client := startServer(t, m, server.Options{Routes: testRoutes(m), MaxBodyBytes: 4096})
	cases := []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"error-unknown-agent", "", "", 404, `{"error":"Agent with id no-such-agent not found"}`},
		{"error-malformed-body", "", "", 400, `{"error":"Invalid request body","issues":[{"field":"body","message":"Unexpected end of JSON input"}]}`},
		{"error-messages-not-array", "", "", 400, `{"error":"Invalid request body","issues":[{"field":"messages","message":"Invalid input: expected array, received string"}]}`},
		{"error-no-messages", "", "", 400, `{"error":"Invalid request body","issues":[{"field":"messages","message":"Invalid input: expected array, received undefined"}]}`},
		{"error-empty-messages", "", "", 400, `{"error":"Invalid request body","issues":[{"field":"messages","message":"messages must be a non-empty array of UIMessage objects"}]}`},
		{"error-resume-without-run", "", "", 400, `{"error":"runId is required when resumeData is provided"}`},
		{"body not an object", "/chat/text-agent", `[1]`, 400, `{"error":"Invalid request body","issues":[{"field":"root","message":"Invalid input: expected object, received array"}]}`},
		{"unknown role", "/chat/text-agent", `{"messages":[{"role":"robot","parts":[{"type":"text","text":"hi"}]}]}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"messages.0.role","message":"Invalid option: expected one of \"system\"|\"user\"|\"assistant\""}]}`},
		{"wrong field types", "/chat/text-agent", `{"messages":[],"trigger":"again","memory":{"thread":3},"maxSteps":"x"}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"trigger","message":"Invalid option: expected one of \"submit-message\"|\"regenerate-message\""},{"field":"memory.thread","message":"Invalid input: expected string, received number"},{"field":"maxSteps","message":"Invalid input: expected number, received string"}]}`},
		{"malformed file", "/chat/text-agent", `{"messages":[{"role":"user","parts":[{"type":"file","mediaType":"text/plain"}]}]}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"messages.0.parts.0","message":"file part without url"}]}`},
		{"no such run", "/chat/file-agent", userChat("x", `,"runId":"no-such-run","resumeData":{"approved":true}`), 404, `"error":"Agent \"File Agent\" resumeStream() could not find a suspended run`},
		{"body too large", "/chat/text-agent", userChat(strings.Repeat("x", 5000), ""), 413, `{"error":"Request body too large"}`},
		{"fixed-agent path", "/support-chat", `{"messages":"x"}`, 400, `"field":"messages"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path, body := tc.path, tc.body
			if path == "" {
				f := loadHTTPFixture(t, tc.name)
				path, body = f.Request.Path, string(f.requestBody())
			}
			status, got, _ := post(t, client, ts.URL+path, body)
			if status != tc.status {
				t.Errorf("status %d, want %d (%s)", status, tc.status, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("body %s, want %s", got, tc.want)
			}
		})
	}
}

func TestNewChatRouteChecksThePath(t *testing.T) {
	m := mastra.New(mastra.Config{})
	if _, err := NewChatRoute(m, ChatRouteOptions{Path: "/chat"}); !errors.Is(err, ErrChatRoutePath) {
		t.Errorf("error %v, want ErrChatRoutePath", err)
	}
	rt, err := NewChatRoute(m, ChatRouteOptions{Path: "/chat/:agentId/x"})
	if err != nil || rt.Path != "/chat/{agentId}/x" || rt.Method != http.MethodPost {
		t.Errorf("route %+v, %v", rt, err)
	}
	if _, err := NewChatRoute(m, ChatRouteOptions{Path: "/support", Agent: "a"}); err != nil {
		t.Error(err)
	}
	// ChatRoute answers the configuration error instead.
	bad := ChatRoute(m, ChatRouteOptions{Path: "/chat"})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{bad}})
	status, body, _ := post(t, client, ts.URL+"/chat", userChat("hi", ""))
	if status != 500 || !strings.Contains(body, "{agentId}") {
		t.Errorf("%d %s", status, body)
	}
}
