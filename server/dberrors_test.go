package server_test

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/badidtest"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// lockedLog is a log destination safe for the server's goroutines.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// sqliteLeaks are texts of SQLite's and database/sql's errors that no
// answer may carry.
var sqliteLeaks = []string{"no such table", "database is closed", "SQL logic error", "sqlite"}

func checkNoLeak(t *testing.T, what, body string) {
	t.Helper()
	for _, leak := range sqliteLeaks {
		if strings.Contains(strings.ToLower(body), strings.ToLower(leak)) {
			t.Errorf("%s: the answer carries the database's error (%q): %.400s", what, leak, body)
		}
	}
}

// TestSQLiteErrorsStayInTheLog: on SQLite, a table gone from under a
// running server, and then the database closed, are answered Mastra's
// generic 500 on the server's routes, and with an error part without the
// driver's text on the chat route; the driver's text is logged, not sent.
func TestSQLiteErrorsStayInTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := badidtest.BadIDApp(st)
	var logged lockedLog
	h := server.New(m, server.Options{Logger: slog.New(slog.NewTextHandler(&logged, nil)),
		Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{Logger: slog.New(slog.NewTextHandler(&logged, nil))})}})

	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, table := range []string{"mastra_run_deltas", "mastra_run_claims", "mastra_run_snapshots", "mastra_runs", "mastra_messages"} {
		if _, err := other.Exec(`DROP TABLE ` + table); err != nil {
			t.Fatal(err)
		}
	}
	requests := []struct{ method, target, body string }{
		{"GET", "/api/workflows/one-step/runs", ""},
		{"GET", "/api/agents/mem-agent/suspended-runs", ""},
		{"POST", "/api/agents/mem-agent/generate", `{"messages":"hi","memory":{"thread":"t1","resource":"r"}}`},
		{"POST", "/chat/mem-agent", `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"memory":{"thread":"t1","resource":"r"}}`},
	}
	send := func(phase string) {
		for _, c := range requests {
			req := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			checkNoLeak(t, phase+": "+c.target, rec.Body.String())
			if strings.HasPrefix(c.target, "/chat/") { // the chat route answers with an error part
				if !strings.Contains(rec.Body.String(), `"type":"error"`) {
					t.Errorf("%s: %s: no error part: %d %.400s", phase, c.target, rec.Code, rec.Body)
				}
				continue
			}
			if rec.Code != 500 || rec.Body.String() != `{"error":"Internal Server Error"}` {
				t.Errorf("%s: %s %s: %d %.400s", phase, c.method, c.target, rec.Code, rec.Body)
			}
		}
	}
	send("table dropped")
	if !strings.Contains(logged.String(), "no such table") {
		t.Errorf("the database's error is not logged: %s", logged.String())
	}
	st.Close()
	send("database closed")
	if !strings.Contains(logged.String(), "database is closed") {
		t.Errorf("the closed database's error is not logged: %s", logged.String())
	}
}

// TestStorageFailureMidStream: a storage failure after a stream began
// (the database closed while a tool runs) ends the agent's SSE stream
// with an error chunk, and the chat route's with an error part, whose
// text is not the driver's; the driver's text is logged.
func TestStorageFailureMidStream(t *testing.T) {
	for _, route := range []struct{ name, target, body string }{
		{"agent stream", "/api/agents/breaker/stream", `{"messages":"hi","memory":{"thread":"t1","resource":"r"}}`},
		{"chat", "/chat/breaker", `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"memory":{"thread":"t1","resource":"r"}}`},
	} {
		t.Run(route.name, func(t *testing.T) {
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "mastra.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			closeDB := tools.New(tools.Config[map[string]any, map[string]any]{ID: "close-db", Description: "Closes the database.",
				Execute: func(tools.Context, map[string]any) (map[string]any, error) { return map[string]any{}, st.Close() }})
			var logged lockedLog
			log := slog.New(slog.NewTextHandler(&logged, nil))
			a, err := agent.New(agent.Config{ID: "breaker", Name: "breaker", Instructions: "Answer.", Logger: log,
				Model: mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "close-db", Args: `{}`}}}, mock.Step{Text: "ok"}),
				Tools: tools.Set{"close-db": closeDB}, Storage: st, Memory: &agent.MemoryOptions{}})
			if err != nil {
				t.Fatal(err)
			}
			m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"breaker": a}})
			h := server.New(m, server.Options{Logger: log, Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{Logger: log})}})
			req := httptest.NewRequest("POST", route.target, strings.NewReader(route.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body, _ := io.ReadAll(rec.Body)
			if !strings.Contains(string(body), `"type":"error"`) {
				t.Errorf("no error chunk: %d %.1000s", rec.Code, body)
			}
			checkNoLeak(t, route.name, string(body))
			if !strings.Contains(logged.String(), "database is closed") {
				t.Errorf("the database's error is not logged: %s", logged.String())
			}
		})
	}
}
