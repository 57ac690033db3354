package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/workflows"
)

// capturedExchange is one exchange of a testdata/observe capture.
type capturedExchange struct {
	Case       string            `json:"case"`
	Method     string            `json:"method"`
	URL        string            `json:"url"`
	Status     int               `json:"status"`
	ResHeaders map[string]string `json:"resHeaders"`
	ResBody    string            `json:"resBody"`
}

// readObserveCapture reads the first exchange of testdata/observe/name.
func readObserveCapture(t *testing.T, name string) capturedExchange {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "observe", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	if !sc.Scan() {
		t.Fatalf("%s: empty", name)
	}
	var ex capturedExchange
	if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
		t.Fatal(err)
	}
	return ex
}

// wallClockAndIDs matches the values of a workflow chunk that differ
// from run to run: step call ids and times.
var wallClockAndIDs = regexp.MustCompile(`"(stepCallId)":"[^"]*"|"(startedAt|endedAt)":\d+`)

func sameShape(b string) string { return wallClockAndIDs.ReplaceAllString(b, `"$1$2":0`) }

// doubleWorkflow is the capture's double-workflow: one step, {n} -> {n: 2n}.
func doubleWorkflow(cfg workflows.Config) *workflows.Workflow {
	double := workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "double",
		Execute: func(_ workflows.StepContext, in wfIn) (wfIn, error) { return wfIn{N: in.N * 2}, nil }})
	w := workflows.New(cfg).Then(double)
	if err := w.Commit(); err != nil {
		panic(err)
	}
	return w
}

func withDoubleWorkflow() fixtureOpt {
	return withRegistry(func(c *mastra.Config) {
		c.Workflows = map[string]*workflows.Workflow{"double-workflow": doubleWorkflow(workflows.Config{ID: "double-workflow"})}
	})
}

// TestWorkflowObserveMatchesMastra: POST /workflows/:id/observe answers
// as Mastra's does (testdata/observe cases 23-28): the run's records,
// from ?offset=, text/plain; 404s for an unknown run or workflow, 400
// without runId.
func TestWorkflowObserveMatchesMastra(t *testing.T) {
	f := newFixture(t, withDoubleWorkflow())
	for _, c := range []struct{ file, body string }{
		{"23-workflow-stream.jsonl", `{"inputData":{"n":21}}`},
		{"24-workflow-observe.jsonl", ""},
		{"25-workflow-observe-offset.jsonl", ""},
		{"26-workflow-observe-unknown-run.jsonl", ""},
		{"27-workflow-observe-no-runid.jsonl", ""},
		{"28-workflow-observe-unknown-workflow.jsonl", ""},
	} {
		ex := readObserveCapture(t, c.file)
		resp, body := f.do(t, ex.Method, ex.URL, c.body)
		if resp.StatusCode != ex.Status || sameShape(string(body)) != sameShape(ex.ResBody) {
			t.Errorf("%s: %d %q\nwant %d %q", ex.Case, resp.StatusCode, body, ex.Status, ex.ResBody)
		}
		if got, want := resp.Header.Get("Content-Type"), ex.ResHeaders["content-type"]; got != want {
			t.Errorf("%s: content-type %q, want %q", ex.Case, got, want)
		}
	}
}

// TestWorkflowObserveRefusesBadOffsets: an offset that is not a
// non-negative safe integer is a 400 naming it (Mastra reads negative
// offsets from the end and truncates fractions; gomastra refuses them).
func TestWorkflowObserveRefusesBadOffsets(t *testing.T) {
	f := newFixture(t, withDoubleWorkflow())
	if resp, body := f.do(t, "POST", "/api/workflows/double-workflow/stream?runId=r1", `{"inputData":{"n":1}}`); resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	for offset, msg := range map[string]string{
		"-1":                "Too small: expected number to be >=0",
		"1.5":               "Invalid input: expected int, received number",
		"abc":               "Invalid input: expected number, received NaN",
		"9007199254740992":  "Too big: expected number to be <=9007199254740991",
		"1e400":             "Too big: expected number to be <=9007199254740991",
		"99999999999999999": "Too big: expected number to be <=9007199254740991",
	} {
		resp, body := f.do(t, "POST", "/api/workflows/double-workflow/observe?runId=r1&offset="+offset, "")
		want := `{"error":"Invalid query parameters","issues":[{"field":"offset","message":"` + msg + `"}]}`
		if resp.StatusCode != 400 || string(body) != want {
			t.Errorf("offset %s: %d %s, want 400 %s", offset, resp.StatusCode, body, want)
		}
	}
	// Past the end of an ended run: nothing, and the body ends.
	resp, body := f.do(t, "POST", "/api/workflows/double-workflow/observe?runId=r1&offset=9007199254740991", "")
	if resp.StatusCode != 200 || len(body) != 0 {
		t.Errorf("offset past the end: %d %q", resp.StatusCode, body)
	}
}

// TestWorkflowObserveChecksTheRunsResource: with Options.Auth, a run of
// another resource is refused as the other run routes refuse it.
func TestWorkflowObserveChecksTheRunsResource(t *testing.T) {
	f := newFixture(t, withDoubleWorkflow(), withOptions(Options{Auth: func(r *http.Request) (string, error) {
		return r.Header.Get("X-User"), nil
	}}))
	if resp, body := f.do(t, "POST", "/api/workflows/double-workflow/stream?runId=mine", `{"inputData":{"n":1}}`, "X-User", "alice"); resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	resp, body := f.do(t, "POST", "/api/workflows/double-workflow/observe?runId=mine", "", "X-User", "bob")
	if resp.StatusCode != 403 || string(body) != `{"error":"Access denied: workflow run belongs to a different resource"}` {
		t.Errorf("another resource's run: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/workflows/double-workflow/observe?runId=mine", "", "X-User", "alice")
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"workflowStatus":"success"`)) {
		t.Errorf("the resource's own run: %d %s", resp.StatusCode, body)
	}
}

// gatedWorkflow runs "first", then "gated", which waits for release.
func gatedWorkflow(id string, release <-chan struct{}) *workflows.Workflow {
	first := workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "first",
		Execute: func(_ workflows.StepContext, in wfIn) (wfIn, error) { return wfIn{N: in.N + 1}, nil }})
	gated := workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "gated",
		Execute: func(ctx workflows.StepContext, in wfIn) (wfIn, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return wfIn{}, ctx.Err()
			}
			return wfIn{N: in.N * 10}, nil
		}})
	w := workflows.New(workflows.Config{ID: id}).Then(first).Then(gated)
	if err := w.Commit(); err != nil {
		panic(err)
	}
	return w
}

// readRecords reads n \x1e-terminated records from r.
func readRecords(t *testing.T, r *bufio.Reader, n int) []string {
	t.Helper()
	var out []string
	for range n {
		rec, err := r.ReadString('\x1e')
		if err != nil {
			t.Fatalf("after %d records: %v", len(out), err)
		}
		out = append(out, rec)
	}
	return out
}

// TestWorkflowStreamDisconnectDetaches: a client that drops
// /workflows/:id/stream mid-run detaches; the run goes on to its end,
// and observing it from 0 reads every record through its finish.
func TestWorkflowStreamDisconnectDetaches(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, withRegistry(func(c *mastra.Config) {
		c.Workflows = map[string]*workflows.Workflow{"gated": gatedWorkflow("gated", release)}
	}))
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", f.ts.URL+"/api/workflows/gated/stream?runId=dc-1", strings.NewReader(`{"inputData":{"n":1}}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	readRecords(t, bufio.NewReader(resp.Body), 4) // start, first's start and result, gated's start
	cancel()
	_ = resp.Body.Close()
	time.Sleep(50 * time.Millisecond) // the server sees the disconnect
	close(release)
	_, body := f.do(t, "POST", "/api/workflows/gated/observe?runId=dc-1", "")
	types := chunkTypes(splitRecords(t, body))
	want := "workflow-start workflow-step-start workflow-step-result workflow-step-start workflow-step-result workflow-finish"
	if strings.Join(types, " ") != want || !bytes.Contains(body, []byte(`"workflowStatus":"success","metadata":{},"output":{"usage":{"inputTokens":0,"outputTokens":0,"totalTokens":0,"cachedInputTokens":0,"cacheCreationInputTokens":0,"reasoningTokens":0}},"finalWorkflowResult":{"n":20}`)) {
		t.Errorf("observed after the disconnect: %v\n%s", types, body)
	}
}

// TestWorkflowObserveFollowsALiveRun: an observer that joins a run
// executing in the server reads the history, then the rest as it comes,
// and its body ends with the run's finish.
func TestWorkflowObserveFollowsALiveRun(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	releaseOnce := func() { once.Do(func() { close(release) }) }
	defer releaseOnce()
	f := newFixture(t, withRegistry(func(c *mastra.Config) {
		c.Workflows = map[string]*workflows.Workflow{"gated": gatedWorkflow("gated", release)}
	}))
	streamed := make(chan []byte, 1)
	go func() {
		_, body := f.do(t, "POST", "/api/workflows/gated/stream?runId=live-1", `{"inputData":{"n":1}}`)
		streamed <- body
	}()
	var resp *http.Response
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var err error
		resp, err = http.Post(f.ts.URL+"/api/workflows/gated/observe?runId=live-1&offset=1", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == 200 || time.Now().After(deadline) {
			break
		}
		_ = resp.Body.Close() // 404 until the run is stored
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	history := readRecords(t, rd, 3) // first's start and result, gated's start
	releaseOnce()
	rest, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	all := <-streamed
	if got, want := strings.Join(history, "")+string(rest), string(all[len(readRecords(t, bufio.NewReader(bytes.NewReader(all)), 1)[0]):]); got != want {
		t.Errorf("observed from 1:\n%q\nwant the stream's records from 1:\n%q", got, want)
	}
}

// TestWorkflowResumeStreamDisconnectDetaches: a client that drops
// resume-stream mid-run detaches too; the resumed run goes on, and the
// run's log holds the suspended execution, then the resumed one, to its
// finish.
func TestWorkflowResumeStreamDisconnectDetaches(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	releaseOnce := func() { once.Do(func() { close(release) }) }
	defer releaseOnce()
	ask := workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "ask", ResumeSchema: workflows.MustSchemaFor[wfApproval](),
		Execute: func(ctx workflows.StepContext, in wfIn) (wfIn, error) {
			if ctx.ResumeData() == nil {
				return wfIn{}, ctx.Suspend(map[string]int{"n": in.N})
			}
			return in, nil
		}})
	wf := workflows.New(workflows.Config{ID: "ask-then-gate"}).Then(ask).Then(gatedWorkflow("inner", release).AsStep())
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, withRegistry(func(c *mastra.Config) { c.Workflows = map[string]*workflows.Workflow{"ask-then-gate": wf} }))
	if resp, body := f.do(t, "POST", "/api/workflows/ask-then-gate/stream?runId=rs-1", `{"inputData":{"n":1}}`); resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", f.ts.URL+"/api/workflows/ask-then-gate/resume-stream?runId=rs-1", strings.NewReader(`{"resumeData":{"ok":true}}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	readRecords(t, bufio.NewReader(resp.Body), 3) // start, ask's start and result
	cancel()
	_ = resp.Body.Close()
	time.Sleep(50 * time.Millisecond)
	releaseOnce()
	_, body := f.do(t, "POST", "/api/workflows/ask-then-gate/observe?runId=rs-1", "")
	got := strings.Join(chunkTypes(splitRecords(t, body)), " ")
	want := "workflow-start workflow-step-start workflow-step-suspended workflow-finish " +
		"workflow-start workflow-step-start workflow-step-result workflow-step-start workflow-step-result workflow-finish"
	if got != want || !bytes.Contains(body, []byte(`"workflowStatus":"success"`)) {
		t.Errorf("observed after the dropped resume: %s\n%s", got, body)
	}
}

// TestWorkflowObserveAsSSE: on Accept: text/event-stream, observe
// answers the run's chunks as SSE frames, then [DONE].
func TestWorkflowObserveAsSSE(t *testing.T) {
	f := newFixture(t, withDoubleWorkflow())
	if resp, body := f.do(t, "POST", "/api/workflows/double-workflow/stream?runId=sse-1", `{"inputData":{"n":1}}`); resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	resp, body := f.do(t, "POST", "/api/workflows/double-workflow/observe?runId=sse-1&offset=3", "", "Accept", "text/event-stream")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" ||
		!strings.HasPrefix(string(body), `data: {"type":"workflow-finish"`) || !strings.HasSuffix(string(body), "\n\ndata: [DONE]\n\n") {
		t.Errorf("observe as SSE: %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}
