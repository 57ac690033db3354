package studio

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/server"
)

// tasksApp is a studio over a registry with background tasks whose
// executors run until release is closed or they are cancelled.
func tasksApp(t *testing.T, release <-chan struct{}) (*httptest.Server, *bgtasks.Manager) {
	t.Helper()
	m := mastra.New(mastra.Config{Logger: slog.New(slog.DiscardHandler), BackgroundTasks: &bgtasks.Config{
		Store: bgtasks.NewMemoryStore(), PollInterval: 20 * time.Millisecond,
		Resolve: func(context.Context, bgtasks.Task) (bgtasks.Executor, bool) {
			return bgtasks.ExecutorFunc(func(ctx context.Context, _ *bgtasks.Call) (any, error) {
				select {
				case <-release:
					return "done", nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}), true
		}}})
	mgr := m.BackgroundTaskManager()
	srv := server.New(m, server.Options{Studio: Handler(Options{}), Logger: slog.New(slog.DiscardHandler)})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		_ = mgr.Shutdown(ctx)
	})
	return ts, mgr
}

func TestBrowserRunningTasks(t *testing.T) {
	release := make(chan struct{})
	ts, mgr := tasksApp(t, release)
	p := newPage(t, ts.URL)
	p.open("/")
	p.waitText("#nav-tasks", "None running")

	enqueue := func(tool string) string {
		res, err := mgr.Enqueue(context.Background(), bgtasks.TaskPayload{RunID: "run-1", ToolName: tool, ToolCallID: "call-" + tool,
			AgentID: "researcher", ThreadID: "t1", ResourceID: "u1"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Task.ID
	}
	slow, quick := enqueue("deep-research"), enqueue("summarise")
	p.waitText("#nav-tasks", "deep-research")
	p.waitText("#nav-tasks", "summarise")

	// Cancel from the page: the task ends cancelled and leaves the list.
	p.click(fmt.Sprintf(`#nav-tasks li[data-task-id=%q] [data-action="cancel"]`, slow))
	p.waitJS("the cancelled task gone", fmt.Sprintf(`!document.querySelector('#nav-tasks li[data-task-id=%q]')`, slow))
	if task, _ := mgr.GetTask(context.Background(), slow); task.Status != bgtasks.Cancelled {
		t.Errorf("the task is %s, want cancelled", task.Status)
	}
	// A task that completes leaves it too.
	close(release)
	p.waitText("#nav-tasks", "None running")
	if task, _ := mgr.GetTask(context.Background(), quick); task.Status != bgtasks.Completed {
		t.Errorf("the other task is %s", task.Status)
	}
	if got := p.text("#nav-tasks"); strings.Contains(got, "summarise") {
		t.Errorf("tasks listed: %q", got)
	}
	p.checkConsole()
}
