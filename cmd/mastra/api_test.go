package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// recordingServer answers every request with status and body and keeps
// what it was sent.
type recordingServer struct {
	*httptest.Server
	mu     sync.Mutex
	reqs   []*http.Request
	bodies []string
}

func newRecordingServer(t *testing.T, status int, body string) *recordingServer {
	t.Helper()
	s := &recordingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, r)
		s.bodies = append(s.bodies, string(b))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *recordingServer) requests() ([]*http.Request, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...), append([]string(nil), s.bodies...)
}

// TestErrorCodes runs one command per error code and checks the envelope
// on stderr, the empty stdout and exit code 1.
func TestErrorCodes(t *testing.T) {
	notFound := newRecordingServer(t, 404, `{"error":"Tool not found"}`)
	noRoutes := newRecordingServer(t, 200, `{"version":1,"routes":[]}`)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // blocks until the client gives up
	}))
	t.Cleanup(hang.Close)
	closed := closedURL(t)
	ok := notFound.URL

	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"malformed header", []string{"api", "--url", ok, "--header", "no-colon", "tool", "list"},
			`{"error":{"code":"MALFORMED_HEADER","message":"Header must use \"Key: Value\" format","details":{"header":"no-colon"}}}`},
		{"invalid JSON", []string{"api", "--url", ok, "tool", "execute", "add", "{a:1}"},
			`{"error":{"code":"INVALID_JSON","message":"Input must be valid JSON","details":{"message":"Expected property name or '}' in JSON at position 1 (line 1 column 2)"}}}`},
		{"non-object JSON", []string{"api", "--url", ok, "tool", "execute", "add", "[1]"},
			`{"error":{"code":"INVALID_JSON","message":"Input JSON must be an object","details":{}}}`},
		{"missing input", []string{"api", "--url", ok, "agent", "run", "calc-agent"},
			`{"error":{"code":"MISSING_INPUT","message":"Command requires a single inline JSON input argument","details":{"command":"mastra api agent run"}}}`},
		{"missing argument", []string{"api", "--url", ok, "workflow", "run", "get", "wf"},
			`{"error":{"code":"MISSING_ARGUMENT","message":"Missing required argument <runId>","details":{"argument":"runId"}}}`},
		{"thread id not in the input", []string{"api", "--url", ok, "memory", "current", "get", `{"agentId":"a","threadId":7}`},
			`{"error":{"code":"MISSING_ARGUMENT","message":"Missing required argument <threadId>","details":{"argument":"threadId"}}}`},
		{"thread id in the input, not positional", []string{"api", "--url", ok, "thread", "messages", `{"threadId":"t"}`},
			`{"error":{"code":"MISSING_ARGUMENT","message":"Missing required argument <threadId>","details":{"argument":"threadId"}}}`},
		{"unreachable", []string{"api", "--url", closed, "tool", "list"},
			`{"error":{"code":"SERVER_UNREACHABLE","message":"Could not connect to target server","details":{"message":"fetch failed"}}}`},
		{"invalid URL", []string{"api", "--url", "localhost-no-scheme", "tool", "list"},
			`{"error":{"code":"SERVER_UNREACHABLE","message":"Could not connect to target server","details":{"message":"Invalid URL"}}}`},
		{"timeout", []string{"api", "--url", hang.URL, "--timeout", "100", "tool", "list"},
			`{"error":{"code":"REQUEST_TIMEOUT","message":"Request timed out after 100ms","details":{"timeoutMs":100}}}`},
		{"HTTP error", []string{"api", "--url", ok, "tool", "get", "nope"},
			`{"error":{"code":"HTTP_ERROR","message":"Request failed with status 404","details":{"status":404,"body":{"error":"Tool not found"}}}}`},
		{"schema unavailable", []string{"api", "--url", noRoutes.URL, "agent", "run", "--schema"},
			`{"error":{"code":"SCHEMA_UNAVAILABLE","message":"Target server did not expose a schema for this command","details":{"method":"POST","path":"/agents/:agentId/generate"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			stdout, stderr, code := runCLI(t, testConfig(t, "", nil), c.args...)
			diffText(t, "stderr", stderr, c.want+"\n")
			diffText(t, "stdout", stdout, "")
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if c.name == "timeout" && time.Since(start) > 5*time.Second {
				t.Errorf("timeout took %v", time.Since(start))
			}
		})
	}
}

// TestRequests checks what the commands send: data wrapping, runId in the
// query, requestContext in the body, GET input as query parameters, headers,
// content type only with a body, and the API prefix.
func TestRequests(t *testing.T) {
	for _, c := range []struct {
		name     string
		env      map[string]string
		args     []string // after --url
		method   string
		uri      string
		body     string
		checkHdr map[string]string
	}{
		{name: "tool input wrapped in data", args: []string{"tool", "execute", "add", `{"a":2,"b":3}`},
			method: "POST", uri: "/api/tools/add/execute", body: `{"data":{"a":2,"b":3}}`},
		{name: "explicit data: runId to the query", args: []string{"tool", "execute", "add", `{"runId":"r 1","data":{"a":1},"requestContext":{"k":"v"}}`},
			method: "POST", uri: "/api/tools/add/execute?runId=r+1", body: `{"data":{"a":1},"requestContext":{"k":"v"}}`},
		{name: "runId without data is tool input", args: []string{"tool", "execute", "add", `{"runId":"r1","a":1}`},
			method: "POST", uri: "/api/tools/add/execute", body: `{"data":{"runId":"r1","a":1}}`},
		{name: "tool id in input is dropped", args: []string{"tool", "execute", "my tool/1", `{"toolId":"x","a":1}`},
			method: "POST", uri: "/api/tools/my%20tool%2F1/execute", body: `{"data":{"a":1}}`},
		{name: "agent run posts the input", args: []string{"agent", "run", "calc-agent", `{"messages":"hi","runId":"r","maxSteps":2}`},
			method: "POST", uri: "/api/agents/calc-agent/generate", body: `{"messages":"hi","runId":"r","maxSteps":2}`},
		{name: "list input as query", args: []string{"tool", "list", `{"page":0,"flag":true,"f":{"a":[1]},"skip":null}`},
			method: "GET", uri: "/api/tools?page=0&flag=true&f=%7B%22a%22%3A%5B1%5D%7D"},
		{name: "workflow start", args: []string{"workflow", "run", "start", "wf", `{"inputData":{"n":1},"runId":"run1"}`},
			method: "POST", uri: "/api/workflows/wf/start-async?runId=run1", body: `{"inputData":{"n":1}}`},
		{name: "workflow resume: runId positional to the query", args: []string{"workflow", "run", "resume", "wf", "run1", `{"step":"s","resumeData":{"ok":true}}`},
			method: "POST", uri: "/api/workflows/wf/resume-async?runId=run1", body: `{"step":"s","resumeData":{"ok":true}}`},
		{name: "workflow cancel has no body", args: []string{"workflow", "run", "cancel", "wf", "run1"},
			method: "POST", uri: "/api/workflows/wf/runs/run1/cancel"},
		{name: "workflow run list query", args: []string{"workflow", "run", "list", "wf", `{"perPage":5,"status":"running"}`},
			method: "GET", uri: "/api/workflows/wf/runs?perPage=5&status=running"},
		{name: "mcp tool input wrapped in data", args: []string{"mcp", "tool", "execute", "srv", "calc", `{"n":1}`},
			method: "POST", uri: "/api/mcp/srv/tools/calc/execute", body: `{"data":{"n":1}}`},
		{name: "thread create: agentId to the query", args: []string{"thread", "create", `{"title":"T","agentId":"a 1","resourceId":"u","threadId":"t","metadata":{"k":1}}`},
			method: "POST", uri: "/api/memory/threads?agentId=a+1", body: `{"title":"T","resourceId":"u","threadId":"t","metadata":{"k":1}}`},
		{name: "thread update", args: []string{"thread", "update", "t/1", `{"agentId":"a","title":"New"}`},
			method: "PATCH", uri: "/api/memory/threads/t%2F1?agentId=a", body: `{"title":"New"}`},
		{name: "thread delete has no body", args: []string{"thread", "delete", "t", `{"agentId":"a","resourceId":"u"}`},
			method: "DELETE", uri: "/api/memory/threads/t?agentId=a&resourceId=u"},
		{name: "thread delete sends other keys in a body", args: []string{"thread", "delete", "t", `{"agentId":"a","note":"x"}`},
			method: "DELETE", uri: "/api/memory/threads/t?agentId=a", body: `{"note":"x"}`},
		{name: "thread get takes no input", args: []string{"thread", "get", "t"}, method: "GET", uri: "/api/memory/threads/t"},
		{name: "thread list query", args: []string{"thread", "list", `{"resourceId":"u","orderBy":{"field":"createdAt","direction":"ASC"}}`},
			method: "GET", uri: "/api/memory/threads?resourceId=u&orderBy=%7B%22field%22%3A%22createdAt%22%2C%22direction%22%3A%22ASC%22%7D"},
		{name: "thread messages", args: []string{"thread", "messages", "t", `{"agentId":"a","perPage":1}`},
			method: "GET", uri: "/api/memory/threads/t/messages?agentId=a&perPage=1"},
		{name: "working memory: threadId from the input", args: []string{"memory", "current", "get", `{"agentId":"a","threadId":"t 1"}`},
			method: "GET", uri: "/api/memory/threads/t%201/working-memory?agentId=a"},
		{name: "working memory update", args: []string{"memory", "current", "update", `{"threadId":"t","agentId":"a","workingMemory":"w","resourceId":"u"}`},
			method: "POST", uri: "/api/memory/threads/t/working-memory?agentId=a", body: `{"workingMemory":"w","resourceId":"u"}`},
		{name: "memory status", args: []string{"memory", "status", `{"agentId":"a","threadId":"t"}`},
			method: "GET", uri: "/api/memory/status?agentId=a&threadId=t"},
		{name: "memory search", args: []string{"memory", "search", `{"agentId":"a","searchQuery":"x y","limit":5}`},
			method: "GET", uri: "/api/memory/search?agentId=a&searchQuery=x+y&limit=5"},
		{name: "headers", args: []string{"--header", "Authorization: Bearer t", "--header", "X-A: 1", "--header", "X-A:  2 ", "tool", "get", "add"},
			method: "GET", uri: "/api/tools/add", checkHdr: map[string]string{"Authorization": "Bearer t", "X-A": "2", "Accept": "*/*", "Content-Type": ""}},
		{name: "prefix flag", args: []string{"--server-api-prefix", "mastra/", "tool", "list"}, method: "GET", uri: "/mastra/tools"},
		{name: "prefix env", env: map[string]string{"MASTRA_API_PREFIX": "/custom"}, args: []string{"tool", "list"}, method: "GET", uri: "/custom/tools"},
		{name: "empty prefix flag beats env", env: map[string]string{"MASTRA_API_PREFIX": "/custom"}, args: []string{"--server-api-prefix", "", "tool", "list"},
			method: "GET", uri: "/api/tools"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecordingServer(t, 200, `{}`)
			args := append([]string{"api", "--url", srv.URL}, c.args...)
			_, stderr, code := runCLI(t, testConfig(t, "", c.env), args...)
			if code != 0 {
				t.Fatalf("exit code %d: %s", code, stderr)
			}
			reqs, bodies := srv.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if r.Method != c.method || r.URL.RequestURI() != c.uri {
				t.Errorf("request %s %s, want %s %s", r.Method, r.URL.RequestURI(), c.method, c.uri)
			}
			if bodies[0] != c.body {
				t.Errorf("body %q, want %q", bodies[0], c.body)
			}
			if ct := r.Header.Get("Content-Type"); (c.body != "") != (ct == "application/json") {
				t.Errorf("content-type %q with body %q", ct, c.body)
			}
			for k, v := range c.checkHdr {
				if got := r.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestBaseURLWithPrefix(t *testing.T) {
	srv := newRecordingServer(t, 200, `[]`)
	stdout, _, code := runCLI(t, testConfig(t, "", nil), "api", "--url", srv.URL+"/api/", "tool", "list")
	if code != 0 || stdout != `{"data":[],"page":{"total":0,"page":0,"perPage":0,"hasMore":false}}`+"\n" {
		t.Fatalf("code %d, stdout %q", code, stdout)
	}
	reqs, _ := srv.requests()
	if got := reqs[0].URL.Path; got != "/api/tools" {
		t.Errorf("path %s, want /api/tools", got)
	}
}

func TestPretty(t *testing.T) {
	srv := newRecordingServer(t, 200, `{"sum":5,"list":[1,{}],"e":[]}`)
	stdout, _, code := runCLI(t, testConfig(t, "", nil), "api", "--pretty", "--url", srv.URL, "tool", "execute", "add", `{}`)
	want := "{\n  \"data\": {\n    \"sum\": 5,\n    \"list\": [\n      1,\n      {}\n    ],\n    \"e\": []\n  }\n}\n"
	if code != 0 || stdout != want {
		t.Errorf("code %d\n got: %q\nwant: %q", code, stdout, want)
	}
}

// TestDefaultTarget covers the run without --url: the probe of the default
// server (GET <default><prefix>/system/api-schema, no custom headers, at
// most a second), then either the request there or SERVER_UNREACHABLE
// saying what the probe found.
func TestDefaultTarget(t *testing.T) {
	t.Run("server answers", func(t *testing.T) {
		t.Parallel()
		srv := newRecordingServer(t, 200, `{"add":{"id":"add"}}`)
		stdout, stderr, code := runCLI(t, testConfig(t, srv.URL, nil), "api", "--header", "X-Key: k", "tool", "list")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		diffText(t, "stdout", stdout, `{"data":[{"id":"add"}],"page":{"total":1,"page":0,"perPage":1,"hasMore":false}}`+"\n")
		reqs, _ := srv.requests()
		if len(reqs) != 2 || reqs[0].URL.Path != "/api/system/api-schema" || reqs[1].URL.Path != "/api/tools" {
			t.Fatalf("requests %v", reqs)
		}
		if reqs[0].Header.Get("X-Key") != "" || reqs[1].Header.Get("X-Key") != "k" {
			t.Errorf("custom header: probe %q, request %q", reqs[0].Header.Get("X-Key"), reqs[1].Header.Get("X-Key"))
		}
	})
	t.Run("prefix from env", func(t *testing.T) {
		t.Parallel()
		srv := newRecordingServer(t, 200, `{}`)
		_, stderr, code := runCLI(t, testConfig(t, srv.URL, map[string]string{"MASTRA_API_PREFIX": "custom"}), "api", "agent", "get", "a")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		reqs, _ := srv.requests()
		if len(reqs) != 2 || reqs[0].URL.Path != "/custom/system/api-schema" || reqs[1].URL.Path != "/custom/agents/a" {
			t.Fatalf("requests %v", reqs)
		}
	})
	t.Run("nothing listening", func(t *testing.T) {
		t.Parallel()
		local := closedURL(t)
		stdout, stderr, code := runCLI(t, testConfig(t, local, nil), "api", "tool", "execute", "add", "not json")
		want := `{"error":{"code":"SERVER_UNREACHABLE","message":"Could not connect to target server: nothing is listening at ` + local +
			"; start a server with `mastra dev` (or `mastra start`), or pass --url <url>\"," +
			`"details":{"url":"` + local + `","probe":"` + local + `/api/system/api-schema"}}}` + "\n"
		diffText(t, "stderr", stderr, want)
		if code != 1 || stdout != "" {
			t.Errorf("code %d, stdout %q", code, stdout)
		}
	})
	t.Run("not a Mastra server", func(t *testing.T) {
		t.Parallel()
		srv := newRecordingServer(t, 404, `not found`)
		_, stderr, code := runCLI(t, testConfig(t, srv.URL, nil), "api", "tool", "list")
		if code != 1 || !strings.Contains(stderr, "answered GET /api/system/api-schema with status 404") ||
			!strings.Contains(stderr, `"status":404`) {
			t.Errorf("code %d, stderr %s", code, stderr)
		}
		if reqs, _ := srv.requests(); len(reqs) != 1 {
			t.Errorf("%d requests, want only the probe", len(reqs))
		}
	})
	t.Run("probe waits at most the probe timeout", func(t *testing.T) {
		t.Parallel()
		hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
		t.Cleanup(hang.Close)
		cfg := testConfig(t, hang.URL, nil)
		cfg.probeTimeout = 150 * time.Millisecond
		start := time.Now()
		_, stderr, code := runCLI(t, cfg, "api", "tool", "list")
		if code != 1 || !strings.Contains(stderr, "nothing answered at "+hang.URL+" within 150ms") {
			t.Errorf("code %d, stderr %s", code, stderr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("probe waits at most --timeout", func(t *testing.T) {
		t.Parallel()
		hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
		t.Cleanup(hang.Close)
		_, stderr, code := runCLI(t, testConfig(t, hang.URL, nil), "api", "--timeout", "60", "tool", "list")
		if code != 1 || !strings.Contains(stderr, "within 60ms") {
			t.Errorf("code %d, stderr %s", code, stderr)
		}
	})
	t.Run("production default", func(t *testing.T) {
		cfg := newAPIConfig(func(string) string { return "" })
		if cfg.localURL != "http://localhost:4111" || cfg.probeTimeout != time.Second {
			t.Errorf("default target %s, probe %v", cfg.localURL, cfg.probeTimeout)
		}
	})
}

// TestWorkflowDefaultTimeout: start and resume wait up to 120 s unless
// --timeout is given; other commands 30 s.
func TestWorkflowDefaultTimeout(t *testing.T) {
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	_, stderr, code := runCLI(t, testConfig(t, "", nil), "api", "--url", hang.URL, "--timeout", "50", "workflow", "run", "start", "wf", `{}`)
	if code != 1 || !strings.Contains(stderr, `"timeoutMs":50`) {
		t.Errorf("code %d, stderr %s", code, stderr)
	}
	for name, d := range descriptors(t) {
		want := 0.0
		if name == "workflow run start" || name == "workflow run resume" {
			want = 120_000
		}
		if d.defaultTimeoutMs != want {
			t.Errorf("%s: default timeout %v, want %v", name, d.defaultTimeoutMs, want)
		}
	}
}

// descriptors builds the command tree and returns its leaves by name.
func descriptors(t *testing.T) map[string]*descriptor {
	t.Helper()
	b := &apiBuilder{cfg: testConfig(t, "", nil), meta: map[*cobra.Command]*commandMeta{}}
	api := &cobra.Command{Use: "api"}
	b.meta[api] = &commandMeta{}
	b.addAgentCommands(api)
	b.addWorkflowCommands(api)
	b.addToolCommands(api)
	b.addMCPCommands(api)
	b.addThreadCommands(api)
	b.addMemoryCommands(api)
	out := map[string]*descriptor{}
	for _, m := range b.meta {
		if m.desc != nil {
			out[m.desc.name] = m.desc
		}
	}
	if len(out) != 28 {
		t.Fatalf("%d commands, want 28", len(out))
	}
	return out
}

func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		name    string
		err     error
		code    int
		printed string
	}{
		{"success", nil, 0, ""},
		{"reported", exitError{1}, 1, ""},
		{"child exit", exitCoder{3}, 3, ""},
		{"usage", usageError{"bad"}, 1, "error: bad\n"},
		{"other", errors.New("boom"), 1, "error: boom\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := newRootCommand()
			root.AddCommand(&cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return c.err }})
			var out, errOut bytes.Buffer
			if code := execute(context.Background(), root, []string{"x"}, &out, &errOut); code != c.code {
				t.Errorf("code %d, want %d", code, c.code)
			}
			diffText(t, "stderr", errOut.String(), c.printed)
		})
	}
	// A real child process's failure passes its code through.
	if _, err := exec.LookPath("false"); err == nil {
		root := newRootCommand()
		root.AddCommand(&cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return exec.Command("false").Run() }})
		if code := execute(context.Background(), root, []string{"x"}, io.Discard, io.Discard); code != 1 {
			t.Errorf("exec.ExitError: code %d", code)
		}
	}
}

type exitCoder struct{ code int }

func (e exitCoder) Error() string { return "exit" }
func (e exitCoder) ExitCode() int { return e.code }

func TestRootUnknownCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"ap", "tool", "list"}, &out, &errOut, func(string) string { return "" })
	if code != 1 || errOut.String() != "error: unknown command 'ap'\n(Did you mean api?)\n" {
		t.Errorf("code %d, stderr %q", code, errOut.String())
	}
}

// TestDefaultTargetDiffersByDesign compares the no-server case with the
// real CLI's output (testdata/by-design, recorded in an empty directory with
// nothing on localhost:4111): same code, exit code and message start; this
// port's message goes on to say what the probe found and what to do, and
// its details name the URLs, where the Mastra CLI's are empty (it would next
// look for a linked Mastra platform project, which this port does not do).
func TestDefaultTargetDiffersByDesign(t *testing.T) {
	for _, name := range []string{"default-unreachable", "default-unreachable-schema"} {
		want := loadTranscript(t, "testdata/by-design/"+name+".txt")
		args := strings.Fields(strings.TrimPrefix(want.command, "mastra "))
		stdout, stderr, code := runCLI(t, testConfig(t, "", nil), args...)
		if code != want.code || stdout != want.stdout {
			t.Errorf("%s: code %d stdout %q", name, code, stdout)
		}
		got, err := parseJSON(strings.TrimSpace(stderr))
		if err != nil {
			t.Fatal(err)
		}
		real, _ := parseJSON(strings.TrimSpace(want.stderr))
		gotErr, realErr := property(got, "error"), property(real, "error")
		if property(gotErr, "code") != property(realErr, "code") {
			t.Errorf("%s: code %v, want %v", name, property(gotErr, "code"), property(realErr, "code"))
		}
		msg, _ := property(gotErr, "message").(string)
		if !strings.HasPrefix(msg, property(realErr, "message").(string)+": nothing is listening at ") {
			t.Errorf("%s: message %q", name, msg)
		}
	}
}
