package postgres_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage/postgres"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/workflows"
)

// gatedReplica is a server over the database dsn whose workflow
// "gated-wf" adds one, then waits for release (nil: does not wait).
func gatedReplica(t *testing.T, dsn string, release <-chan struct{}) *httptest.Server {
	t.Helper()
	st, err := postgres.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	inc := workflows.NewStep(workflows.StepConfig[count, count]{ID: "inc",
		Execute: func(_ workflows.StepContext, in count) (count, error) { return count{N: in.N + 1}, nil }})
	gate := workflows.NewStep(workflows.StepConfig[count, count]{ID: "gate",
		Execute: func(ctx workflows.StepContext, in count) (count, error) {
			if release != nil {
				select {
				case <-release:
				case <-ctx.Done():
					return count{}, ctx.Err()
				}
			}
			return count{N: in.N * 10}, nil
		}})
	wf := workflows.New(workflows.Config{ID: "gated-wf", Storage: st}).Then(inc).Then(gate)
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	srv := server.New(mastra.New(mastra.Config{Workflows: map[string]*workflows.Workflow{"gated-wf": wf}, Logger: quiet}), server.Options{Logger: quiet})
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

// observeOn opens POST .../observe on ts, retrying while the run is not
// stored yet (404).
func observeOn(t *testing.T, ts *httptest.Server, runID, offset string) *http.Response {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		resp, err := http.Post(ts.URL+"/api/workflows/gated-wf/observe?runId="+runID+"&offset="+offset, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == 200 {
			return resp
		}
		_ = resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("observe on the other replica: %d", resp.StatusCode)
		}
	}
}

// TestReplicaObservesARunOfAnother: a workflow run executing on server A
// is observed on server B over the same database: B replays what A's
// run has streamed so far, then follows it live (woken by A's appends),
// and its body ends with the run's finish — the records A's client got.
func TestReplicaObservesARunOfAnother(t *testing.T) {
	dsn := pgtest.DSN(t)
	release := make(chan struct{})
	var once sync.Once
	releaseOnce := func() { once.Do(func() { close(release) }) }
	defer releaseOnce()
	a, b := gatedReplica(t, dsn, release), gatedReplica(t, dsn, nil)
	streamed := make(chan string, 1)
	go func() {
		streamed <- call(t, a, "POST", "/api/workflows/gated-wf/stream?runId=across", `{"inputData":{"n":1}}`)
	}()
	resp := observeOn(t, b, "across", "0")
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	var history []string
	for len(history) < 4 { // start, inc's start and result, gate's start
		rec, err := rd.ReadString('\x1e')
		if err != nil {
			t.Fatalf("after %q: %v", history, err)
		}
		history = append(history, rec)
	}
	releaseOnce()
	rest, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	got, want := strings.Join(history, "")+string(rest), <-streamed
	if got != want || !strings.Contains(got, `"workflowStatus":"success"`) {
		t.Errorf("observed on B:\n%q\nwant A's stream:\n%q", got, want)
	}
	// From an offset, once the run has ended: the tail, and the end.
	tail := observeOn(t, b, "across", "4")
	defer tail.Body.Close()
	if body, _ := io.ReadAll(tail.Body); string(body) != string(rest) {
		t.Errorf("observed on B from 4:\n%q\nwant:\n%q", body, rest)
	}
}
