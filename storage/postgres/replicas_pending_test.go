package postgres_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
)

// post sends a JSON POST and returns the answer's status and body.
func post(t *testing.T, ts *httptest.Server, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(ts.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestReplicasStartPendingRun: a run create-run made on one server is
// stored pending: the other lists it and starts it, keeping the time it
// was made; starting it again is refused on both.
func TestReplicasStartPendingRun(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := replica(t, dsn), replica(t, dsn)
	call(t, a, "POST", "/api/workflows/inc-wf/create-run?runId=made-on-a", `{"resourceId":"res-1"}`)
	listed := call(t, b, "GET", "/api/workflows/inc-wf/runs", "")
	if !strings.Contains(listed, `"run_id":"made-on-a","resourceId":"res-1","snapshot":{"runId":"made-on-a","status":"pending"`) {
		t.Fatalf("runs on the other replica: %s", listed)
	}
	created := listed[strings.Index(listed, `"createdAt":`):]
	created = created[:strings.Index(created, `Z"`)]
	time.Sleep(5 * time.Millisecond)
	if got := call(t, b, "POST", "/api/workflows/inc-wf/start-async?runId=made-on-a", `{"inputData":{"n":1}}`); !strings.Contains(got, `"status":"success"`) || !strings.Contains(got, `"result":{"n":2}`) {
		t.Fatalf("start on the other replica: %s", got)
	}
	got := call(t, a, "GET", "/api/workflows/inc-wf/runs/made-on-a", "")
	if !strings.Contains(got, `"resourceId":"res-1"`) || !strings.Contains(got, created) || !strings.Contains(got, `"status":"success"`) {
		t.Errorf("the run on the replica that made it: %s, want res-1, %s, success", got, created)
	}
	for _, ts := range []*httptest.Server{a, b} {
		if st, body := post(t, ts, "/api/workflows/inc-wf/start-async?runId=made-on-a", `{"inputData":{"n":5}}`); st != 409 {
			t.Errorf("a second start: %d %s", st, body)
		}
	}
}

// TestReplicasRaceToStartPendingRun: two servers start one pending run
// at once: exactly one runs it, the other answers 409.
func TestReplicasRaceToStartPendingRun(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := replica(t, dsn), replica(t, dsn)
	for i := range 8 {
		id := fmt.Sprintf("race-%d", i)
		call(t, a, "POST", "/api/workflows/inc-wf/create-run?runId="+id, "")
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		bodies := make([]string, 2)
		for j, ts := range []*httptest.Server{a, b} {
			wg.Go(func() {
				statuses[j], bodies[j] = post(t, ts, "/api/workflows/inc-wf/start-async?runId="+id, `{"inputData":{"n":1}}`)
			})
		}
		wg.Wait()
		won, lost := 0, 0
		for j, st := range statuses {
			switch {
			case st == 200 && strings.Contains(bodies[j], `"result":{"n":2}`):
				won++
			case st == 409 && bodies[j] == `{"error":"Workflow run `+id+` has already been started"}`:
				lost++
			}
		}
		if won != 1 || lost != 1 {
			t.Fatalf("run %s: %v %q, want one success and one 409", id, statuses, bodies)
		}
	}
}
