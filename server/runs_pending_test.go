package server

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// createdAtOf is the "createdAt" of a run's JSON.
func createdAtOf(t *testing.T, body string) string {
	t.Helper()
	m := regexp.MustCompile(`"createdAt":"([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no createdAt in %s", body)
	}
	return m[1]
}

// TestPendingRunOutlivesRestart: a run create-run made is stored, not
// started (status pending): a server started again over the same
// database lists it and shows it pending, and its start routes run it,
// once; the run keeps the time create-run made it as its createdAt.
func TestPendingRunOutlivesRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "mastra.db")
	f := storedServer(t, db)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/create-run?runId=later", `{"resourceId":"res-1"}`)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/create-run?runId=bg", "")
	created := createdAtOf(t, mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/later", ""))
	time.Sleep(5 * time.Millisecond)

	g := storedServer(t, db) // the restart
	list := mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs?status=pending", "")
	if !strings.Contains(list, `"run_id":"later","resourceId":"res-1","snapshot":{"runId":"later","status":"pending","value":{},"context":{}`) ||
		!strings.Contains(list, `"run_id":"bg"`) || !strings.HasSuffix(list, `"total":2}`) {
		t.Fatalf("pending runs after the restart: %s", list)
	}
	run := mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs/later", "")
	if !strings.Contains(run, `"status":"pending"`) || createdAtOf(t, run) != created {
		t.Errorf("the pending run after the restart: %s, want pending, created %s", run, created)
	}

	res := mustDo(t, g, 200, "POST", "/api/workflows/approve-wf/start-async?runId=later", `{"inputData":{"n":21}}`)
	if !strings.Contains(res, `"status":"suspended"`) {
		t.Fatalf("start-async of the pending run: %s", res)
	}
	run = mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs/later", "")
	if !strings.Contains(run, `"resourceId":"res-1"`) || !strings.Contains(run, `"status":"suspended"`) || createdAtOf(t, run) != created {
		t.Errorf("the started run: %s, want res-1, suspended, created %s", run, created)
	}
	// It has started: on either server, starting it again is refused.
	for _, s := range []*fixture{f, g} {
		mustDo(t, s, 409, "POST", "/api/workflows/approve-wf/start-async?runId=later", `{"inputData":{"n":1}}`)
	}

	// start (which requires a run create-run made) finds it after the
	// restart too.
	mustDo(t, g, 200, "POST", "/api/workflows/approve-wf/start?runId=bg", `{"inputData":{"n":1}}`)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/bg", ""), `"status":"suspended"`) {
		if time.Now().After(deadline) {
			t.Fatal("the run started with start did not suspend")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := mustDo(t, g, 200, "GET", "/api/workflows/approve-wf/runs?status=pending", ""); got != `{"runs":[],"total":0}` {
		t.Errorf("pending runs once both started: %s", got)
	}
}

// TestStartedRunKeepsCreateTime: a run started after create-run made it
// shows the time create-run made it as its createdAt, in one server
// without storage too.
func TestStartedRunKeepsCreateTime(t *testing.T) {
	f := newFixture(t, withWorkflow())
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/create-run?runId=r1", "")
	created := createdAtOf(t, mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/r1", ""))
	time.Sleep(5 * time.Millisecond)
	mustDo(t, f, 200, "POST", "/api/workflows/approve-wf/start-async?runId=r1", `{"inputData":{"n":1}}`)
	if got := createdAtOf(t, mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs/r1", "")); got != created {
		t.Errorf("createdAt once started: %s, want %s (create-run's)", got, created)
	}
	list := mustDo(t, f, 200, "GET", "/api/workflows/approve-wf/runs", "")
	if got := createdAtOf(t, list); got != created {
		t.Errorf("listed createdAt once started: %s, want %s", got, created)
	}
}
