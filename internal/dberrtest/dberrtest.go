// Package dberrtest checks that a storage failure under a running server
// reaches clients as generic text and the server's log with the
// database's own, so that the server's tests (on SQLite) and
// storage/postgres's run the same checks. It is for tests only.
package dberrtest

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// Log is a log destination safe for concurrent writers, and its text.
type Log struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Logger is a text logger writing to l.
func (l *Log) Logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// Request is a request of a test.
type Request struct{ Method, Target, Body string }

// Send serves req with h and returns the answer's status and body.
func Send(h http.Handler, req Request) (int, string) {
	r := httptest.NewRequest(req.Method, req.Target, strings.NewReader(req.Body))
	if req.Body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	body, _ := io.ReadAll(rec.Body)
	return rec.Code, string(body)
}

// CheckNoLeak fails t when body holds one of leaks (case-insensitive).
func CheckNoLeak(t testing.TB, what, body string, leaks []string) {
	t.Helper()
	for _, leak := range leaks {
		if strings.Contains(strings.ToLower(body), strings.ToLower(leak)) {
			t.Errorf("%s: the answer carries the database's error (%q): %.600s", what, leak, body)
		}
	}
}

// CheckGeneric500 sends each of reqs to h and fails t unless the answer
// is Mastra's generic 500, {"error":"Internal Server Error"} — or, for
// the chat route (a target under /chat/), which streams its errors, an
// error part — without any of leaks.
func CheckGeneric500(t testing.TB, h http.Handler, reqs []Request, leaks []string) {
	t.Helper()
	for _, req := range reqs {
		code, body := Send(h, req)
		CheckNoLeak(t, req.Method+" "+req.Target, body, leaks)
		if strings.HasPrefix(req.Target, "/chat/") {
			if !strings.Contains(body, `"type":"error"`) {
				t.Errorf("%s %s: no error part: %d %.600s", req.Method, req.Target, code, body)
			}
			continue
		}
		if code != http.StatusInternalServerError || body != `{"error":"Internal Server Error"}` {
			t.Errorf("%s %s: %d %.600s", req.Method, req.Target, code, body)
		}
	}
}

// BadIDAppRequests are requests of badidtest.BadIDApp's API (the chat
// route at /chat/{agentId}) that read its storage: on a broken storage
// each must fail (CheckGeneric500).
var BadIDAppRequests = []Request{
	{"GET", "/api/workflows/one-step/runs", ""},
	{"GET", "/api/agents/mem-agent/suspended-runs", ""},
	{"POST", "/api/agents/mem-agent/generate", `{"messages":"hi","memory":{"thread":"t1","resource":"r"}}`},
	{"POST", "/chat/mem-agent", `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"memory":{"thread":"t1","resource":"r"}}`},
}

// BreakerAgent is the agent "breaker" (memory and runs on st, logging to
// log): its model calls the tool break-db, which runs breakDB, then
// answers "ok". A run of it fails on storage after its stream began.
func BreakerAgent(t testing.TB, st storage.Store, log *slog.Logger, breakDB func() error) *agent.Agent {
	t.Helper()
	breaker := tools.New(tools.Config[map[string]any, map[string]any]{ID: "break-db", Description: "Breaks the database.",
		Execute: func(tools.Context, map[string]any) (map[string]any, error) { return map[string]any{}, breakDB() }})
	a, err := agent.New(agent.Config{ID: "breaker", Name: "breaker", Description: "Breaks its database.", Instructions: "Answer.",
		Model:  mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "break-db", Args: `{}`}}}, mock.Step{Text: "ok"}),
		Logger: log, Tools: tools.Set{"break-db": breaker}, Storage: st, Memory: &agent.MemoryOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// BreakerApp is a registry of BreakerAgent.
func BreakerApp(t testing.TB, st storage.Store, log *slog.Logger, breakDB func() error) *mastra.Mastra {
	t.Helper()
	return mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"breaker": BreakerAgent(t, st, log, breakDB)}})
}

// MidStream are BreakerApp's streamed runs: the agent's SSE stream and
// the chat route's (mounted at /chat/{agentId}).
var MidStream = []Request{
	{"POST", "/api/agents/breaker/stream", `{"messages":"hi","memory":{"thread":"t1","resource":"r"}}`},
	{"POST", "/chat/breaker", `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"memory":{"thread":"t1","resource":"r"}}`},
}

// CheckErrorChunk sends req, one of MidStream, to h and fails t unless
// the stream ends with an error chunk (or part) free of leaks.
func CheckErrorChunk(t testing.TB, h http.Handler, req Request, leaks []string) {
	t.Helper()
	code, body := Send(h, req)
	if !strings.Contains(body, `"type":"error"`) {
		t.Errorf("%s: no error chunk: %d %.1000s", req.Target, code, body)
	}
	CheckNoLeak(t, req.Target, body, leaks)
}
