package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/workflows"
)

// The bad-input sweep: malformed JSON, wrong types, empty and oversized
// bodies, unknown ids, bad query parameters, deep nesting, huge strings and
// invalid UTF-8, sent to every POST route of the route table. Each answer
// must be a 4xx with a JSON {"error": ...} body (or, where the input is
// acceptable after all, a 2xx), never a 5xx.

// sweepMaxBody is the body limit of the sweep's server: small, so that
// an oversized body is cheap to send to every route.
const sweepMaxBody = 1 << 20

// pathIDs are the known ids the sweep puts in a route's path.
var pathIDs = map[string]string{"agentId": "calc-agent", "toolId": "add", "workflowId": "approve-wf", "runId": "r-unknown", "backgroundTaskId": "t-unknown", "threadId": "thread-1"}

// concretePath fills a route pattern's {params} with the known ids, or
// with "nope" for the parameter named unknown.
func concretePath(pattern, unknown string) string {
	out := pattern
	for name, id := range pathIDs {
		if name == unknown {
			id = "nope"
		}
		out = strings.ReplaceAll(out, "{"+name+"}", id)
	}
	return "/api" + out
}

// pathParams lists the {params} of a route pattern.
func pathParams(pattern string) []string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			out = append(out, strings.TrimSuffix(name, "}"))
		}
	}
	return out
}

// postRoutes are the POST routes of the server's route table.
func postRoutes(s *Server) []route {
	var out []route
	for _, rt := range s.routeTable() {
		if rt.method == http.MethodPost {
			out = append(out, rt)
		}
	}
	return out
}

// TestBadInputCoversEveryPostRoute: a POST route added to the route
// table without sweep inputs fails here.
func TestBadInputCoversEveryPostRoute(t *testing.T) {
	f := newFixture(t)
	for _, rt := range postRoutes(f.srv) {
		if _, ok := postInputs[rt.path]; !ok {
			t.Errorf("POST %s has no bad-input cases in postInputs", rt.path)
		}
	}
}

// sweepResult is an answer of the sweep.
type sweepResult struct {
	status int
	header http.Header
	body   []byte
}

// send posts body (chunked, with no Content-Length, when chunked is set).
func (f *fixture) send(t testing.TB, method, path string, body []byte, chunked bool) sweepResult {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
		if chunked {
			rd = io.MultiReader(rd)
		}
	}
	req, err := http.NewRequest(method, f.ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if chunked {
		req.ContentLength = -1
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return sweepResult{status: resp.StatusCode, header: resp.Header, body: b}
}

// checkError checks an answer is status (0: any 4xx) with a JSON
// {"error": "..."} body (valid UTF-8, the message not empty); a 2xx
// status is checked alone.
func checkError(t testing.TB, what string, r sweepResult, status int) {
	t.Helper()
	if r.status >= 500 {
		t.Errorf("%s: %d (a server error for bad input): %.300s", what, r.status, r.body)
		return
	}
	if status == 0 && (r.status < 400 || r.status >= 500) {
		t.Errorf("%s: status %d, want a 4xx: %.300s", what, r.status, r.body)
	} else if status != 0 && r.status != status {
		t.Errorf("%s: status %d, want %d: %.300s", what, r.status, status, r.body)
	}
	if r.status < 400 {
		return
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q", what, ct)
	}
	var e struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == nil || *e.Error == "" {
		t.Errorf("%s: not an {\"error\": ...} body (%v): %.300s", what, err, r.body)
	}
	if !utf8.Valid(r.body) {
		t.Errorf("%s: the answer is not UTF-8: %q", what, r.body)
	}
}

// checkAccepted checks an answer to input that is odd but acceptable: a
// 2xx with a UTF-8 body, or a 4xx error answer; never a 5xx.
func checkAccepted(t testing.TB, what string, r sweepResult) {
	t.Helper()
	switch {
	case r.status >= 400:
		checkError(t, what, r, r.status)
	case r.status < 200 || r.status >= 300:
		t.Errorf("%s: status %d: %.300s", what, r.status, r.body)
	case !utf8.Valid(r.body):
		t.Errorf("%s: the answer is not UTF-8: %q", what, r.body)
	}
}

// nested is depth nested arrays around 0.
func nested(depth int) string {
	return strings.Repeat("[", depth) + "0" + strings.Repeat("]", depth)
}

// syntaxBodies are bodies no route can read: JSON that is not JSON, or
// not an object.
var syntaxBodies = []struct{ name, body string }{
	{"truncated", `{"data":`},
	{"trailing garbage", `{} x`},
	{"two objects", `{}{}`},
	{"single quotes", `{'a':1}`},
	{"trailing comma", `{"a":1,}`},
	{"bare word", `hello`},
	{"NaN", `{"a":NaN}`},
	{"an array", `[]`},
	{"a string", `"text"`},
	{"a number", `42`},
	{"true", `true`},
	{"null", `null`},
	{"invalid UTF-8 between tokens", "{\"a\":1,\xff}"},
	{"NUL byte", "{\"a\":1\x00}"},
	{"BOM", "\xef\xbb\xbf{}"},
	{"nesting deeper than the parser allows", `{"x":` + nested(20000) + `}`},
	{"unclosed deep nesting", `{"x":` + strings.Repeat("[", 50000)},
}

// strictWorkflow checks its input against its schema ({n: int}) before
// anything runs.
func strictWorkflow() *workflows.Workflow {
	w := workflows.New(workflows.Config{ID: "strict", InputSchema: workflows.MustSchemaFor[wfIn]()}).
		Then(workflows.NewStep(workflows.StepConfig[wfIn, wfIn]{ID: "same",
			Execute: func(_ workflows.StepContext, in wfIn) (wfIn, error) { return in, nil }}))
	if err := w.Commit(); err != nil {
		panic(err)
	}
	return w
}

// withSweepWorkflows registers approve-wf and strict.
func withSweepWorkflows() fixtureOpt {
	return withRegistry(func(c *mastra.Config) {
		c.Workflows = map[string]*workflows.Workflow{"approveWf": approvalWorkflow(), "strict": strictWorkflow()}
	})
}

// sweepTarget expands a request target: "{route}" is the route's last
// path segment, "{n}" a number unique to the call (a fresh run id).
type sweepTarget struct{ n int }

func (st *sweepTarget) expand(target, pattern string) string {
	st.n++
	target = strings.ReplaceAll(target, "{route}", pattern[strings.LastIndex(pattern, "/")+1:])
	return strings.ReplaceAll(target, "{n}", strconv.Itoa(st.n))
}

// TestBadInputSweep sends every POST route malformed JSON, bodies that
// are not objects, an empty body, oversized bodies (with and without a
// Content-Length), unknown ids in each path parameter, and its own
// wrong-typed bodies and queries.
func TestBadInputSweep(t *testing.T) {
	f := newFixture(t, withSweepWorkflows(), withOptions(Options{MaxBodyBytes: sweepMaxBody}))
	// A run the start routes must refuse to start again.
	if r := f.send(t, "POST", "/api/workflows/approve-wf/start-async?runId=w-started", []byte(`{"inputData":{"n":1}}`), false); r.status != 200 {
		t.Fatalf("starting w-started: %d %s", r.status, r.body)
	}
	huge := []byte(`{"pad":"` + strings.Repeat("x", sweepMaxBody) + `"}`)
	var st sweepTarget
	for _, rt := range postRoutes(f.srv) {
		in, ok := postInputs[rt.path]
		if !ok {
			continue // TestBadInputCoversEveryPostRoute reports it
		}
		path := func(unknown string) string { return st.expand(concretePath(rt.path, unknown)+in.query, rt.path) }
		t.Run(strings.TrimPrefix(rt.path, "/"), func(t *testing.T) {
			for _, c := range syntaxBodies {
				checkError(t, c.name, f.send(t, "POST", path(""), []byte(c.body), false), 400)
			}
			checkError(t, "empty body", f.send(t, "POST", path(""), []byte{}, false), in.emptyCode)
			checkError(t, "whitespace body", f.send(t, "POST", path(""), []byte(" \n\t "), false), in.emptyCode)
			checkError(t, "oversized body", f.send(t, "POST", path(""), huge, false), http.StatusRequestEntityTooLarge)
			checkError(t, "oversized chunked body", f.send(t, "POST", path(""), huge, true), http.StatusRequestEntityTooLarge)
			for _, param := range pathParams(rt.path) {
				checkError(t, "unknown "+param, f.send(t, "POST", path(param), []byte(in.valid), false), http.StatusNotFound)
			}
			for _, w := range in.wrong {
				target := concretePath(rt.path, "") + in.query
				switch {
				case strings.HasPrefix(w.target, "/"):
					target = w.target
				case w.target != "":
					target = concretePath(rt.path, "") + w.target
				}
				checkError(t, w.name, f.send(t, "POST", st.expand(target, rt.path), []byte(w.body), false), w.status)
			}
		})
	}
}

// TestBadInputDefaultLimit: just over Mastra's 4.5 MB is 413, with and
// without a Content-Length; just under it is read.
func TestBadInputDefaultLimit(t *testing.T) {
	f := newFixture(t, withAgent(noRunStorage))
	body := func(size int) []byte {
		prefix := `{"messages":"hi","requestContext":{"pad":"`
		return []byte(prefix + strings.Repeat("x", size-len(prefix)-3) + `"}}`)
	}
	over := body(int(DefaultMaxBodyBytes) + 1)
	checkError(t, "4.5 MB + 1", f.send(t, "POST", "/api/agents/calc-agent/generate", over, false), 413)
	checkError(t, "4.5 MB + 1, chunked", f.send(t, "POST", "/api/agents/calc-agent/generate", over, true), 413)
	r := f.send(t, "POST", "/api/agents/calc-agent/generate", body(int(DefaultMaxBodyBytes)), true)
	if r.status != 200 || !bytes.Contains(r.body, []byte(`"text":"The sum is 5."`)) {
		t.Errorf("4.5 MB exactly: %d %.300s", r.status, r.body)
	}
}
