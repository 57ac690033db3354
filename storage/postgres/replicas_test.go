package postgres_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage/postgres"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/workflows"
)

type count struct {
	N int `json:"n"`
}

// replica is one server process over the database dsn: its own store,
// its own workflow (which adds one), its own HTTP server.
func replica(t *testing.T, dsn string) *httptest.Server {
	t.Helper()
	st, err := postgres.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	inc := workflows.NewStep(workflows.StepConfig[count, count]{ID: "inc",
		Execute: func(_ workflows.StepContext, in count) (count, error) { return count{N: in.N + 1}, nil }})
	wf := workflows.New(workflows.Config{ID: "inc-wf", Storage: st}).Then(inc)
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	srv := server.New(mastra.New(mastra.Config{Workflows: map[string]*workflows.Workflow{"incWf": wf}, Logger: quiet}), server.Options{Logger: quiet})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		st.Close()
	})
	return ts
}

func call(t *testing.T, ts *httptest.Server, method, path, body string) string {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return string(b)
}

// TestReplicasSeeFinishedRuns: two servers over one database answer alike
// for a run either finished: GET .../runs lists it and
// GET .../runs/:runId shows its status and result.
func TestReplicasSeeFinishedRuns(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := replica(t, dsn), replica(t, dsn)
	call(t, a, "POST", "/api/workflows/inc-wf/start-async?runId=on-a", `{"inputData":{"n":1}}`)
	call(t, b, "POST", "/api/workflows/inc-wf/start-async?runId=on-b", `{"inputData":{"n":10}}`)
	for _, c := range []struct {
		ts   *httptest.Server
		id   string
		want string
	}{{b, "on-a", `"result":{"n":2}`}, {a, "on-b", `"result":{"n":11}`}} {
		got := call(t, c.ts, "GET", "/api/workflows/inc-wf/runs/"+c.id, "")
		if !strings.Contains(got, `"status":"success",`+c.want) {
			t.Errorf("run %s from the other replica: %s", c.id, got)
		}
	}
	for _, ts := range []*httptest.Server{a, b} {
		got := call(t, ts, "GET", "/api/workflows/inc-wf/runs?status=success", "")
		if !strings.Contains(got, `"run_id":"on-b"`) || !strings.Contains(got, `"run_id":"on-a"`) || !strings.HasSuffix(got, `"total":2}`) {
			t.Errorf("finished runs: %s", got)
		}
	}
}
