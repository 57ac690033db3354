package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// TestMain checks that no goroutine outlives the tests: streams whose
// clients went away, background runs, servers.
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

func TestHealthRootAndNotFound(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "GET", "/health", "")
	if resp.StatusCode != 200 || string(body) != `{"success":true}` {
		t.Errorf("health: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api", "")
	if resp.StatusCode != 200 || string(body) != "Hello to the Mastra API!" {
		t.Errorf("api root: %d %s", resp.StatusCode, body)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/nothing"}, {"GET", "/api/tools/add/execute"}, {"DELETE", "/api/tools"}, {"GET", "/api/tools/"},
	} {
		resp, body = f.do(t, c.method, c.path, "")
		if resp.StatusCode != 404 || string(body) != "404 Not Found" {
			t.Errorf("%s %s: %d %q", c.method, c.path, resp.StatusCode, body)
		}
		if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s %s: no CORS header", c.method, c.path)
		}
	}
}

func TestAPIPrefix(t *testing.T) {
	for _, prefix := range []string{"/v1/", "custom", "/"} {
		f := newFixture(t, withOptions(Options{APIPrefix: prefix}))
		p := normalisePrefix(prefix)
		resp, body := f.do(t, "GET", p+"/tools/add", "")
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"id":"add"`) {
			t.Errorf("prefix %q: %d %s", prefix, resp.StatusCode, body)
		}
		if p != "" {
			// Outside the API, a GET gets the welcome page, as Mastra's.
			if resp, _ := f.do(t, "GET", "/api/tools/add", ""); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html" {
				t.Errorf("prefix %q: /api still served: %d %s", prefix, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		}
	}
}

// TestAPISchemaMatchesMastra: the catalogue's entries are Mastra's own,
// byte for byte (the CLI's --schema output comes from them), and list
// exactly the JSON routes this server serves.
func TestAPISchemaMatchesMastra(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "GET", "/api/system/api-schema", "")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	got, err := wire.Decode(body, wire.KeepDuplicates)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(sharedSpecDir + "/system-api-schema.json")
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("the recorded catalogue (spec/http/system-api-schema.json, 2.7 MB) is not here")
	}
	if err != nil {
		t.Fatal(err)
	}
	mastraSchema, err := wire.Decode(raw, wire.KeepDuplicates)
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]string{}
	for _, r := range jsonMember(mastraSchema, "routes").([]any) {
		recorded[jsonText(jsonMember(r, "method"))+" "+jsonText(jsonMember(r, "path"))] = jsonText(r)
	}
	served := map[string]bool{}
	for _, rt := range f.srv.routeTable() {
		path := rt.path
		for _, p := range []string{"toolId", "agentId", "workflowId", "runId", "backgroundTaskId", "threadId"} {
			path = strings.ReplaceAll(path, "{"+p+"}", ":"+p)
		}
		served[`"`+rt.method+`" "`+path+`"`] = true
	}
	listed := map[string]bool{}
	for _, r := range jsonMember(got, "routes").([]any) {
		key := jsonText(jsonMember(r, "method")) + " " + jsonText(jsonMember(r, "path"))
		listed[key] = true
		if !served[key] {
			t.Errorf("catalogue lists %s, which is not served", key)
		}
		want, ok := recorded[key]
		if !ok {
			t.Errorf("%s is not in Mastra's catalogue", key)
			continue
		}
		if g := jsonText(r); g != want {
			t.Errorf("%s differs from Mastra's entry:\n go:     %s\n mastra: %s", key, g, want)
		}
	}
	for key := range served {
		if _, inMastra := recorded[key]; inMastra && !listed[key] {
			t.Errorf("%s is served and in Mastra's catalogue but not in ours", key)
		}
	}
	for _, key := range []string{`"GET" "/tools"`, `"GET" "/tools/:toolId"`, `"POST" "/tools/:toolId/execute"`,
		`"GET" "/agents/:agentId/tools/:toolId"`, `"POST" "/agents/:agentId/tools/:toolId/execute"`} {
		if !listed[key] {
			t.Errorf("tool route %s missing from the catalogue", key)
		}
	}
}

// jsonMember is the value of the first member named key of v, a
// *wire.Object (nil when there is none).
func jsonMember(v any, key string) any {
	o, _ := v.(*wire.Object)
	if o == nil {
		return nil
	}
	m, _ := o.Get(key)
	return m
}

// jsonText renders a decoded value as the server renders what it
// decodes: member for member, strings escaped as wire.Marshal does.
func jsonText(v any) string { return string(wire.AppendAsIs(nil, v, wire.StringifyGo)) }

func TestInvalidBodies(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"not an object", "/api/tools/add/execute", `[1]`, 400,
			`{"error":"Invalid request body","issues":[{"field":"root","message":"Invalid input: expected object, received array"}]}`},
		{"null body", "/api/tools/add/execute", `null`, 400,
			`{"error":"Invalid request body","issues":[{"field":"root","message":"Invalid input: expected object, received null"}]}`},
		{"truncated", "/api/tools/add/execute", `{"data":{"a":1`, 400,
			`{"error":"Invalid request body","issues":[{"field":"body","message":"Expected ',' or '}' after property value in JSON at position 14 (line 1 column 15)"}]}`},
		{"falsy data", "/api/tools/add/execute", `{"data":null}`, 400, `{"error":"Argument \"data\" is required"}`},
		{"requestContext not an object", "/api/tools/add/execute", `{"data":{"a":1,"b":2},"requestContext":"x"}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"requestContext","message":"Invalid input: expected record, received string"}]}`},
		{"messages missing", "/api/agents/calc-agent/stream", `{}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"messages","message":"Invalid input"}]}`},
		{"messages wrong type", "/api/agents/calc-agent/generate", `{"messages":5}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"messages","message":"Invalid input"}]}`},
		{"bad message", "/api/agents/calc-agent/generate", `{"messages":[{"role":"robot","content":"hi"}]}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"messages.0","message":"unknown message role \"robot\""}]}`},
		{"several issues", "/api/agents/calc-agent/generate", `{"messages":"hi","maxSteps":"3","memory":{"resource":"r"},"activeTools":[1],"requireToolApproval":"yes","toolChoice":"sometimes"}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"memory.thread","message":"Invalid input"},{"field":"maxSteps","message":"Invalid input: expected number, received string"},{"field":"activeTools.0","message":"Invalid input: expected string, received number"},{"field":"toolChoice","message":"Invalid input"},{"field":"requireToolApproval","message":"Invalid input: expected boolean, received string"}]}`},
		{"bad client tool schema", "/api/agents/calc-agent/generate", `{"messages":"hi","clientTools":{"x":{"inputSchema":{"type":"nope"}}}}`, 400, ""},
		{"approve without ids", "/api/agents/calc-agent/approve-tool-call", `{}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"runId","message":"Invalid input: expected string, received undefined"},{"field":"toolCallId","message":"Invalid input: expected string, received undefined"}]}`},
		{"approve with an empty run id", "/api/agents/calc-agent/approve-tool-call", `{"runId":"","toolCallId":"c"}`, 400, `{"error":"Run id is required"}`},
		{"unknown agent", "/api/agents/nope/stream", `{"messages":"hi"}`, 404, `{"error":"Agent with id nope not found"}`},
		{"unknown workflow", "/api/workflows/nope/start-async", `{}`, 404, `{"error":"Workflow not found"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := f.do(t, "POST", c.path, c.body)
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			if c.want != "" && string(body) != c.want {
				t.Errorf("body\n got  %s\n want %s", body, c.want)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	f := newFixture(t, withOptions(Options{MaxBodyBytes: 64}))
	big := `{"data":{"a":1,"b":2},"requestContext":{"pad":"` + strings.Repeat("x", 100) + `"}}`
	resp, body := f.do(t, "POST", "/api/tools/add/execute", big)
	if resp.StatusCode != 413 || string(body) != `{"error":"Request body too large"}` {
		t.Errorf("with Content-Length: %d %s", resp.StatusCode, body)
	}
	// Chunked, no Content-Length: the limit applies while reading.
	req, _ := http.NewRequest("POST", f.ts.URL+"/api/tools/add/execute", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	r2, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := io.ReadAll(r2.Body)
	r2.Body.Close()
	if r2.StatusCode != 413 || string(b2) != `{"error":"Request body too large"}` {
		t.Errorf("chunked: %d %s", r2.StatusCode, b2)
	}
	// The default limit is Mastra's 4.5 MB.
	if New(mastra.New(mastra.Config{}), Options{}).maxBody != 4718592 {
		t.Error("default limit is not 4.5 MB")
	}
}

// TestToolErrors: a tool's error and a tool's panic are 500 {"error":
// message}; a client tool is not executable; the server keeps serving.
func TestToolErrors(t *testing.T) {
	failing := tools.New(tools.Config[addIn, addOut]{ID: "failing", Description: "fails",
		Execute: func(tools.Context, addIn) (addOut, error) { return addOut{}, errBoom }})
	panicking := tools.New(tools.Config[addIn, addOut]{ID: "panicking", Description: "panics",
		Execute: func(tools.Context, addIn) (addOut, error) { panic("kaboom") }})
	client := tools.New(tools.Config[addIn, addOut]{ID: "client", Description: "runs in the browser"})
	f := newFixture(t, withRegistry(func(c *mastra.Config) {
		c.Tools["failing"], c.Tools["panicking"], c.Tools["client"] = failing, panicking, client
	}))
	resp, body := f.do(t, "POST", "/api/tools/failing/execute", `{"data":{"a":1,"b":2}}`)
	if resp.StatusCode != 500 || string(body) != `{"error":"boom"}` {
		t.Errorf("failing: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/tools/panicking/execute", `{"data":{"a":1,"b":2}}`)
	if resp.StatusCode != 500 || !strings.Contains(errorBody(t, body), "kaboom") {
		t.Errorf("panicking: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/tools/client/execute", `{"data":{"a":1,"b":2}}`)
	if resp.StatusCode != 400 || string(body) != `{"error":"Tool is not executable"}` {
		t.Errorf("client tool: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/tools/add/execute", `{"data":{"a":1,"b":2}}`)
	if resp.StatusCode != 200 || string(body) != `{"sum":3}` {
		t.Errorf("after the failures: %d %s", resp.StatusCode, body)
	}
}

// TestHandlerPanic: a panic outside a tool (here the agent's tools
// function) is 500 {"error":"Internal Server Error"}, not a dropped
// connection, and the server goes on.
func TestHandlerPanic(t *testing.T) {
	f := newFixture(t, withAgent(func(c *agent.Config) {
		c.ToolsFunc = func(context.Context, *tools.RequestContext) (tools.Set, error) { panic("bad tools") }
	}))
	resp, body := f.do(t, "GET", "/api/agents/calc-agent", "")
	if resp.StatusCode != 500 || string(body) != `{"error":"Internal Server Error"}` {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if resp, _ := f.do(t, "GET", "/api/tools", ""); resp.StatusCode != 200 {
		t.Errorf("server did not go on: %d", resp.StatusCode)
	}
}

// TestSSEFraming: Mastra's headers, one "data: <json>\n\n" frame per
// chunk, [DONE] at the end, and frames flushed as they come (the first
// arrives long before the run ends).
func TestSSEFraming(t *testing.T) {
	f := newFixture(t, withModel(func(m *scripted) { m.partDelay = 40 * time.Millisecond }))
	req, _ := http.NewRequest("POST", f.ts.URL+"/api/agents/calc-agent/stream", strings.NewReader(`{"messages":"What is 2+3?"}`))
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
		"Connection": "keep-alive", "X-Accel-Buffering": "no", "Access-Control-Allow-Origin": "*"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if len(resp.TransferEncoding) == 0 || resp.TransferEncoding[0] != "chunked" || resp.ContentLength != -1 {
		t.Errorf("not chunked: %v %d", resp.TransferEncoding, resp.ContentLength)
	}
	br := bufio.NewReader(resp.Body)
	first, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	firstAt := time.Since(start)
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	total := time.Since(start)
	if !strings.HasPrefix(first, `data: {"type":"start",`) {
		t.Errorf("first frame %q", first)
	}
	if firstAt > total/2 {
		t.Errorf("first frame after %v of %v: not flushed as it came", firstAt, total)
	}
	body := append([]byte(first), rest...)
	frames := readFrames(t, body)
	if frames[len(frames)-1] != "[DONE]" {
		t.Errorf("last frame %q", frames[len(frames)-1])
	}
	for i, fr := range frames[:len(frames)-1] {
		if !json.Valid([]byte(fr)) || strings.Contains(fr, "\n") {
			t.Errorf("frame %d is not one line of JSON: %q", i, fr)
		}
	}
	if !bytes.HasSuffix(body, []byte("\n\ndata: [DONE]\n\n")) {
		t.Errorf("bad ending %q", body[len(body)-30:])
	}
	// step-start's request is redacted.
	if !strings.Contains(string(body), `"request":{}`) {
		t.Error("step-start request not redacted")
	}
}

// streamChunks posts a stream request and returns its chunks.
func (f *fixture) streamChunks(t testing.TB, path, body string, hdr ...string) []stream.Chunk {
	t.Helper()
	resp, b := f.do(t, "POST", path, body, hdr...)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
	}
	if !bytes.HasSuffix(b, []byte("data: [DONE]\n\n")) {
		t.Fatalf("%s: no [DONE]: %s", path, b)
	}
	return sseChunks(t, b)
}

func approvalOf(t testing.TB, cs []stream.Chunk) (runID, toolCallID string) {
	t.Helper()
	last := cs[len(cs)-1]
	if last.Type != stream.TypeToolCallApproval {
		t.Fatalf("stream ends with %s, want tool-call-approval: %v", last.Type, chunkTypes(cs))
	}
	p, ok := last.Payload.(stream.ToolCallApprovalPayload)
	if !ok {
		t.Fatalf("payload %T", last.Payload)
	}
	return last.RunID, p.ToolCallID
}

// TestApprovalFlow: requireToolApproval stops the stream at
// tool-call-approval; approve-tool-call streams the rest of the run;
// decline-tool-call-generate tells the model no.
func TestApprovalFlow(t *testing.T) {
	f := newFixture(t)
	cs := f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","requireToolApproval":true}`)
	runID, callID := approvalOf(t, cs)
	if callID != "call-1" {
		t.Fatalf("tool call %q", callID)
	}

	// The suspended run is listed.
	resp, body := f.do(t, "GET", "/api/agents/calc-agent/suspended-runs", "")
	if resp.StatusCode != 200 {
		t.Fatalf("suspended-runs: %d %s", resp.StatusCode, body)
	}
	var list struct {
		Runs []struct {
			RunID       string `json:"runId"`
			Status      string `json:"status"`
			SuspendedAt string `json:"suspendedAt"`
			ToolCalls   []struct {
				ToolCallID       string `json:"toolCallId"`
				RequiresApproval bool   `json:"requiresApproval"`
			} `json:"toolCalls"`
		} `json:"runs"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if list.Total != 1 || list.Runs[0].RunID != runID || list.Runs[0].Status != "suspended" ||
		!list.Runs[0].ToolCalls[0].RequiresApproval || !strings.HasSuffix(list.Runs[0].SuspendedAt, "Z") {
		t.Errorf("suspended runs: %s", body)
	}

	cs = f.streamChunks(t, "/api/agents/calc-agent/approve-tool-call", fmt.Sprintf(`{"runId":%q,"toolCallId":%q}`, runID, callID))
	types := chunkTypes(cs)
	if !slices.Contains(types, stream.TypeToolResult) || types[len(types)-1] != stream.TypeFinish {
		t.Fatalf("approved stream: %v", types)
	}
	for _, c := range cs {
		if c.Type == stream.TypeToolResult {
			if p := c.Payload.(stream.ToolResultPayload); string(mustJSON(t, p.Result)) != `{"sum":5}` {
				t.Errorf("tool result %s", mustJSON(t, p.Result))
			}
		}
	}
	// Approving again: the run is gone.
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/approve-tool-call", fmt.Sprintf(`{"runId":%q,"toolCallId":%q}`, runID, callID))
	if resp.StatusCode != 404 || !strings.Contains(errorBody(t, body), "could not find a suspended run") {
		t.Errorf("second approval: %d %s", resp.StatusCode, body)
	}

	// Decline, generate flavour.
	cs = f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","requireToolApproval":true}`)
	runID, callID = approvalOf(t, cs)
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/decline-tool-call-generate",
		fmt.Sprintf(`{"runId":%q,"toolCallId":%q,"reason":"not today"}`, runID, callID))
	if resp.StatusCode != 200 {
		t.Fatalf("decline: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(string(body), "not today") || !strings.Contains(string(body), `"text":"The sum is 5."`) {
		t.Errorf("declined output: %s", body)
	}

	// Approve, generate flavour.
	cs = f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","requireToolApproval":true}`)
	runID, callID = approvalOf(t, cs)
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/approve-tool-call-generate", fmt.Sprintf(`{"runId":%q,"toolCallId":%q}`, runID, callID))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"result":{"sum":5}`) {
		t.Errorf("approve generate: %d %s", resp.StatusCode, body)
	}

	// A wrong tool call id.
	cs = f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","requireToolApproval":true}`)
	runID, _ = approvalOf(t, cs)
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/approve-tool-call", fmt.Sprintf(`{"runId":%q,"toolCallId":"nope"}`, runID))
	if resp.StatusCode != 400 || !strings.Contains(errorBody(t, body), "not suspended") {
		t.Errorf("wrong call id: %d %s", resp.StatusCode, body)
	}
	// resume-stream with approval data works too.
	cs = f.streamChunks(t, "/api/agents/calc-agent/resume-stream", fmt.Sprintf(`{"runId":%q,"resumeData":{"approved":true}}`, runID))
	if types := chunkTypes(cs); types[len(types)-1] != stream.TypeFinish {
		t.Errorf("resume-stream: %v", types)
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResumeConflict: two concurrent resumes of one run: exactly one
// streams, the other is 409.
func TestResumeConflict(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	slow := tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers",
		Execute: func(ctx tools.Context, in addIn) (addOut, error) {
			entered <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
				return addOut{}, ctx.Err()
			}
			return addOut{Sum: in.A + in.B}, nil
		}})
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": slow} }))
	cs := f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","requireToolApproval":true}`)
	runID, callID := approvalOf(t, cs)
	body := fmt.Sprintf(`{"runId":%q,"toolCallId":%q}`, runID, callID)

	type answer struct {
		status int
		body   []byte
	}
	answers := make(chan answer, 2)
	go func() {
		resp, b := f.do(t, "POST", "/api/agents/calc-agent/approve-tool-call", body)
		answers <- answer{resp.StatusCode, b}
	}()
	<-entered // the first resume claimed the run and runs the tool
	resp, b := f.do(t, "POST", "/api/agents/calc-agent/resume-stream", fmt.Sprintf(`{"runId":%q,"resumeData":{"approved":true}}`, runID))
	if resp.StatusCode != 409 || !strings.Contains(errorBody(t, b), "another resume of it is under way") {
		t.Errorf("second resume: %d %s", resp.StatusCode, b)
	}
	close(release)
	first := <-answers
	if first.status != 200 || !bytes.Contains(first.body, []byte(`"type":"finish"`)) {
		t.Errorf("first resume: %d %s", first.status, first.body)
	}
}

// TestSendToolApproval: the thread's suspended run is found, resumed in
// the background (detached from the request), and completes.
func TestSendToolApproval(t *testing.T) {
	f := newFixture(t)
	cs := f.streamChunks(t, "/api/agents/calc-agent/stream",
		`{"messages":"What is 2+3?","requireToolApproval":true,"memory":{"thread":"t1","resource":"u1"}}`)
	runID, callID := approvalOf(t, cs)
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/send-tool-approval",
		fmt.Sprintf(`{"resourceId":"u1","threadId":"t1","toolCallId":%q,"approved":true}`, callID))
	want := fmt.Sprintf(`{"accepted":true,"runId":%q,"toolCallId":%q}`, runID, callID)
	if resp.StatusCode != 200 || string(body) != want {
		t.Fatalf("%d %s, want %s", resp.StatusCode, body, want)
	}
	// The run completes: its answer lands in the thread.
	deadline := time.Now().Add(5 * time.Second)
	for {
		msgs, err := f.store.ListMessages(context.Background(), "t1", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) > 0 && strings.Contains(string(msgs[len(msgs)-1].Content), "The sum is 5.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the approved run did not finish: %d messages", len(msgs))
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Nothing left to approve.
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/send-tool-approval",
		fmt.Sprintf(`{"resourceId":"u1","threadId":"t1","toolCallId":%q,"approved":true}`, callID))
	if resp.StatusCode != 404 || !strings.Contains(errorBody(t, body), "could not find an active or suspended run") {
		t.Errorf("again: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/send-tool-approval", `{"threadId":"t1"}`)
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"field":"approved"`) {
		t.Errorf("missing fields: %d %s", resp.StatusCode, body)
	}
}

// echoTool returns the request context it sees.
func echoTool() *tools.Tool {
	return tools.New(tools.Config[struct{}, map[string]any]{ID: "echo", Description: "echoes the request context",
		Execute: func(ctx tools.Context, _ struct{}) (map[string]any, error) { return ctx.RequestContext().All(), nil }})
}

// TestReservedKeysStripped: clients cannot set mastra__resourceId or
// mastra__threadId; the authenticated resource and the body's memory
// set them.
func TestReservedKeysStripped(t *testing.T) {
	f := newFixture(t, withRegistry(func(c *mastra.Config) { c.Tools["echo"] = echoTool() }))
	resp, body := f.do(t, "POST", "/api/tools/echo/execute",
		`{"data":{},"requestContext":{"user":"u1","mastra__resourceId":"evil","mastra__threadId":"evil-thread"}}`)
	if resp.StatusCode != 200 || string(body) != `{"user":"u1"}` {
		t.Errorf("tool execute: %d %s", resp.StatusCode, body)
	}
	rc := base64.StdEncoding.EncodeToString([]byte(`{"mastra__resourceId":"evil"}`))
	if resp, body := f.do(t, "GET", "/api/tools/echo?requestContext="+rc, ""); resp.StatusCode != 200 {
		t.Errorf("GET with requestContext: %d %s", resp.StatusCode, body)
	}

	// In an agent run the tool sees the memory's ids, not the client's.
	var seen sync.Map
	spy := tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers",
		Execute: func(ctx tools.Context, in addIn) (addOut, error) {
			for k, v := range ctx.RequestContext().All() {
				seen.Store(k, v)
			}
			return addOut{Sum: in.A + in.B}, nil
		}})
	g := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": spy} }))
	resp, body = g.do(t, "POST", "/api/agents/calc-agent/generate",
		`{"messages":"What is 2+3?","memory":{"thread":{"id":"th-1"},"resource":"res-1"},"requestContext":{"mastra__resourceId":"evil","mastra__threadId":"evil","tenant":"acme"}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("generate: %d %s", resp.StatusCode, body)
	}
	for k, want := range map[string]string{tools.ResourceIDKey: "res-1", tools.ThreadIDKey: "th-1", "tenant": "acme"} {
		if v, _ := seen.Load(k); v != want {
			t.Errorf("tool saw %s = %v, want %s", k, v, want)
		}
	}
}

// TestBearerAuth: the token is required everywhere but preflights and
// /health.
func TestBearerAuth(t *testing.T) {
	f := newFixture(t, withOptions(Options{BearerToken: "s3cret"}))
	for _, hdr := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "s3cret"}} {
		resp, body := f.do(t, "GET", "/api/tools", "", hdr...)
		if resp.StatusCode != 401 || string(body) != `{"error":"Unauthorized"}` {
			t.Errorf("%v: %d %s", hdr, resp.StatusCode, body)
		}
	}
	if resp, body := f.do(t, "GET", "/api/tools", "", "Authorization", "Bearer s3cret"); resp.StatusCode != 200 {
		t.Errorf("with the token: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.do(t, "GET", "/health", ""); resp.StatusCode != 200 {
		t.Errorf("health: %d", resp.StatusCode)
	}
	if resp, _ := f.do(t, "OPTIONS", "/api/tools", "", "Origin", "http://x.test"); resp.StatusCode != 204 {
		t.Errorf("preflight: %d", resp.StatusCode)
	}
}

// TestAuthResource: the Auth hook's resource overrides the body's and
// guards threads and runs of other resources (403).
func TestAuthResource(t *testing.T) {
	f := newFixture(t, withOptions(Options{Auth: func(r *http.Request) (string, error) {
		user := r.Header.Get("X-User")
		if user == "" {
			return "", errors.New("no user")
		}
		return user, nil
	}}))
	if resp, _ := f.do(t, "GET", "/api/agents", ""); resp.StatusCode != 401 {
		t.Errorf("no user: %d", resp.StatusCode)
	}
	// alice's run on her thread; the body claims bob's resource.
	cs := f.streamChunks(t, "/api/agents/calc-agent/stream",
		`{"messages":"What is 2+3?","requireToolApproval":true,"memory":{"thread":"alice-thread","resource":"bob"}}`, "X-User", "alice")
	runID, callID := approvalOf(t, cs)
	th, err := f.store.GetThread(context.Background(), "alice-thread")
	if err != nil || th.ResourceID != "alice" {
		t.Fatalf("thread owner: %+v %v", th, err)
	}
	// bob cannot use alice's thread, nor approve her run, nor list it.
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"hi","memory":{"thread":"alice-thread","resource":"bob"}}`, "X-User", "bob")
	if resp.StatusCode != 403 || string(body) != `{"error":"Access denied: thread belongs to a different resource"}` {
		t.Errorf("bob on alice's thread: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/approve-tool-call", fmt.Sprintf(`{"runId":%q,"toolCallId":%q}`, runID, callID), "X-User", "bob")
	if resp.StatusCode != 403 {
		t.Errorf("bob approving alice's run: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/agents/calc-agent/suspended-runs?resourceId=alice", "", "X-User", "bob")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"total":0`) {
		t.Errorf("bob listing: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/agents/calc-agent/suspended-runs?threadId=alice-thread", "", "X-User", "bob")
	if resp.StatusCode != 403 {
		t.Errorf("bob listing alice's thread: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/send-tool-approval",
		fmt.Sprintf(`{"resourceId":"alice","threadId":"alice-thread","toolCallId":%q,"approved":true}`, callID), "X-User", "bob")
	if resp.StatusCode != 403 {
		t.Errorf("bob send-tool-approval: %d %s", resp.StatusCode, body)
	}
	// alice can.
	cs = f.streamChunks(t, "/api/agents/calc-agent/approve-tool-call", fmt.Sprintf(`{"runId":%q,"toolCallId":%q}`, runID, callID), "X-User", "alice")
	if types := chunkTypes(cs); types[len(types)-1] != stream.TypeFinish {
		t.Errorf("alice approving: %v", types)
	}
}

// TestClientTools: a client tool from the body is offered to the model;
// calling it ends the run with finishReason tool-calls.
func TestClientTools(t *testing.T) {
	f := newFixture(t, withModel(func(m *scripted) { m.toolName, m.args = "confirm", `{"question":"sure?"}` }))
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"go","clientTools":{"confirm":{"id":"confirm","description":"Ask the user",`+
		`"inputSchema":"{\"json\":{\"type\":\"object\",\"properties\":{\"question\":{\"type\":\"string\"}},\"required\":[\"question\"]}}"}}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var out struct {
		FinishReason string `json:"finishReason"`
		ToolCalls    []struct {
			Payload struct {
				ToolName string `json:"toolName"`
			} `json:"payload"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	if out.FinishReason != "tool-calls" || len(out.ToolCalls) != 1 || out.ToolCalls[0].Payload.ToolName != "confirm" {
		t.Errorf("output: %s", body)
	}
}

// TestStructuredOutput: structuredOutput reaches the run (the scripted
// model answers prose, so the fallback value is used).
func TestStructuredOutput(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"What is 2+3?","structuredOutput":{`+
		`"schema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]},"errorStrategy":"fallback","fallbackValue":{"sum":0}}}`)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"object":{"sum":0}`) || !strings.Contains(string(body), `"usedFallbackValue":true`) {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"hi","structuredOutput":{"errorStrategy":"fallback"}}`)
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"field":"structuredOutput.schema"`) {
		t.Errorf("no schema: %d %s", resp.StatusCode, body)
	}
}

// TestRunOptions: instructions, maxSteps, activeTools and structured
// output reach the run.
func TestRunOptions(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":[{"role":"user","content":"What is 2+3?"}],"maxSteps":1,"instructions":["Be brief.","Use tools."]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var out struct {
		FinishReason string `json:"finishReason"`
		Steps        []any  `json:"steps"`
	}
	_ = json.Unmarshal(body, &out)
	if len(out.Steps) != 1 || out.FinishReason != "tool-calls" {
		t.Errorf("maxSteps 1: %d steps, %s", len(out.Steps), out.FinishReason)
	}
	// UI-style and v4-style messages are accepted.
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":[
		{"role":"user","parts":[{"type":"text","text":"What is 2+3?"}]},
		{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c0","toolName":"add","args":{"a":1,"b":1}}]},
		{"role":"tool","content":[{"type":"tool-result","toolCallId":"c0","toolName":"add","result":{"sum":2}}]},
		"and now?"]}`)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"text":"The sum is 5."`) {
		t.Errorf("mixed messages: %d %s", resp.StatusCode, body)
	}
}

// TestConcurrentStreams runs 200 streams at once (with -race in CI).
func TestConcurrentStreams(t *testing.T) {
	f := newFixture(t)
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"messages":"What is 2+3?","runId":"run-%d"}`, i)
			resp, err := f.ts.Client().Post(f.ts.URL+"/api/agents/calc-agent/stream", "application/json", strings.NewReader(body))
			if err != nil {
				errs <- err
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				errs <- err
				return
			}
			if resp.StatusCode != 200 || !bytes.HasSuffix(b, []byte("data: [DONE]\n\n")) || !bytes.Contains(b, []byte(fmt.Sprintf(`"runId":"run-%d"`, i))) ||
				!bytes.Contains(b, []byte(`"result":{"sum":5}`)) {
				errs <- fmt.Errorf("stream %d: %d %s", i, resp.StatusCode, b)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestGetAgentAndTools covers the agent-scoped tool routes' misses.
func TestGetAgentAndTools(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "GET", "/api/agents/calc-agent/tools/nope", "")
	if resp.StatusCode != 404 || string(body) != `{"error":"Tool not found"}` {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/agents/nope/tools/add", "")
	if resp.StatusCode != 404 || string(body) != `{"error":"Agent with id nope not found"}` {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	// By registry key too.
	if resp, _ := f.do(t, "GET", "/api/agents/calcAgent", ""); resp.StatusCode != 200 {
		t.Errorf("by key: %d", resp.StatusCode)
	}
	resp, body = f.do(t, "GET", "/api/tools/add?requestContext=!!!", "")
	if resp.StatusCode != 400 {
		t.Errorf("bad requestContext: %d %s", resp.StatusCode, body)
	}
}

// TestServeGracefulShutdown: Serve listens, serves, and on ctx done lets
// a stream in flight run for the grace period, then cancels it.
func TestServeGracefulShutdown(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	stuck := tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "never ends",
		Execute: func(ctx tools.Context, in addIn) (addOut, error) {
			select {
			case <-ctx.Done():
				return addOut{}, ctx.Err()
			case <-block:
				return addOut{}, nil
			}
		}})
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": stuck} }))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan net.Addr, 1)
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, f.m, ServeOptions{Listener: ln, ShutdownGrace: 200 * time.Millisecond,
			Options: Options{Logger: quiet}, Ready: func(a net.Addr) { ready <- a }})
	}()
	addr := <-ready
	client := &http.Client{}
	defer client.CloseIdleConnections()
	resp, err := client.Post("http://"+addr.String()+"/api/agents/calc-agent/stream", "application/json", strings.NewReader(`{"messages":"go"}`))
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, `"type":"tool-call"`) {
			break
		}
	}
	start := time.Now()
	cancel()
	rest, _ := io.ReadAll(br)
	resp.Body.Close()
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Errorf("stream ended %v after shutdown began, before the grace period", el)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	_ = rest
}

func TestListenAddr(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		addr string
		env  map[string]string
		want string
	}{
		{"", nil, DefaultAddr},
		{"", map[string]string{"PORT": "5000"}, "127.0.0.1:5000"},
		{"", map[string]string{"HOST": "0.0.0.0", "PORT": "80"}, "0.0.0.0:80"},
		{"127.0.0.1:9", map[string]string{"PORT": "5000"}, "127.0.0.1:9"},
	} {
		if got := listenAddr(c.addr, env(c.env)); got != c.want {
			t.Errorf("%q %v: %s, want %s", c.addr, c.env, got, c.want)
		}
	}
}
