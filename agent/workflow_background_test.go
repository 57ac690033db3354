package agent_test

import (
	"context"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/workflows"
)

func TestWorkflowToolRunsAsABackgroundTask(t *testing.T) {
	var runs atomic.Int32
	search := workflows.NewStep(workflows.StepConfig[wfQuery, wfSummary]{ID: "search", Execute: func(_ workflows.StepContext, in wfQuery) (wfSummary, error) {
		return wfSummary{Summary: "found " + in.Query}, nil
	}})
	w := wfCommit(t, workflows.New(workflows.Config{ID: "research-wf"}).Then(wfPlan(&runs)).Then(search))
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "workflow-research", Args: `{"inputData":{"topic":"go"}}`}}},
		mock.Step{Text: "The research runs."},
	)
	a, err := agent.New(agent.Config{ID: "researcher", Model: m, Workflows: map[string]*workflows.Workflow{"research": w},
		Background: &agent.BackgroundTasks{Tools: map[string]agent.BackgroundTool{"research": {Enabled: true}}}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	mgr := bgtasks.New(bgtasks.Config{PollInterval: 10 * time.Millisecond})
	if err := mgr.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer mgr.Shutdown(context.Background())
	a.UseBackgroundTasks(mgr)
	out, err := a.Generate(context.Background(), "research go")
	if err != nil {
		t.Fatal(err)
	}
	var taskID string
	for _, c := range out.Chunks {
		if c.Type == bgtasks.TypeStarted {
			taskID = c.Payload.(bgtasks.StartedPayload).TaskID
		}
	}
	if taskID == "" || out.Text != "The research runs." {
		t.Fatalf("no task: %q", out.Text)
	}
	task, err := mgr.WaitForNextTask(context.Background(), []string{taskID})
	if err != nil {
		t.Fatal(err)
	}
	if task.Status != bgtasks.Completed || !strings.Contains(string(task.Result), `"result":{"summary":"found about go"}`) || task.ToolName != "workflow-research" {
		t.Errorf("task %s %s %s", task.Status, task.ToolName, task.Result)
	}
}
