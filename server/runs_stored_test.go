package server

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/workflows"
)

// storedServer is a server over a fresh registry whose approval workflow
// keeps its runs in the SQLite database at path: each call is what a
// process started over that database serves.
func storedServer(t *testing.T, path string) *fixture {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	wf := approvalWorkflowIn(workflows.Config{ID: "approve-wf", Description: "Doubles, then waits", Storage: st})
	m := mastra.New(mastra.Config{Workflows: map[string]*workflows.Workflow{"approveWf": wf}, Logger: quiet})
	srv := New(m, Options{Logger: quiet})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		_ = st.Close()
	})
	return &fixture{m: m, store: st, srv: srv, ts: ts}
}

// TestFinishedRunsOutliveRestart: runs that ended (a success, a failure
// of the input... a canceled run) are kept in the workflow's storage, so
// a server started again over the same database lists them and answers
// each with its status and result, as the server that ran them did.
func TestFinishedRunsOutliveRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "mastra.db")
	f := storedServer(t, db)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=done", `{"inputData":{"n":21},"resourceId":"res-1"}`)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/resume-async?runId=done", `{"resumeData":{"ok":true}}`)
	time.Sleep(2 * time.Millisecond)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=gone", `{"inputData":{"n":1}}`)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/runs/gone/cancel", "")
	time.Sleep(2 * time.Millisecond)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=waiting", `{"inputData":{"n":2}}`)

	before := map[string]string{}
	for _, id := range []string{"done", "gone", "waiting"} {
		before[id] = wfTimes([]byte(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/"+id, "")))
	}
	list := wfTimes([]byte(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs", "")))

	g := storedServer(t, db) // the restart
	for id, want := range before {
		if got := wfTimes([]byte(mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs/"+id, ""))); got != want {
			t.Errorf("run %s after the restart\n got  %s\n want %s", id, got, want)
		}
	}
	if !strings.Contains(before["done"], `"status":"success","result":{"n":42,"ok":true}`) || !strings.Contains(before["gone"], `"status":"canceled"`) {
		t.Errorf("before the restart: %v", before)
	}
	if got := wfTimes([]byte(mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs", ""))); got != list {
		t.Errorf("runs after the restart\n got  %s\n want %s", got, list)
	}
	ids := regexp.MustCompile(`"run_id":"([^"]+)"`)
	for _, c := range []struct{ query, want string }{
		{"", "waiting gone done"},
		{"?status=success", "done"},
		{"?status=canceled", "gone"},
		{"?resourceId=res-1", "done"},
		{"?page=1&perPage=2", "done"},
		{"?toDate=2000-01-01", ""},
	} {
		var got []string
		for _, m := range ids.FindAllStringSubmatch(mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs"+c.query, ""), -1) {
			got = append(got, m[1])
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("runs%s after the restart: %v, want %s", c.query, got, c.want)
		}
	}
	// A finished run is not suspended, on either server.
	for _, s := range []*fixture{f, g} {
		if got := mustDo(t, s, 500, "POST", "/api/workflows/approve-wf/resume-async?runId=done", `{"resumeData":{"ok":true}}`); got != `{"error":"This workflow run was not suspended"}` {
			t.Errorf("resume a finished run: %s", got)
		}
	}
	// Starting a finished run's id again is refused on the new server too.
	mustDo(t, g, 409, "POST", "/api/workflows/approve-wf/start-async?runId=done", `{"inputData":{"n":1}}`)
}
