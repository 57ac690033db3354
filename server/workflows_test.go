package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/workflows"
)

type wfIn struct {
	N int `json:"n"`
}

type wfOut struct {
	N  int  `json:"n"`
	OK bool `json:"ok"`
}

type wfApproval struct {
	OK bool `json:"ok"`
}

// approvalWorkflow doubles n, then waits for {ok} before finishing.
func approvalWorkflow() *workflows.Workflow {
	return approvalWorkflowIn(workflows.Config{ID: "approve-wf", Description: "Doubles, then waits"})
}

// approvalWorkflowIn is approvalWorkflow with cfg (its storage).
func approvalWorkflowIn(cfg workflows.Config) *workflows.Workflow {
	double := workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "double", Description: "Doubles n",
		Execute: func(_ workflows.StepContext, in wfIn) (wfIn, error) { return wfIn{N: in.N * 2}, nil }})
	wait := workflows.NewStep(workflows.StepConfig[wfIn, wfOut]{ID: "wait",
		ResumeSchema: workflows.MustSchemaFor[wfApproval](),
		Execute: func(ctx workflows.StepContext, in wfIn) (wfOut, error) {
			if ctx.ResumeData() == nil {
				return wfOut{}, ctx.Suspend(map[string]int{"n": in.N})
			}
			var a wfApproval
			if err := workflows.DecodeResumeData(ctx, &a); err != nil {
				return wfOut{}, err
			}
			return wfOut{N: in.N, OK: a.OK}, nil
		}})
	w := workflows.New(cfg).Then(double).Then(wait)
	if err := w.Commit(); err != nil {
		panic(err)
	}
	return w
}

func withWorkflow() fixtureOpt {
	return withRegistry(func(c *mastra.Config) {
		c.Workflows = map[string]*workflows.Workflow{"approveWf": approvalWorkflow()}
	})
}

func TestWorkflowInfo(t *testing.T) {
	f := newFixture(t, withWorkflow())
	resp, body := f.do(t, "GET", "/api/workflows/approve-wf", "")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	// Mastra's workflow info: draft-07 schemas, origin, allSteps'
	// isWorkflow, the 1.71 step graph (canSuspend), the default options.
	in := `"{\"json\":{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":-9007199254740991,\"maximum\":9007199254740991}},\"required\":[\"n\"],\"additionalProperties\":false}}"`
	out := `"{\"json\":{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":-9007199254740991,\"maximum\":9007199254740991},\"ok\":{\"type\":\"boolean\"}},\"required\":[\"n\",\"ok\"],\"additionalProperties\":false}}"`
	resume := `"{\"json\":{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}},\"required\":[\"ok\"],\"additionalProperties\":false}}"`
	want := `{"name":"approve-wf","description":"Doubles, then waits","origin":"code",` +
		`"steps":{"double":{"id":"double","description":"Doubles n","inputSchema":` + in + `,"outputSchema":` + in + `},` +
		`"wait":{"id":"wait","inputSchema":` + in + `,"outputSchema":` + out + `,"resumeSchema":` + resume + `}},` +
		`"allSteps":{"double":{"id":"double","description":"Doubles n","inputSchema":` + in + `,"outputSchema":` + in + `,"isWorkflow":false},` +
		`"wait":{"id":"wait","inputSchema":` + in + `,"outputSchema":` + out + `,"resumeSchema":` + resume + `,"isWorkflow":false}},` +
		`"stepGraph":[{"type":"step","step":{"id":"double","description":"Doubles n","canSuspend":false}},{"type":"step","step":{"id":"wait","canSuspend":true}}],` +
		`"inputSchema":` + in + `,"outputSchema":` + out + `,"options":{"validateInputs":true,"emitStepEvents":true},"isProcessorWorkflow":false}`
	if string(body) != want {
		t.Errorf("workflow info\n got  %s\n want %s", body, want)
	}
	resp, body = f.do(t, "GET", "/api/workflows", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"approveWf":{"name":"approve-wf"`) {
		t.Errorf("list: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/workflows?partial=true", "")
	wantPartial := `{"approveWf":{"name":"approve-wf","description":"Doubles, then waits","stepCount":2,` +
		`"stepGraph":[{"type":"step","step":{"id":"double","description":"Doubles n","canSuspend":false}},{"type":"step","step":{"id":"wait","canSuspend":true}}],` +
		`"options":{"validateInputs":true,"emitStepEvents":true},"steps":{},"allSteps":{},"origin":"code"}}`
	if resp.StatusCode != 200 || string(body) != wantPartial {
		t.Errorf("partial list: %d\n got  %s\n want %s", resp.StatusCode, body, wantPartial)
	}
	if resp, body := f.do(t, "GET", "/api/workflows/nope", ""); resp.StatusCode != 404 || string(body) != `{"error":"Workflow not found"}` {
		t.Errorf("missing: %d %s", resp.StatusCode, body)
	}
}

func TestWorkflowStartResume(t *testing.T) {
	f := newFixture(t, withWorkflow())
	resp, body := f.do(t, "POST", "/api/workflows/approve-wf/create-run?runId=r1", `{}`)
	if resp.StatusCode != 200 || string(body) != `{"runId":"r1"}` {
		t.Fatalf("create-run: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/workflows/approve-wf/runs/r1", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"status":"pending"`) {
		t.Errorf("pending run: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/workflows/approveWf/start-async?runId=r1", `{"inputData":{"n":21}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("start-async: %d %s", resp.StatusCode, body)
	}
	var res struct {
		Status         string                     `json:"status"`
		Suspended      [][]string                 `json:"suspended"`
		SuspendPayload map[string]json.RawMessage `json:"suspendPayload"`
		Result         json.RawMessage            `json:"result"`
		RunID          string                     `json:"runId"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != "suspended" || res.RunID != "r1" || string(res.SuspendPayload["wait"]) != `{"n":42}` {
		t.Fatalf("start result: %s", body)
	}
	resp, body = f.do(t, "GET", "/api/workflows/approve-wf/runs/r1", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"status":"suspended"`) || !strings.Contains(string(body), `"payload":{"n":21}`) {
		t.Errorf("suspended run: %d %s", resp.StatusCode, body)
	}
	// A second start of the same run is refused.
	if resp, body := f.do(t, "POST", "/api/workflows/approve-wf/start-async?runId=r1", `{"inputData":{"n":1}}`); resp.StatusCode != 409 {
		t.Errorf("second start: %d %s", resp.StatusCode, body)
	}
	// Bad resume data.
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/resume-async?runId=r1", `{"step":"wait","resumeData":{"ok":"yes"}}`)
	if resp.StatusCode != 400 || string(body) != `{"error":"Invalid resume data: \n- ok: Invalid input: expected boolean, received string"}` {
		t.Errorf("bad resume data: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/resume-async?runId=r1", `{"step":"nope","resumeData":{"ok":true}}`)
	if resp.StatusCode != 400 || string(body) != `{"error":"This workflow step \"nope\" was not suspended. Available suspended steps: [wait]"}` {
		t.Errorf("wrong step: %d %s", resp.StatusCode, body)
	}
	// The failed resumes left the run as it was.
	resp, body = f.do(t, "GET", "/api/workflows/approve-wf/runs/r1", "")
	if !strings.Contains(string(body), `"status":"suspended"`) || !strings.Contains(string(body), `"payload":{"n":21}`) {
		t.Errorf("after failed resumes: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/resume-async?runId=r1", `{"step":"wait","resumeData":{"ok":true}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("resume-async: %d %s", resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != "success" || string(res.Result) != `{"n":42,"ok":true}` {
		t.Fatalf("resume result: %s", body)
	}
	resp, body = f.do(t, "GET", "/api/workflows/approve-wf/runs/r1", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"status":"success","result":{"n":42,"ok":true}`) {
		t.Errorf("finished run: %d %s", resp.StatusCode, body)
	}
	// Resuming a finished run (Mastra's 500), or one that never was.
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/resume-async?runId=r1", `{"resumeData":{"ok":true}}`)
	if resp.StatusCode != 500 || string(body) != `{"error":"This workflow run was not suspended"}` {
		t.Errorf("resume a finished run: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/resume-async?runId=nope", `{"resumeData":{"ok":true}}`)
	if resp.StatusCode != 404 || string(body) != `{"error":"Workflow run not found"}` {
		t.Errorf("resume an unknown run: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.do(t, "GET", "/api/workflows/approve-wf/runs/nope", ""); resp.StatusCode != 404 {
		t.Errorf("unknown run: %d", resp.StatusCode)
	}
	if resp, _ := f.do(t, "POST", "/api/workflows/approve-wf/resume-async", `{}`); resp.StatusCode != 400 {
		t.Errorf("resume without runId: %d", resp.StatusCode)
	}
}

// splitRecords reads a "\x1E"-separated stream of chunks, as
// @mastra/client-js does.
func splitRecords(t *testing.T, body []byte) []stream.Chunk {
	t.Helper()
	if !bytes.HasSuffix(body, []byte("\x1e")) {
		t.Fatalf("records do not end with the separator: %q", body)
	}
	var out []stream.Chunk
	for _, rec := range bytes.Split(bytes.TrimSuffix(body, []byte("\x1e")), []byte("\x1e")) {
		var c stream.Chunk
		if err := json.Unmarshal(rec, &c); err != nil {
			t.Fatalf("record %q: %v", rec, err)
		}
		out = append(out, c)
	}
	return out
}

func TestWorkflowStreams(t *testing.T) {
	f := newFixture(t, withWorkflow())
	resp, body := f.do(t, "POST", "/api/workflows/approve-wf/stream?runId=s1", `{"inputData":{"n":2}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	cs := splitRecords(t, body)
	types := chunkTypes(cs)
	if types[0] != stream.TypeWorkflowStart || !strings.Contains(strings.Join(types, ","), stream.TypeWorkflowStepSuspended) {
		t.Errorf("stream chunks: %v", types)
	}
	// resume-stream as SSE, on request.
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/resume-stream?runId=s1", `{"step":["wait"],"resumeData":{"ok":false}}`,
		"Accept", "text/event-stream")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("resume-stream: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	cs = sseChunks(t, body)
	if last := cs[len(cs)-1]; last.Type != stream.TypeWorkflowFinish {
		t.Errorf("resume-stream ends with %s: %v", last.Type, chunkTypes(cs))
	}
	resp, body = f.do(t, "GET", "/api/workflows/approve-wf/runs/s1", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"status":"success"`) || !strings.Contains(string(body), `"result":{"n":4,"ok":false}`) {
		t.Errorf("streamed run: %d %s", resp.StatusCode, body)
	}
	// Input the workflow's input schema (its first step's) refuses: 400
	// before anything streams.
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/stream?runId=s2", `{"inputData":{"n":"x"}}`)
	if resp.StatusCode != 400 || string(body) != `{"error":"Invalid input data: \n- n: Invalid input: expected number, received string"}` {
		t.Errorf("invalid input: %d %s", resp.StatusCode, body)
	}
	// A later step that refuses its input: the run fails, in the stream.
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/stream?runId=s3", `{"inputData":{"n":4503599627370496}}`)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"workflowStatus":"failed"`)) {
		t.Errorf("a step refusing its input: %d %s", resp.StatusCode, body)
	}
}

// TestWorkflowConcurrentResume: of two resumes of one suspended run at
// once, exactly one succeeds.
func TestWorkflowConcurrentResume(t *testing.T) {
	f := newFixture(t, withWorkflow())
	if resp, body := f.do(t, "POST", "/api/workflows/approve-wf/start-async?runId=c1", `{"inputData":{"n":1}}`); resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var wg sync.WaitGroup
	statuses := make([]int, 4)
	bodies := make([]string, 4)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, body := f.do(t, "POST", "/api/workflows/approve-wf/resume-async?runId=c1", `{"resumeData":{"ok":true}}`)
			statuses[i], bodies[i] = resp.StatusCode, string(body)
		}()
	}
	wg.Wait()
	ok := 0
	for i, st := range statuses {
		switch {
		case st == 200 && strings.Contains(bodies[i], `"status":"success"`):
			ok++
		case st == 409 || st == 404 || st == 400:
		case st == 500 && bodies[i] == `{"error":"This workflow run was not suspended"}`:
			// It came after the winner had finished the run (Mastra's
			// answer to resuming a finished run).
		default:
			t.Errorf("resume %d: %d %s", i, st, bodies[i])
		}
	}
	if ok != 1 {
		t.Errorf("%d resumes succeeded, want 1: %v %v", ok, statuses, bodies)
	}
}

// TestWorkflowInvalidInput: input the workflow's schema refuses is 400
// (Mastra's workflow schema validation), before anything runs or streams.
func TestWorkflowInvalidInput(t *testing.T) {
	strict := workflows.New(workflows.Config{ID: "strict", InputSchema: workflows.MustSchemaFor[wfIn]()}).
		Then(workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "same",
			Execute: func(_ workflows.StepContext, in wfIn) (wfIn, error) { return in, nil }}))
	if err := strict.Commit(); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, withRegistry(func(c *mastra.Config) { c.Workflows = map[string]*workflows.Workflow{"strict": strict} }))
	for _, route := range []string{"start-async", "stream"} {
		resp, body := f.do(t, "POST", "/api/workflows/strict/"+route+"?runId=x-"+route, `{"inputData":{"n":"x"}}`)
		if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json" ||
			string(body) != `{"error":"Invalid input data: \n- n: Invalid input: expected number, received string"}` {
			t.Errorf("%s: %d %s", route, resp.StatusCode, body)
		}
	}
}

func TestWorkflowStartNoWait(t *testing.T) {
	f := newFixture(t, withWorkflow())
	// As Mastra's: a runId that create-run made is required.
	if resp, body := f.do(t, "POST", "/api/workflows/approve-wf/start", `{"inputData":{"n":5}}`); resp.StatusCode != 400 || !strings.Contains(string(body), `"Invalid query parameters"`) {
		t.Errorf("no runId: %d %s", resp.StatusCode, body)
	}
	if resp, body := f.do(t, "POST", "/api/workflows/approve-wf/start?runId=nope", `{"inputData":{"n":5}}`); resp.StatusCode != 404 || string(body) != `{"error":"Workflow run not found"}` {
		t.Errorf("unknown run: %d %s", resp.StatusCode, body)
	}
	if resp, body := f.do(t, "POST", "/api/workflows/approve-wf/create-run?runId=b1", `{}`); resp.StatusCode != 200 {
		t.Fatalf("create-run: %d %s", resp.StatusCode, body)
	}
	resp, body := f.do(t, "POST", "/api/workflows/approve-wf/start?runId=b1", `{"inputData":{"n":5}}`)
	if resp.StatusCode != 200 || string(body) != `{"message":"Workflow run started"}` {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	// The run goes on in the background; wait for it to suspend.
	for i := 0; ; i++ {
		_, body = f.do(t, "GET", "/api/workflows/approve-wf/runs/b1", "")
		if strings.Contains(string(body), `"status":"suspended"`) {
			break
		}
		if i > 500 {
			t.Fatalf("never suspended: %s", body)
		}
	}
	resp, body = f.do(t, "POST", "/api/workflows/approve-wf/resume?runId=b1", `{"resumeData":{"ok":true}}`)
	if resp.StatusCode != 200 || string(body) != `{"message":"Workflow run resumed"}` {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	for i := 0; ; i++ {
		_, body = f.do(t, "GET", "/api/workflows/approve-wf/runs/b1", "")
		if strings.Contains(string(body), `"status":"success"`) {
			break
		}
		if i > 500 {
			t.Fatalf("never finished: %s", body)
		}
	}
}
