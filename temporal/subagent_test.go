package temporal_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// A sub-agent's run, on a worker whose agents launch their runs
// (NewWorker), is a child workflow of the parent's, whose id derives
// from the parent's call; the parent's answer is the sub-agent's.
func TestSubAgentRunIsAWorkflow(t *testing.T) {
	store := newStore(t)
	helper, err := agent.New(agent.Config{ID: "helper", Name: "Helper", Instructions: "Greet.", Description: "Greets.", Storage: store,
		Model: mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: "hi from helper"} })})
	if err != nil {
		t.Fatal(err)
	}
	parent, err := agent.New(agent.Config{ID: "parent", Name: "Parent", Instructions: "Delegate.", Storage: store,
		Agents: map[string]*agent.Agent{"helper": helper},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			if req.Messages[len(req.Messages)-1].Role == model.RoleTool {
				return mock.Step{Text: "Relayed."}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-helper", Args: `{"prompt":"Say hi."}`}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"helper": helper, "parent": parent}})
	c := startNewWorker(t, m, "sub", temporal.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	runID, err := c.Start(ctx, temporal.RunInput{AgentKey: "parent", LaunchRequest: agent.LaunchRequest{Messages: []model.Message{model.UserText("Greet.")}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Result(ctx, runID)
	if err != nil || res.Text != "Relayed." {
		t.Fatalf("parent: %+v, %v", res, err)
	}
	subID := uuid.Derived(runID, "agent-helper", "s1")
	sub, err := c.Result(ctx, subID)
	if err != nil || sub.Text != "hi from helper" {
		t.Fatalf("the sub-agent's workflow: %+v, %v", sub, err)
	}
	checkChild(t, temporal.WorkflowID(subID), temporal.WorkflowID(runID))
}

// checkChild fails t unless the workflow childID is a child of the
// workflow parentID.
func checkChild(t *testing.T, childID, parentID string) {
	t.Helper()
	d, err := newServer(t).GetDefaultClient().DescribeWorkflowExecution(context.Background(), childID, "")
	if err != nil {
		t.Fatal(err)
	}
	if p := d.GetWorkflowExecutionInfo().GetParentExecution(); p.GetWorkflowId() != parentID {
		t.Errorf("the parent of %s is %q, want %s", childID, p.GetWorkflowId(), parentID)
	}
}

// Aborting a parent run ends the sub-agent run its call follows: the
// sub-run's workflow gets the abort, its tool in flight sees its context
// end, and its workflow ends.
func TestAbortReachesTheSubAgentRun(t *testing.T) {
	store := newStore(t)
	started := make(chan struct{}, 1)
	wait := tools.New(tools.Config[struct{}, string]{ID: "wait", Description: "Waits.", Execute: func(ctx tools.Context, _ struct{}) (string, error) {
		started <- struct{}{}
		<-ctx.Done()
		return "", ctx.Err()
	}})
	helper, err := agent.New(agent.Config{ID: "helper", Name: "Helper", Instructions: "Wait.", Description: "Waits.", Storage: store,
		Tools: tools.Set{"wait": wait}, Model: mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "w1", Name: "wait", Args: `{}`}}}, mock.Step{Text: "never"})})
	if err != nil {
		t.Fatal(err)
	}
	parent, err := agent.New(agent.Config{ID: "parent", Name: "Parent", Instructions: "Delegate.", Storage: store,
		Agents: map[string]*agent.Agent{"helper": helper},
		Model:  mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-helper", Args: `{"prompt":"Wait."}`}}}, mock.Step{Text: "never"})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"helper": helper, "parent": parent}})
	ctx, c, runID := abortParent(t, m, "sub-abort", started)
	subID := uuid.Derived(runID, "agent-helper", "s1")
	sub, err := c.Result(ctx, subID)
	if err != nil || sub.Text == "never" {
		t.Fatalf("the sub-agent's workflow: %+v, %v; want it ended by the abort", sub, err)
	}
	checkChild(t, temporal.WorkflowID(subID), temporal.WorkflowID(runID))
	if _, err := c.Result(ctx, runID); err != nil {
		t.Fatalf("parent: %v", err)
	}
}

// Aborting a parent run cancels the workflow run its workflow tool call
// follows (a launched workflow): the run's step sees its context end and
// the run is stored canceled.
func TestAbortReachesTheWorkflowToolRun(t *testing.T) {
	store := newStore(t)
	started := make(chan struct{}, 1)
	block := workflows.NewStep(workflows.StepConfig[tally, tally]{ID: "block", Execute: func(ctx workflows.StepContext, in tally) (tally, error) {
		started <- struct{}{}
		<-ctx.Done()
		return tally{}, ctx.Err()
	}})
	wf := workflows.New(workflows.Config{ID: "blocking", Storage: store}).Then(block)
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	parent, err := agent.New(agent.Config{ID: "parent", Name: "Parent", Instructions: "Run it.", Storage: store,
		Workflows: map[string]*workflows.Workflow{"blocking": wf},
		Model:     mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "f1", Name: "workflow-blocking", Args: `{"inputData":{"n":1}}`}}}, mock.Step{Text: "never"})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"parent": parent}, Workflows: map[string]*workflows.Workflow{"blocking": wf}})
	ctx, c, runID := abortParent(t, m, "wf-abort", started)
	if _, err := c.Result(ctx, runID); err != nil {
		t.Fatalf("parent: %v", err)
	}
	subID := uuid.Derived(runID, "workflow-blocking", "f1")
	checkChild(t, temporal.WorkflowRunWorkflowID(subID), temporal.WorkflowID(runID))
	for {
		run, err := wf.LoadRun(ctx, subID)
		if err != nil {
			t.Fatal(err)
		}
		if run.Status() == workflows.StatusCanceled {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the workflow tool's run is %s, want canceled", run.Status())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// abortParent runs m's agent "parent" on a worker of queue made by
// NewWorker (heartbeats every 100 ms), waits until started says the
// call it follows runs, and aborts it. It returns a context for the
// rest of the test, the client and the parent's run id.
func abortParent(t *testing.T, m *mastra.Mastra, queue string, started <-chan struct{}) (context.Context, *temporal.Client, string) {
	t.Helper()
	c := startNewWorker(t, m, queue, temporal.Options{Heartbeat: 100 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	runID, err := c.Start(ctx, temporal.RunInput{AgentKey: "parent", LaunchRequest: agent.LaunchRequest{Messages: []model.Message{model.UserText("Go.")}}})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := c.Abort(ctx, runID); err != nil {
		t.Fatal(err)
	}
	return ctx, c, runID
}

// startNewWorker starts a worker of queue made by NewWorker for m, stopped
// with t, and returns a client of queue.
func startNewWorker(t *testing.T, m *mastra.Mastra, queue string, opts temporal.Options) *temporal.Client {
	t.Helper()
	ts := newServer(t)
	w, err := temporal.NewWorker(ts.GetDefaultClient(), queue, m, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return temporal.NewClient(ts.GetDefaultClient(), queue, m)
}

// askedRun is what the step of TestStepAgentRunIsAChildWorkflow returns.
type askedRun struct {
	RunID string `json:"runId"`
	Text  string `json:"text"`
}

// An agent run that a workflow's step launches (the agent's Generate
// inside the step, on a worker made by NewWorker) is a child workflow of
// the workflow run's.
func TestStepAgentRunIsAChildWorkflow(t *testing.T) {
	store := newStore(t)
	helper, err := agent.New(agent.Config{ID: "helper", Name: "Helper", Instructions: "Greet.", Storage: store,
		Model: mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: "hi from helper"} })})
	if err != nil {
		t.Fatal(err)
	}
	ask := workflows.NewStep(workflows.StepConfig[tally, askedRun]{ID: "ask", Execute: func(ctx workflows.StepContext, _ tally) (askedRun, error) {
		out, err := helper.Generate(ctx, "Say hi.")
		if err != nil {
			return askedRun{}, err
		}
		return askedRun{RunID: out.RunID, Text: out.Text}, nil
	}})
	wf := workflows.New(workflows.Config{ID: "asking", Storage: store}).Then(ask)
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"helper": helper}, Workflows: map[string]*workflows.Workflow{"asking": wf}})
	startNewWorker(t, m, "step-agent", temporal.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := wf.CreateRun()
	res, err := run.Start(ctx, tally{N: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var asked askedRun
	if err := json.Unmarshal(res.Result, &asked); err != nil || asked.Text != "hi from helper" {
		t.Fatalf("the run: %s %s, %v", res.Status, res.Result, err)
	}
	checkChild(t, temporal.WorkflowID(asked.RunID), temporal.WorkflowRunWorkflowID(run.ID()))
}
