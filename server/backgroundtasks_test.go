package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/bgtasks"
)

// bgFixture is a server over a registry with background tasks, whose
// Auth takes the caller's resource from the X-Resource header.
func bgFixture(t *testing.T) (*httptest.Server, *bgtasks.Manager) {
	t.Helper()
	m := mastra.New(mastra.Config{BackgroundTasks: &bgtasks.Config{Store: bgtasks.NewMemoryStore(), PollInterval: 10 * time.Millisecond,
		Resolve: func(context.Context, bgtasks.Task) (bgtasks.Executor, bool) {
			return bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
				if call.ResumeData == nil && strings.Contains(string(call.Args), "ask") {
					return nil, call.Suspend(map[string]string{"question": "which?"})
				}
				if strings.Contains(string(call.Args), "slow") {
					<-ctx.Done()
					return nil, ctx.Err()
				}
				return map[string]any{"ok": true, "resumed": call.ResumeData != nil}, nil
			}), true
		}}})
	mgr := m.BackgroundTaskManager()
	srv := New(m, Options{Auth: func(r *http.Request) (string, error) { return r.Header.Get("X-Resource"), nil }})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Shutdown(context.Background())
		mgr.Shutdown(context.Background())
	})
	return ts, mgr
}

func bgRequest(t *testing.T, ts *httptest.Server, method, path, resource, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+"/api"+path, strings.NewReader(body))
	req.Header.Set("X-Resource", resource)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func enqueueTask(t *testing.T, mgr *bgtasks.Manager, resource, args string) bgtasks.Task {
	t.Helper()
	res, err := mgr.Enqueue(context.Background(), bgtasks.TaskPayload{RunID: "run-1", ToolName: "research", ToolCallID: "c-" + resource + args,
		Args: []byte(args), AgentID: "bg-agent", ThreadID: "th-" + resource, ResourceID: resource}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Task
}

func waitStatus(t *testing.T, mgr *bgtasks.Manager, id string, want bgtasks.Status) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		task, err := mgr.GetTask(context.Background(), id)
		if err == nil && task.Status == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s: %s, want %s", id, task.Status, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestBackgroundTaskRoutesKeepEachResourcesTasks(t *testing.T) {
	ts, mgr := bgFixture(t)
	mine := enqueueTask(t, mgr, "r1", `{"topic":"owls"}`)
	theirs := enqueueTask(t, mgr, "r2", `{"topic":"bats"}`)
	waitStatus(t, mgr, mine.ID, bgtasks.Completed)
	waitStatus(t, mgr, theirs.ID, bgtasks.Completed)

	code, body := bgRequest(t, ts, "GET", "/background-tasks", "r1", "")
	var list struct {
		Tasks []map[string]any `json:"tasks"`
		Total int              `json:"total"`
	}
	if err := json.Unmarshal([]byte(body), &list); code != 200 || err != nil || list.Total != 1 || list.Tasks[0]["id"] != mine.ID {
		t.Fatalf("list: %d %s", code, body)
	}
	if list.Tasks[0]["status"] != "completed" || list.Tasks[0]["result"].(map[string]any)["ok"] != true {
		t.Errorf("listed task %v", list.Tasks[0])
	}
	if code, body := bgRequest(t, ts, "GET", "/background-tasks/"+mine.ID, "r1", ""); code != 200 || !strings.Contains(body, `"toolName":"research"`) {
		t.Errorf("get own: %d %s", code, body)
	}
	if code, body := bgRequest(t, ts, "GET", "/background-tasks/"+theirs.ID, "r1", ""); code != 404 || body != `{"error":"Background task not found"}` {
		t.Errorf("get another resource's: %d %s", code, body)
	}
	if code, _ := bgRequest(t, ts, "POST", "/background-tasks/"+theirs.ID+"/cancel", "r1", ""); code != 404 {
		t.Errorf("cancel another resource's: %d", code)
	}
	if code, body := bgRequest(t, ts, "GET", "/background-tasks?status=done", "r1", ""); code != 400 {
		t.Errorf("bad status: %d %s", code, body)
	}
}

func TestBackgroundTaskRoutesCancelAndResume(t *testing.T) {
	ts, mgr := bgFixture(t)
	slow := enqueueTask(t, mgr, "r1", `{"mode":"slow"}`)
	waitStatus(t, mgr, slow.ID, bgtasks.Running)
	if code, body := bgRequest(t, ts, "POST", "/background-tasks/"+slow.ID+"/cancel", "r1", ""); code != 200 || body != `{"success":true}` {
		t.Fatalf("cancel: %d %s", code, body)
	}
	waitStatus(t, mgr, slow.ID, bgtasks.Cancelled)

	ask := enqueueTask(t, mgr, "r1", `{"mode":"ask"}`)
	waitStatus(t, mgr, ask.ID, bgtasks.Suspended)
	if code, body := bgRequest(t, ts, "POST", "/background-tasks/"+slow.ID+"/resume", "r1", `{"resumeData":{}}`); code != 400 || !strings.Contains(body, "Cannot resume task in status 'cancelled'") {
		t.Errorf("resume a cancelled task: %d %s", code, body)
	}
	if code, body := bgRequest(t, ts, "POST", "/background-tasks/"+ask.ID+"/resume", "r1", `{"resumeData":{"answer":"owls"}}`); code != 200 {
		t.Fatalf("resume: %d %s", code, body)
	}
	waitStatus(t, mgr, ask.ID, bgtasks.Completed)
	task, _ := mgr.GetTask(context.Background(), ask.ID)
	if string(task.Result) != `{"ok":true,"resumed":true}` {
		t.Errorf("result %s", task.Result)
	}
}

func TestBackgroundTaskStreamSendsTheResourcesEvents(t *testing.T) {
	ts, mgr := bgFixture(t)
	theirs := enqueueTask(t, mgr, "r2", `{"mode":"slow"}`)
	mine := enqueueTask(t, mgr, "r1", `{"mode":"slow"}`)
	waitStatus(t, mgr, theirs.ID, bgtasks.Running)
	waitStatus(t, mgr, mine.ID, bgtasks.Running)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/background-tasks/stream", nil)
	req.Header.Set("X-Resource", "r1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	var types []string
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e struct {
			Type    string         `json:"type"`
			Payload map[string]any `json:"payload"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if e.Payload["taskId"] != mine.ID {
			t.Fatalf("another resource's event: %s", line)
		}
		types = append(types, e.Type)
		if e.Type == bgtasks.TypeRunning {
			// The stream is subscribed: what happens now is seen live.
			mgr.Cancel(context.Background(), theirs.ID)
			mgr.Cancel(context.Background(), mine.ID)
		}
		if e.Type == bgtasks.TypeCancelled {
			break
		}
	}
	if strings.Join(types, ",") != "background-task-running,background-task-cancelled" {
		t.Errorf("events %v", types)
	}
}
