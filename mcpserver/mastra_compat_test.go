package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
)

// Our tools/list matches Mastra's: names in order, descriptions, schemas,
// annotations and _meta.
func TestToolsListMatchesMastra(t *testing.T) {
	c := loadCapture(t)
	cs := connect(t, fixtureServer(t), clientOptions{})
	got, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Tools []map[string]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(c.MCP["listTools"], &want); err != nil {
		t.Fatal(err)
	}
	if len(got.Tools) != len(want.Tools) {
		t.Fatalf("%d tools, Mastra lists %d", len(got.Tools), len(want.Tools))
	}
	for i, w := range want.Tools {
		g := got.Tools[i]
		var name, desc string
		_ = json.Unmarshal(w["name"], &name)
		_ = json.Unmarshal(w["description"], &desc)
		if g.Name != name || g.Description != desc {
			t.Errorf("tool %d: %q %q, Mastra: %q %q", i, g.Name, g.Description, name, desc)
			continue
		}
		for _, f := range []struct {
			field string
			got   any
		}{{"inputSchema", g.InputSchema}, {"outputSchema", g.OutputSchema}, {"_meta", map[string]any(g.Meta)}} {
			gotJSON, _ := json.Marshal(f.got)
			var gv, wv any
			_ = json.Unmarshal(gotJSON, &gv)
			if raw, ok := w[f.field]; ok {
				wv = jsonValue(t, raw)
			}
			if m, ok := gv.(map[string]any); ok && len(m) == 0 {
				gv = nil
			}
			if diff := cmp.Diff(wv, gv); diff != "" {
				t.Errorf("%s %s (-Mastra +ours):\n%s", name, f.field, diff)
			}
		}
		var wantAnn map[string]any
		if raw, ok := w["annotations"]; ok {
			_ = json.Unmarshal(raw, &wantAnn)
		}
		var gotAnn map[string]any
		if g.Annotations != nil {
			b, _ := json.Marshal(g.Annotations)
			_ = json.Unmarshal(b, &gotAnn)
			// Hints left unset are false, the protocol's default, which
			// the SDK always writes and Mastra leaves out.
			for _, hint := range []string{"readOnlyHint", "idempotentHint"} {
				if gotAnn[hint] == false && wantAnn[hint] == nil {
					delete(gotAnn, hint)
				}
			}
		}
		if diff := cmp.Diff(wantAnn, gotAnn); diff != "" {
			t.Errorf("%s annotations (-Mastra +ours):\n%s", name, diff)
		}
	}
}

// callCase is one tools/call of the capture.
type callCase struct {
	key  string
	name string
	args any
}

var compatCalls = []callCase{
	{"callAdder", "adder", map[string]any{"a": 2, "b": 3}},
	{"callEchoText", "echoText", map[string]any{"text": "hi"}},
	{"callEchoObject", "echoObject", map[string]any{"text": "hi", "count": 2}},
	{"callInvalid", "adder", map[string]any{"a": "x"}},
	{"callFail", "fail", map[string]any{}},
	{"callUnknown", "nope", map[string]any{}},
	{"callClientOnly", "clientOnly", map[string]any{"q": "x"}},
	{"callAnnotated", "annotated", map[string]any{"id": "x1"}},
	{"callNoSchema", "noSchema", map[string]any{"anything": []any{1, 2}}},
	{"callClash", "ask_calc", map[string]any{}},
	{"callAgentBad", "ask_helper", map[string]any{"message": 3}},
	{"callAgentMissing", "ask_helper", map[string]any{}},
	{"callAgentExtra", "ask_helper", json.RawMessage(`{"message":"x","extra":1}`)},
	{"callAgentTwoErrors", "ask_helper", json.RawMessage(`{"message":3,"extra":1}`)},
	{"callWorkflowInvalid", "run_double", map[string]any{"n": "x"}},
	{"callNoArgs", "noSchema", nil},
}

// Every tools/call of the capture answers as Mastra's did: the same
// content text, isError and structuredContent, over the newest protocol
// and over 2025-11-25.
func TestToolCallsMatchMastra(t *testing.T) {
	c := loadCapture(t)
	s := fixtureServer(t)
	for _, legacy := range []bool{false, true} {
		cs := connect(t, s, clientOptions{legacy: legacy})
		for _, cc := range compatCalls {
			want := c.result(t, cc.key)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: cc.name, Arguments: cc.args})
			if err != nil {
				t.Errorf("legacy=%v %s: %v", legacy, cc.key, err)
				continue
			}
			compareResult(t, cc.key, want, res)
		}
	}
}

func compareResult(t *testing.T, key string, want capturedResult, got *mcp.CallToolResult) {
	t.Helper()
	if got.IsError != want.IsError {
		t.Errorf("%s: isError %v, Mastra %v", key, got.IsError, want.IsError)
	}
	if len(got.Content) != len(want.Content) {
		t.Errorf("%s: %d content items, Mastra %d", key, len(got.Content), len(want.Content))
		return
	}
	for i, w := range want.Content {
		tc, ok := got.Content[i].(*mcp.TextContent)
		if !ok || w.Type != "text" {
			t.Errorf("%s: content %d is %T, Mastra %s", key, i, got.Content[i], w.Type)
			continue
		}
		if tc.Text != w.Text {
			t.Errorf("%s: text\n ours:   %s\n Mastra: %s", key, tc.Text, w.Text)
		}
	}
	var gotSC any
	if got.StructuredContent != nil {
		b, _ := json.Marshal(got.StructuredContent)
		gotSC = jsonValue(t, b)
	}
	var wantSC any
	if want.StructuredContent != nil {
		wantSC = jsonValue(t, want.StructuredContent)
	}
	if diff := cmp.Diff(wantSC, gotSC); diff != "" {
		t.Errorf("%s: structuredContent (-Mastra +ours):\n%s", key, diff)
	}
}

// ask_<agent> and run_<workflow> answer with the agent's output and the
// run's result, as Mastra does (compared on the fields both runtimes
// define the same way: ids and timestamps differ by nature).
func TestAgentAndWorkflowCallsMatchMastra(t *testing.T) {
	c := loadCapture(t)
	cs := connect(t, fixtureServer(t), clientOptions{})
	call := func(name string, args any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		return jsonValue(t, []byte(res.Content[0].(*mcp.TextContent).Text)).(map[string]any)
	}
	captured := func(key string) map[string]any {
		return jsonValue(t, []byte(c.result(t, key).Content[0].Text)).(map[string]any)
	}
	agentOut, wantAgent := call("ask_helper", map[string]any{"message": "Hello?"}), captured("callAgent")
	for _, k := range []string{"text", "finishReason"} {
		if agentOut[k] != wantAgent[k] {
			t.Errorf("ask_helper %s = %v, Mastra %v", k, agentOut[k], wantAgent[k])
		}
	}
	for _, k := range []string{"steps", "toolCalls", "toolResults", "response", "usage", "runId"} {
		if _, ok := agentOut[k]; !ok {
			t.Errorf("ask_helper output has no %q", k)
		}
	}
	for _, wc := range []struct {
		key, name string
		args      any
		fields    []string
	}{
		{"callWorkflow", "run_double", map[string]any{"n": 21}, []string{"status", "input", "stepExecutionPath", "result"}},
		{"callWorkflowSuspends", "run_approval", map[string]any{"item": "laptop"}, []string{"status", "input", "stepExecutionPath", "suspended", "suspendPayload"}},
	} {
		got, want := call(wc.name, wc.args), captured(wc.key)
		for _, f := range wc.fields {
			if diff := cmp.Diff(want[f], got[f]); diff != "" {
				t.Errorf("%s %s (-Mastra +ours):\n%s", wc.name, f, diff)
			}
		}
		if id, _ := got["runId"].(string); len(id) != 36 {
			t.Errorf("%s runId = %v", wc.name, got["runId"])
		}
	}
}

// A suspending tool asks with Mastra's form and message, resumes with the
// answer, and ends as Mastra's does when the answer is invalid, declined
// or cancelled; over the newest protocol (input_required, answered by
// hand as Mastra's client answers it) and over 2025-11-25
// (elicitation/create, answered by the client's handler).
func TestSuspensionMatchesMastra(t *testing.T) {
	c := loadCapture(t)
	s := fixtureServer(t)
	wantQuestion := jsonValue(t, c.MCP["elicitRequest"])
	args := map[string]any{"action": "deploy"}
	for _, tc := range []struct {
		key    string
		answer *mcp.ElicitResult
	}{
		{"callConfirmAccept", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approved": true}}},
		{"callConfirmBadResume", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approved": "yes"}}},
		{"callConfirmDecline", &mcp.ElicitResult{Action: "decline"}},
		{"callConfirmCancel", &mcp.ElicitResult{Action: "cancel"}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			// 2026-07-28: input_required, then the same call with the answer.
			cs := connect(t, s, clientOptions{noMRTR: true, elicit: func(*mcp.ElicitParams) *mcp.ElicitResult { return nil }})
			first, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "confirm", Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			if !first.NeedsInput() || first.RequestState == "" || len(first.Content) != 0 {
				t.Fatalf("first round: %+v", first)
			}
			compareQuestion(t, wantQuestion, first.InputRequests[inputKey])
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "confirm", Arguments: args,
				InputResponses: mcp.InputResponseMap{inputKey: tc.answer}, RequestState: first.RequestState})
			if err != nil {
				t.Fatal(err)
			}
			compareResult(t, tc.key, c.result(t, tc.key), res)

			// 2025-11-25: elicitation/create while the call waits.
			var asked *mcp.ElicitParams
			legacy := connect(t, s, clientOptions{legacy: true, elicit: func(p *mcp.ElicitParams) *mcp.ElicitResult {
				asked = p
				return tc.answer
			}})
			res, err = legacy.CallTool(context.Background(), &mcp.CallToolParams{Name: "confirm", Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			compareQuestion(t, wantQuestion, asked)
			if tc.key == "callConfirmBadResume" {
				// The SDK checks an elicitation answer against the form
				// before the tool sees it (Mastra has no such path).
				if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "does not match requested schema") {
					t.Errorf("legacy invalid answer: %+v", res.Content[0])
				}
				return
			}
			compareResult(t, tc.key, c.result(t, tc.key), res)
		})
	}
}

func compareQuestion(t *testing.T, want any, got mcp.InputRequest) {
	t.Helper()
	if got == nil {
		t.Fatal("the client was not asked")
	}
	b, _ := json.Marshal(got)
	if diff := cmp.Diff(want, jsonValue(t, b)); diff != "" {
		t.Errorf("question (-Mastra +ours):\n%s", diff)
	}
}

// A requestState minted by Mastra (same key) verifies here: the
// continuation format is Mastra's.
func TestRequestStateIsMastras(t *testing.T) {
	c := loadCapture(t)
	var exchanges []struct {
		Response struct {
			Result struct {
				RequestState string `json:"requestState"`
			} `json:"result"`
		} `json:"response"`
	}
	if err := json.Unmarshal(c.MCP["exchanges"], &exchanges); err != nil {
		t.Fatal(err)
	}
	var state string
	for _, e := range exchanges {
		if st := e.Response.Result.RequestState; st != "" {
			state = st
			break
		}
	}
	if state == "" {
		t.Fatal("the capture has no requestState")
	}
	codec := &stateCodec{key: stateKey, ttl: defaultRequestStateTTL, now: func() time.Time { return time.Unix(0, 0) }}
	env, err := codec.verify(state)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := hashArguments(json.RawMessage(`{"action": "deploy"}`))
	if err != nil {
		t.Fatal(err)
	}
	if env.Method != "tools/call" || env.Name != "confirm" || env.ArgsHash != hash || env.Round != 1 ||
		env.Principal != "anonymous" || string(env.SuspendPayload) != `{"message":"Approve deploy?"}` {
		t.Errorf("envelope %+v (our args hash %s)", env, hash)
	}
	tampered := state[:len(state)-2] + "AA"
	if _, err := codec.verify(tampered); err == nil {
		t.Error("a tampered state verified")
	}
	codec.now = func() time.Time { return time.Unix(env.IssuedAt+601, 0) }
	if _, err := codec.verify(state); err != errStateExpired {
		t.Errorf("expired state: %v", err)
	}
}

// Construction errors carry Mastra's ids and texts.
func TestConstructionErrorsMatchMastra(t *testing.T) {
	c := loadCapture(t)
	noDesc := agentWithoutDescription(t)
	for _, tc := range []struct {
		key string
		cfg Config
	}{
		{"agentWithoutDescription", Config{Name: "x", Version: "1.0.0", Agents: mapOf("bare", noDesc)}},
		{"workflowWithoutDescription", Config{Name: "x", Version: "1.0.0", Workflows: mapOf("bare", bareWorkflow(t))}},
		{"nestedResumeSchema", Config{Name: "x", Version: "1.0.0", Tools: mapOf("nested", nestedResumeTool())}},
	} {
		want := c.Errors[tc.key]
		tc.cfg.Logger = discardLogger()
		_, err := New(tc.cfg)
		var me *mastra.Error
		if !errors.As(err, &me) {
			t.Fatalf("%s: %v is not a *mastra.Error", tc.key, err)
		}
		if me.Message != want.Message || me.ID != want.ID || string(me.Domain) != want.Domain || string(me.Category) != want.Category {
			t.Errorf("%s: %s %s %s %q\n Mastra: %s %s %s %q", tc.key, me.ID, me.Domain, me.Category, me.Message, want.ID, want.Domain, want.Category, want.Message)
		}
	}
}

// The REST routes answer as Mastra's: statuses and bodies.
func TestRESTMatchesMastra(t *testing.T) {
	c := loadCapture(t)
	s := fixtureServer(t)
	api := server.New(mastra.New(mastra.Config{Logger: discardLogger()}), server.Options{Routes: Routes(s), Logger: discardLogger()})
	ts := httptest.NewServer(api)
	t.Cleanup(ts.Close)
	for _, tc := range []struct {
		key, method, path, body string
		// volatile are result fields compared on presence only.
		volatile bool
	}{
		{"listServers", "GET", "/api/mcp/v0/servers", "", false},
		{"listServersPaged", "GET", "/api/mcp/v0/servers?perPage=1&page=0", "", false},
		{"getServer", "GET", "/api/mcp/v0/servers/my-server", "", false},
		{"getServerWrongVersion", "GET", "/api/mcp/v0/servers/my-server?version=9.9.9", "", false},
		{"getServerMissing", "GET", "/api/mcp/v0/servers/nope", "", false},
		{"listTools", "GET", "/api/mcp/my-server/tools", "", false},
		{"listToolsMissing", "GET", "/api/mcp/nope/tools", "", false},
		{"getTool", "GET", "/api/mcp/my-server/tools/adder", "", false},
		{"getToolMissing", "GET", "/api/mcp/my-server/tools/nope", "", false},
		{"executeTool", "POST", "/api/mcp/my-server/tools/adder/execute", `{"data":{"a":2,"b":3}}`, false},
		{"executeToolText", "POST", "/api/mcp/my-server/tools/echoText/execute", `{"data":{"text":"hi"}}`, false},
		{"executeToolInvalid", "POST", "/api/mcp/my-server/tools/adder/execute", `{"data":{"a":"x"}}`, false},
		{"executeToolThrows", "POST", "/api/mcp/my-server/tools/fail/execute", `{"data":{}}`, false},
		{"executeToolMissing", "POST", "/api/mcp/my-server/tools/nope/execute", `{"data":{}}`, false},
		{"executeToolSuspends", "POST", "/api/mcp/my-server/tools/confirm/execute", `{"data":{"action":"deploy"}}`, false},
		{"executeToolResumes", "POST", "/api/mcp/my-server/tools/confirm/execute",
			`{"data":{"action":"deploy"},"resumeData":{"approved":true},"suspendPayload":{"message":"Approve deploy?"}}`, false},
		{"executeWorkflow", "POST", "/api/mcp/my-server/tools/run_double/execute", `{"data":{"n":21}}`, true},
		{"executeToolBadBody", "POST", "/api/mcp/my-server/tools/adder/execute", `{"data":{},"extra":1}`, false},
	} {
		want := c.REST[tc.key]
		req, _ := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(tc.body))
		if tc.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want.Status {
			t.Errorf("%s: status %d, Mastra %d (%s)", tc.key, resp.StatusCode, want.Status, body)
		}
		got, wantV := jsonValue(t, body), jsonValue(t, want.Body)
		if tc.volatile {
			got, wantV = workflowCore(got), workflowCore(wantV)
		}
		if diff := cmp.Diff(wantV, got); diff != "" {
			t.Errorf("%s (-Mastra +ours):\n%s", tc.key, diff)
		}
		if !bytes.Contains([]byte(resp.Header.Get("Content-Type")), []byte("application/json")) {
			t.Errorf("%s: content type %q", tc.key, resp.Header.Get("Content-Type"))
		}
	}
}

// workflowCore keeps the fields of {result: <run result>} both runtimes
// fill the same way.
func workflowCore(v any) any {
	m, _ := v.(map[string]any)
	r, _ := m["result"].(map[string]any)
	out := map[string]any{}
	for _, k := range []string{"status", "input", "stepExecutionPath", "result"} {
		out[k] = r[k]
	}
	return out
}
