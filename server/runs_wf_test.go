package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/workflows"
)

// The workflow run routes as Mastra 1.71's server answers them over its
// in-memory store (cmd/mastra/testdata/captured: workflow-run-list,
// workflow-run-get, workflow-run-cancel, workflow-run-resume-again,
// workflow-run-start-query-only, prefix-custom), checked here without
// Node.

// wfTimes replaces wall-clock values (…At and timestamp keys, ISO
// strings) with placeholders.
var (
	wfTimeKeyRE = regexp.MustCompile(`"([A-Za-z]*At|timestamp)":(\d+|"[^"]*")`)
	wfISORE     = regexp.MustCompile(`"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"`)
)

func wfTimes(b []byte) string {
	s := wfTimeKeyRE.ReplaceAllString(string(b), `"$1":"<t>"`)
	return wfISORE.ReplaceAllString(s, `"<t>"`)
}

// approveGraph is approvalWorkflow's serialized step graph.
const approveGraph = `[{"type":"step","step":{"id":"double","description":"Doubles n","canSuspend":false}},{"type":"step","step":{"id":"wait","canSuspend":true}}]`

// secondServer is another server over f's registry (and so the
// workflows' storage), with records of its own: what a restarted or
// another process's server sees.
func secondServer(t *testing.T, f *fixture) *fixture {
	t.Helper()
	srv := New(f.m, Options{Logger: quiet})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return &fixture{m: f.m, store: f.store, srv: srv, ts: ts}
}

func mustDo(t *testing.T, f *fixture, status int, method, path, body string) string {
	t.Helper()
	resp, b := f.do(t, method, path, body)
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, status)
	}
	return string(b)
}

// TestWorkflowRunGet (C5): a run as Mastra's GET .../runs/:runId shows
// it: payload first in step records, no input among the steps, no
// resume schema, the graph and suspended paths.
func TestWorkflowRunGet(t *testing.T) {
	f := newFixture(t, withWorkflow())
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/create-run?runId=p1", `{"resourceId":"res-1"}`)
	got := wfTimes([]byte(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/p1", "")))
	want := `{"runId":"p1","workflowName":"approve-wf","resourceId":"res-1","createdAt":"<t>","updatedAt":"<t>","status":"pending",` +
		`"steps":{},"activeStepsPath":{},"serializedStepGraph":` + approveGraph + `,"suspendedPaths":{},"resumeLabels":{},"waitingPaths":{}}`
	if got != want {
		t.Errorf("pending run\n got  %s\n want %s", got, want)
	}

	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=r1", `{"inputData":{"n":21}}`)
	suspended := `{"runId":"r1","workflowName":"approve-wf","createdAt":"<t>","updatedAt":"<t>","status":"suspended","payload":{"n":21},` +
		`"steps":{"double":{"payload":{"n":21},"startedAt":"<t>","status":"success","output":{"n":42},"endedAt":"<t>"},` +
		`"wait":{"payload":{"n":42},"startedAt":"<t>","status":"suspended","suspendPayload":{"n":42},"suspendedAt":"<t>"}},` +
		`"activeStepsPath":{},"serializedStepGraph":` + approveGraph + `,"suspendedPaths":{"wait":[1]},"resumeLabels":{},"waitingPaths":{}}`
	if got := wfTimes([]byte(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/r1", ""))); got != suspended {
		t.Errorf("suspended run\n got  %s\n want %s", got, suspended)
	}
	// Another server finds it in the workflow's storage.
	g := secondServer(t, f)
	if got := wfTimes([]byte(mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs/r1", ""))); got != suspended {
		t.Errorf("suspended run from storage\n got  %s\n want %s", got, suspended)
	}

	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/resume-async?runId=r1", `{"resumeData":{"ok":true}}`)
	got = wfTimes([]byte(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/r1?fields=result,steps", "")))
	want = `{"runId":"r1","workflowName":"approve-wf","createdAt":"<t>","updatedAt":"<t>","status":"success","result":{"n":42,"ok":true},` +
		`"steps":{"double":{"payload":{"n":21},"startedAt":"<t>","status":"success","output":{"n":42},"endedAt":"<t>"},` +
		`"wait":{"payload":{"n":42},"startedAt":"<t>","status":"success","resumePayload":{"ok":true},"resumedAt":"<t>","output":{"n":42,"ok":true},"endedAt":"<t>"}}}`
	if got != want {
		t.Errorf("finished run, fields=result,steps\n got  %s\n want %s", got, want)
	}
	for _, c := range []struct{ path, want string }{
		{"/api/workflows/approve-wf/runs/r1?fields=result,nope", `{"error":"Invalid query parameters","issues":[{"field":"fields","message":"Invalid field name. Available fields: result, error, payload, steps, activeStepsPath, serializedStepGraph"}]}`},
		{"/api/workflows/approve-wf/runs/r1?withNestedWorkflows=yes", `{"error":"Invalid query parameters","issues":[{"field":"withNestedWorkflows","message":"Invalid option: expected one of \"true\"|\"false\""}]}`},
	} {
		if got := mustDo(t, f, 400, "GET", c.path, ""); got != c.want {
			t.Errorf("%s: %s", c.path, got)
		}
	}
	if got := mustDo(t, f, 404, "GET", "/api/workflows/approve-wf/runs/nope", ""); got != `{"error":"Workflow run not found"}` {
		t.Errorf("unknown run: %s", got)
	}
}

// TestWorkflowRunList (C1): GET .../runs lists the runs the server made
// or ran and those in storage, newest first, as Mastra's in-memory store
// answers, with its filters and pages.
func TestWorkflowRunList(t *testing.T) {
	f := newFixture(t, withWorkflow())
	if got := mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs", ""); got != `{"runs":[],"total":0}` {
		t.Errorf("no runs: %s", got)
	}
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/create-run?runId=p1", `{"resourceId":"res-1"}`)
	time.Sleep(2 * time.Millisecond)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=r1", `{"inputData":{"n":21}}`)
	time.Sleep(2 * time.Millisecond)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=r2", `{"inputData":{"n":1},"resourceId":"res-2"}`)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/resume-async?runId=r2", `{"resumeData":{"ok":false}}`)

	r1 := `{"workflow_name":"approve-wf","run_id":"r1","snapshot":{"runId":"r1","status":"suspended","value":{},"context":{"input":{"n":21},` +
		`"double":{"payload":{"n":21},"startedAt":"<t>","status":"success","output":{"n":42},"endedAt":"<t>"},` +
		`"wait":{"payload":{"n":42},"startedAt":"<t>","status":"suspended","suspendPayload":{"n":42},"suspendedAt":"<t>"}},` +
		`"activePaths":[1],"stepExecutionPath":["double","wait"],"activeStepsPath":{},"serializedStepGraph":` + approveGraph + `,` +
		`"suspendedPaths":{"wait":[1]},"waitingPaths":{},"resumeLabels":{},"requestContext":{},"timestamp":"<t>","tracingContext":{}},` +
		`"createdAt":"<t>","updatedAt":"<t>","runId":"r1","workflowName":"approve-wf"}`
	got := wfTimes([]byte(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs?status=suspended", "")))
	if want := `{"runs":[` + r1 + `],"total":1}`; got != want {
		t.Errorf("suspended runs\n got  %s\n want %s", got, want)
	}
	// Another server sees the suspended, finished and pending runs in
	// storage.
	if got := wfTimes([]byte(mustDo(t, secondServer(t, f), 200, "GET", "/api/workflows/approve-wf/runs", ""))); !strings.HasPrefix(got, `{"runs":[{"workflow_name":"approve-wf","run_id":"r2","resourceId":"res-2","snapshot":{"runId":"r2","status":"success",`) ||
		!strings.Contains(got, `,`+r1+`,{"workflow_name":"approve-wf","run_id":"p1","resourceId":"res-1","snapshot":{"runId":"p1","status":"pending",`) ||
		!strings.HasSuffix(got, `"total":3}`) {
		t.Errorf("runs from storage\n got  %s", got)
	}

	ids := func(body string) string {
		return strings.Join(regexp.MustCompile(`"run_id":"([^"]+)"`).FindAllString(body, -1), " ") + " " +
			regexp.MustCompile(`"total":\d+`).FindString(body)
	}
	for _, c := range []struct{ query, want string }{
		{"", `"run_id":"r2" "run_id":"r1" "run_id":"p1" "total":3`},
		{"?perPage=1&page=1", `"run_id":"r1" "total":3`},
		{"?limit=1&offset=2", `"run_id":"p1" "total":3`},
		{"?perPage=2", `"run_id":"r2" "run_id":"r1" "run_id":"p1" "total":3`}, // a page needs page and perPage
		{"?status=success", `"run_id":"r2" "total":1`},
		{"?status=pending", `"run_id":"p1" "total":1`},
		{"?resourceId=res-2", `"run_id":"r2" "total":1`},
		{"?toDate=2000-01-01", ` "total":0`},
		{"?fromDate=2000-01-01T00:00:00Z&page=0&perPage=50", `"run_id":"r2" "run_id":"r1" "run_id":"p1" "total":3`},
	} {
		if got := ids(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs"+c.query, "")); got != c.want {
			t.Errorf("runs%s: %s, want %s", c.query, got, c.want)
		}
	}
	if got := mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs?resourceId=res-1", ""); !strings.Contains(got, `{"workflow_name":"approve-wf","run_id":"p1","resourceId":"res-1","snapshot":{"runId":"p1","status":"pending",`) {
		t.Errorf("pending run with a resource: %s", got)
	}
	for _, c := range []struct{ query, want string }{
		{"?perPage=0", `{"error":"perPage must be a positive integer"}`},
		{"?page=-1", `{"error":"Invalid query parameters","issues":[{"field":"page","message":"Too small: expected number to be >=0"}]}`},
		{"?perPage=1.5", `{"error":"Invalid query parameters","issues":[{"field":"perPage","message":"Invalid input: expected int, received number"}]}`},
		{"?fromDate=yesterday", `{"error":"Invalid query parameters","issues":[{"field":"fromDate","message":"Invalid input: expected date, received Date"}]}`},
		{"?status=done", `{"error":"Invalid query parameters","issues":[{"field":"status","message":"Invalid option: expected one of \"running\"|\"waiting\"|\"suspended\"|\"success\"|\"failed\"|\"canceled\"|\"pending\"|\"bailed\"|\"tripwire\"|\"paused\"|\"skipped\""}]}`},
	} {
		if got := mustDo(t, f, 400, "GET", "/api/workflows/approve-wf/runs"+c.query, ""); got != c.want {
			t.Errorf("runs%s: %s", c.query, got)
		}
	}
	if got := mustDo(t, f, 404, "GET", "/api/workflows/nope/runs", ""); got != `{"error":"Workflow not found"}` {
		t.Errorf("unknown workflow: %s", got)
	}
}

// blockingWorkflow's step waits until its run is canceled.
func blockingWorkflow(started chan<- struct{}) *workflows.Workflow {
	w := workflows.New(workflows.Config{ID: "block-wf"}).Then(workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "block",
		Execute: func(ctx workflows.StepContext, in wfIn) (wfIn, error) {
			close(started)
			<-ctx.Done()
			return in, nil
		}}))
	if err := w.Commit(); err != nil {
		panic(err)
	}
	return w
}

// TestWorkflowCancel (C2, C4): cancel answers Mastra's message for a
// run executing here, a suspended run (which can then no longer be
// resumed: 500, as Mastra's), a finished one and a pending one; 404 for
// a run nobody knows.
func TestWorkflowCancel(t *testing.T) {
	started := make(chan struct{})
	f := newFixture(t, withRegistry(func(c *mastra.Config) {
		c.Workflows = map[string]*workflows.Workflow{"approveWf": approvalWorkflow(), "blockWf": blockingWorkflow(started)}
	}))
	const cancelled = `{"message":"Workflow run cancelled"}`
	status := func(path string) string {
		return regexp.MustCompile(`"status":"[a-z]+"`).FindString(mustDo(t, f, 200, "GET", path, ""))
	}

	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=s1", `{"inputData":{"n":1}}`)
	if got := mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/runs/s1/cancel", ""); got != cancelled {
		t.Errorf("cancel a suspended run: %s", got)
	}
	if got := status("/api/workflows/approve-wf/runs/s1"); got != `"status":"canceled"` {
		t.Errorf("canceled run: %s", got)
	}
	if got := mustDo(t, f, 500, "POST", "/api/workflows/approve-wf/resume-async?runId=s1", `{"resumeData":{"ok":true}}`); got != `{"error":"This workflow run was not suspended"}` {
		t.Errorf("resume a canceled run: %s", got)
	}

	// A finished run (C4: resuming it is Mastra's 500), then canceled.
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=d1", `{"inputData":{"n":1}}`)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/resume-async?runId=d1", `{"resumeData":{"ok":true}}`)
	if got := mustDo(t, f, 500, "POST", "/api/workflows/approve-wf/resume-async?runId=d1", `{"step":"wait","resumeData":{"ok":true}}`); got != `{"error":"This workflow run was not suspended"}` {
		t.Errorf("resume a finished run: %s", got)
	}
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/runs/d1/cancel", "")
	if got := status("/api/workflows/approve-wf/runs/d1"); got != `"status":"canceled"` {
		t.Errorf("canceled finished run: %s", got)
	}

	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/create-run?runId=p1", `{}`)
	if got := mustDo(t, f, 500, "POST", "/api/workflows/approve-wf/resume-async?runId=p1", `{"resumeData":{"ok":true}}`); got != `{"error":"This workflow run was not suspended"}` {
		t.Errorf("resume a pending run: %s", got)
	}
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/runs/p1/cancel", "")
	if got := status("/api/workflows/approve-wf/runs/p1"); got != `"status":"canceled"` {
		t.Errorf("canceled pending run: %s", got)
	}

	// A run executing here stops and ends canceled.
	mustDo(t, f, 200, "POST", "/api/workflows/block-wf/create-run?runId=b1", `{}`)
	mustDo(t, f, 200, "POST", "/api/workflows/block-wf/start?runId=b1", `{"inputData":{"n":1}}`)
	<-started
	if got := mustDo(t, f, 200, "POST", "/api/workflows/block-wf/runs/b1/cancel", ""); got != cancelled {
		t.Errorf("cancel a running run: %s", got)
	}
	for i := 0; status("/api/workflows/block-wf/runs/b1") != `"status":"canceled"`; i++ {
		if i > 500 {
			t.Fatal("the running run never ended canceled")
		}
		time.Sleep(5 * time.Millisecond)
	}

	// A suspended run another server started, canceled through this one.
	g := secondServer(t, f)
	mustDo(t, g, 200, "POST", "/api/workflows/approve-wf/start-async?runId=o1", `{"inputData":{"n":1}}`)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/runs/o1/cancel", "")
	if got := status("/api/workflows/approve-wf/runs/o1"); got != `"status":"canceled"` {
		t.Errorf("canceled stored run: %s", got)
	}
	if got := mustDo(t, g, 500, "POST", "/api/workflows/approve-wf/resume-async?runId=o1", `{"resumeData":{"ok":true}}`); got != `{"error":"This workflow run was not suspended"}` {
		t.Errorf("resume the other server's canceled run: %s", got)
	}

	if got := mustDo(t, f, 404, "POST", "/api/workflows/approve-wf/runs/nope/cancel", ""); got != `{"error":"Workflow run not found"}` {
		t.Errorf("cancel an unknown run: %s", got)
	}
	if got := mustDo(t, f, 404, "POST", "/api/workflows/nope/runs/s1/cancel", ""); got != `{"error":"Workflow not found"}` {
		t.Errorf("cancel a run of an unknown workflow: %s", got)
	}
}

// TestWorkflowStartWithoutInput (C3): no inputData is JavaScript's
// undefined, which the workflow's input schema (its first step's)
// refuses with Mastra's text; stream needs a runId, as Mastra's.
func TestWorkflowStartWithoutInput(t *testing.T) {
	f := newFixture(t, withWorkflow())
	const undefined = `{"error":"Invalid input data: \n- : Invalid input: expected object, received undefined"}`
	for _, path := range []string{"/api/workflows/approve-wf/start-async?runId=only-query", "/api/workflows/approve-wf/stream?runId=only-stream"} {
		for _, body := range []string{"", "{}"} {
			if got := mustDo(t, f, 400, "POST", path, body); got != undefined {
				t.Errorf("%s %q: %s", path, body, got)
			}
		}
	}
	if got := mustDo(t, f, 400, "POST", "/api/workflows/approve-wf/stream", `{"inputData":{"n":1}}`); got != `{"error":"Invalid query parameters","issues":[{"field":"runId","message":"Invalid input: expected string, received undefined"}]}` {
		t.Errorf("stream without runId: %s", got)
	}
	// start answers at once; the run fails to start in the background.
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/create-run?runId=c1", "")
	if got := mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start?runId=c1", ""); got != `{"message":"Workflow run started"}` {
		t.Errorf("start: %s", got)
	}
}

// TestWelcomePage (C8): without a studio, a GET outside the API gets the
// welcome page (200 text/html, before authentication, as Mastra's), but
// not a file, /swagger-ui or /openapi.json; unknown paths under the API
// stay Hono's 404; a studio takes precedence.
func TestWelcomePage(t *testing.T) {
	f := newFixture(t, withOptions(Options{BearerToken: "secret"}))
	for _, path := range []string{"/", "/custom/tools", "/agents", "/page.html"} {
		resp, body := f.do(t, "GET", path, "")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html" || !strings.Contains(string(body), "<title>Mastra Server</title>") ||
			!strings.Contains(string(body), "/api/agents") {
			t.Errorf("GET %s: %d %s %.80s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	if resp, body := f.do(t, "HEAD", "/custom", ""); resp.StatusCode != 200 || len(body) != 0 {
		t.Errorf("HEAD: %d %q", resp.StatusCode, body)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/favicon.ico"}, {"GET", "/swagger-ui"}, {"GET", "/openapi.json"}, {"POST", "/custom/tools"},
	} {
		if resp, body := f.do(t, c.method, c.path, "", "Authorization", "Bearer secret"); resp.StatusCode != 404 || string(body) != "404 Not Found" {
			t.Errorf("%s %s: %d %q", c.method, c.path, resp.StatusCode, body)
		}
	}
	if resp, body := f.do(t, "GET", "/api/nothing", "", "Authorization", "Bearer secret"); resp.StatusCode != 404 || string(body) != "404 Not Found" {
		t.Errorf("unknown API path: %d %q", resp.StatusCode, body)
	}
	if resp, _ := f.do(t, "GET", "/api/tools", ""); resp.StatusCode != 401 {
		t.Errorf("the API without the token: %d", resp.StatusCode)
	}
	studio := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("studio")) })
	s := newFixture(t, withOptions(Options{Studio: studio}))
	if resp, body := s.do(t, "GET", "/custom/tools", ""); resp.StatusCode != 200 || string(body) != "studio" {
		t.Errorf("with a studio: %d %q", resp.StatusCode, body)
	}
	root := newFixture(t, withOptions(Options{APIPrefix: "/"}))
	if resp, body := root.do(t, "GET", "/custom/tools", ""); resp.StatusCode != 404 || string(body) != "404 Not Found" {
		t.Errorf("API at the root: %d %q", resp.StatusCode, body)
	}
}

// TestToDraft07: workflow schemas are shown in draft-07, as Mastra's:
// $defs and the references into them become definitions, a tuple's
// prefixItems an items array (its items additionalItems); properties
// that happen to bear those names stay.
func TestToDraft07(t *testing.T) {
	in := `{"type":"object","properties":{"$defs":{"type":"string"},"t":{"type":"array","prefixItems":[{"type":"string"},{"$ref":"#/$defs/n"}],"items":false}},"$defs":{"n":{"type":"number"}}}`
	o, err := wire.Decode([]byte(in), wire.KeepDuplicates)
	if err != nil {
		t.Fatal(err)
	}
	toDraft07(o)
	want := `{"type":"object","properties":{"$defs":{"type":"string"},"t":{"type":"array","items":[{"type":"string"},{"$ref":"#/definitions/n"}],"additionalItems":false}},"definitions":{"n":{"type":"number"}}}`
	if got := jsonText(o); got != want {
		t.Errorf("draft-07\n got  %s\n want %s", got, want)
	}
}
