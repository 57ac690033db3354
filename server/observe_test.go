package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/tools"
)

// observeCapture is one exchange of testdata/observe/*.jsonl: real
// Mastra's answer.
type observeCapture struct {
	Case    string         `json:"case"`
	Method  string         `json:"method"`
	URL     string         `json:"url"`
	ReqBody string         `json:"reqBody"`
	Status  int            `json:"status"`
	Headers map[string]any `json:"resHeaders"`
	ResBody string         `json:"resBody"`
}

func readObserveCaptures(t *testing.T, name string) []observeCapture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "observe", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []observeCapture
	for line := range bytes.Lines(b) {
		var c observeCapture
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// sseFrames splits an SSE body into its data payloads.
func sseFrames(body string) []string {
	var out []string
	for _, f := range strings.Split(body, "\n\n") {
		if d, ok := strings.CutPrefix(f, "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

// frameShape is an observe frame's keys in order, its type and its
// data's type (the chunk's, for chunk frames).
func frameShape(t *testing.T, frame string) string {
	t.Helper()
	keys := topKeys(t, frame)
	var f struct {
		Type string `json:"type"`
		Data struct {
			Type string `json:"type"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(frame), &f); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%v %s/%s", keys, f.Type, f.Data.Type)
}

func (f *fixture) runIDOf(t *testing.T, body []byte) string {
	t.Helper()
	frames := sseFrames(string(body))
	if len(frames) == 0 {
		t.Fatalf("no frames: %s", body)
	}
	var c struct {
		RunID string `json:"runId"`
	}
	_ = json.Unmarshal([]byte(frames[0]), &c)
	return c.RunID
}

// TestObserveMatchesCapture: a finished run observed from 0 answers
// the frames real Mastra sent for the same scripted run: the same event
// and chunk types in the same order (Mastra's durable agent adds a
// response-metadata chunk per step, which a plain agent's stream does
// not have), the same keys in the same order, contiguous indexes, then
// [DONE]; offsets start at their index.
func TestObserveMatchesCapture(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","runId":"run-obs-1","memory":{"thread":"thread-calc","resource":"user-1"}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	for _, name := range []string{"02-observe-replay-all.jsonl", "04-observe-offset-0.jsonl"} {
		want := readObserveCaptures(t, name)[0]
		resp, got := f.do(t, "POST", "/api/agents/calc-agent/observe", want.ReqBody)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d %v", name, resp.StatusCode, resp.Header)
		}
		var wantShapes, gotShapes []string
		for _, fr := range sseFrames(want.ResBody) {
			if fr != "[DONE]" && !strings.Contains(fr, `"data":{"type":"response-metadata"`) {
				wantShapes = append(wantShapes, frameShape(t, fr))
			}
		}
		frames := sseFrames(string(got))
		for i, fr := range frames[:len(frames)-1] {
			gotShapes = append(gotShapes, frameShape(t, fr))
			var e struct{ Index int }
			_ = json.Unmarshal([]byte(fr), &e)
			if e.Index != i {
				t.Errorf("%s: frame %d has index %d", name, i, e.Index)
			}
		}
		if d := cmp.Diff(wantShapes, gotShapes); d != "" || frames[len(frames)-1] != "[DONE]" {
			t.Errorf("%s (-mastra +gomastra):\n%s", name, d)
		}
	}
	for _, c := range []struct {
		body       string
		firstIndex int
		frames     int
	}{
		{`{"runId":"run-obs-1","offset":10}`, 10, 9},
		{`{"runId":"run-obs-1","offset":18}`, 18, 1},  // the last: finish only
		{`{"runId":"run-obs-1","offset":1.5}`, 1, 18}, // a fraction truncates, as Mastra's slice does
	} {
		_, got := f.do(t, "POST", "/api/agents/calc-agent/observe", c.body)
		frames := sseFrames(string(got))
		var e struct{ Index int }
		_ = json.Unmarshal([]byte(frames[0]), &e)
		if e.Index != c.firstIndex || len(frames)-1 != c.frames || frames[len(frames)-1] != "[DONE]" {
			t.Errorf("%s: first index %d, %d frames", c.body, e.Index, len(frames)-1)
		}
	}
}

// TestObserveBadInputs: the answers real Mastra gave for a string
// offset, no runId, an unknown agent and bad JSON, byte for byte; and
// ours where Mastra hangs or reads from the end: an unknown run is a
// 404, a negative offset and one past an ended run's end are 400s, an
// offset at the end is [DONE] at once.
func TestObserveBadInputs(t *testing.T) {
	f := newFixture(t)
	f.do(t, "POST", "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","runId":"run-obs-1"}`)
	for _, name := range []string{"10-observe-offset-string.jsonl", "12-observe-no-runid.jsonl", "13-observe-unknown-agent.jsonl", "14-observe-bad-json.jsonl"} {
		want := readObserveCaptures(t, name)[0]
		path := strings.TrimPrefix(want.URL, "/api")
		resp, got := f.do(t, "POST", "/api"+strings.Replace(path, "durable-calc", "calc-agent", 1), want.ReqBody)
		if resp.StatusCode != want.Status || string(got) != want.ResBody {
			t.Errorf("%s: %d %s\nwant %d %s", name, resp.StatusCode, got, want.Status, want.ResBody)
		}
	}
	for _, c := range []struct {
		body   string
		status int
		answer string
	}{
		{`{"runId":"no-such-run"}`, 404, `{"error":"Agent run not found"}`},
		{`{"runId":"run-obs-1","offset":-1}`, 400, `{"error":"Invalid request body","issues":[{"field":"offset","message":"Too small: expected number to be >=0"}]}`},
		{`{"runId":"run-obs-1","offset":20}`, 400, `{"error":"Invalid request body","issues":[{"field":"offset","message":"Offset 20 is past the end of run run-obs-1, which has 19 events"}]}`},
		{`{"runId":"run-obs-1","offset":19}`, 200, "data: [DONE]\n\n"},
	} {
		resp, got := f.do(t, "POST", "/api/agents/calc-agent/observe", c.body)
		if resp.StatusCode != c.status || string(got) != c.answer {
			t.Errorf("%s: %d %s\nwant %d %s", c.body, resp.StatusCode, got, c.status, c.answer)
		}
	}
}

// gateTool is an add tool that blocks until released, whatever its
// context says (as the captured JS tool ignores its abort signal), and
// reports each start and the cause its context ended with.
type gateTool struct {
	started, release chan struct{}
	causes           chan error
}

func newGateTool() *gateTool {
	return &gateTool{started: make(chan struct{}, 4), release: make(chan struct{}, 4), causes: make(chan error, 4)}
}

func (g *gateTool) tool() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers, slowly",
		Execute: func(ctx tools.Context, in addIn) (addOut, error) {
			g.started <- struct{}{}
			<-g.release
			if ctx.Err() != nil {
				g.causes <- context.Cause(ctx)
			}
			return addOut{Sum: in.A + in.B}, nil
		}})
}

func (g *gateTool) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool did not start")
	}
}

// openStream posts a stream request and returns the open response once
// its first frame has come.
func (f *fixture) openStream(t *testing.T, ctx context.Context, body string, hdr ...string) (*http.Response, *bufio.Reader) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", f.ts.URL+"/api/agents/calc-agent/stream", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	if _, err := br.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	return resp, br
}

// lastEvent is the last observe frame before [DONE], decoded.
func lastEvent(t *testing.T, body []byte) map[string]any {
	t.Helper()
	frames := sseFrames(string(body))
	if len(frames) < 2 || frames[len(frames)-1] != "[DONE]" {
		t.Fatalf("no [DONE]: %s", body)
	}
	var e map[string]any
	if err := json.Unmarshal([]byte(frames[len(frames)-2]), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func finishReason(e map[string]any) any {
	data, _ := e["data"].(map[string]any)
	sr, _ := data["stepResult"].(map[string]any)
	return sr["reason"]
}

// TestStreamDisconnectDetachesTheReader: a client that drops the
// connection mid-stream (a tool running) detaches its reader only: the
// run goes on and finishes, and observing it from 0 ends with its
// finish, then [DONE]; events appended while a reader waits carry
// deliveryAttempt 1, last.
func TestStreamDisconnectDetachesTheReader(t *testing.T) {
	g := newGateTool()
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": g.tool()} }))
	ctx, cancel := context.WithCancel(context.Background())
	resp, _ := f.openStream(t, ctx, `{"messages":"What is 2+3?","runId":"run-dc-1"}`)
	g.waitStarted(t)
	cancel()
	resp.Body.Close()
	observed := make(chan []byte, 1)
	go func() {
		_, b := f.do(t, "POST", "/api/agents/calc-agent/observe", `{"runId":"run-dc-1"}`)
		observed <- b
	}()
	time.Sleep(100 * time.Millisecond) // the observer waits for the run
	g.release <- struct{}{}
	var body []byte
	select {
	case body = <-observed:
	case <-time.After(5 * time.Second):
		t.Fatal("the observer did not see the run end")
	}
	last := lastEvent(t, body)
	if last["type"] != "finish" || finishReason(last) != "stop" || last["deliveryAttempt"] != 1.0 {
		t.Errorf("last event: %v", last)
	}
	frames := sseFrames(string(body))
	if keys := topKeys(t, frames[len(frames)-2]); !cmp.Equal(keys, []string{"type", "runId", "data", "id", "createdAt", "index", "deliveryAttempt"}) {
		t.Errorf("live frame keys %v", keys)
	}
	if keys := topKeys(t, frames[0]); !cmp.Equal(keys, []string{"type", "runId", "data", "id", "createdAt", "index"}) {
		t.Errorf("history frame keys %v", keys)
	}
	select {
	case cause := <-g.causes:
		t.Errorf("the tool's context ended (%v): the disconnect reached the run", cause)
	default:
	}
}

// topKeys are the keys of a JSON object, in order.
func topKeys(t *testing.T, obj string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", obj)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestObserveIdleBeforeAnyEventAnswersSSE: an observe stream that has
// had no event when its idle time ends still answers as an SSE stream
// (its headers, an empty body), not as an empty 200 without a type.
func TestObserveIdleBeforeAnyEventAnswersSSE(t *testing.T) {
	defer func(d time.Duration) { observeIdleTimeout = d }(observeIdleTimeout)
	observeIdleTimeout = 100 * time.Millisecond
	g := newGateTool()
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": g.tool()} }))
	resp, _ := f.openStream(t, t.Context(), `{"messages":"What is 2+3?","runId":"run-idle-1"}`)
	defer resp.Body.Close()
	g.waitStarted(t)
	defer func() { g.release <- struct{}{} }()
	r, body := f.do(t, "POST", "/api/agents/calc-agent/observe", `{"runId":"run-idle-1","offset":1000}`)
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/event-stream" || len(body) != 0 {
		t.Errorf("idle observe: %d %q %q", r.StatusCode, r.Header.Get("Content-Type"), body)
	}
}
