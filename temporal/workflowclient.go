package temporal

import (
	"context"
	"errors"
	"fmt"

	enums "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/gomastra/mastra/workflows"
)

// WorkflowRunWorkflowID is the Temporal workflow id of the gomastra
// workflow run runID.
func WorkflowRunWorkflowID(runID string) string { return "gomastra-workflow-" + runID }

// StartWorkflowRun starts the run runID of the registry's workflow key,
// which the workflow's storage holds as started (workflows.Run.Stream
// saves it so with a launcher). A run id is run once: starting one that
// has run, or runs, already starts nothing. Called from the tool-call
// activity of an agent run's workflow (a workflow tool's launch on a
// worker), it has that workflow start the run as its child.
func (c *Client) StartWorkflowRun(ctx context.Context, key, runID string) error {
	if _, err := c.mastra.GetWorkflow(key); err != nil {
		return err
	}
	in := WorkflowRunInput{WorkflowKey: key, RunID: runID}
	if child, err := c.startAsChild(ctx, childStart{WorkflowID: WorkflowRunWorkflowID(runID), WorkflowRun: &in}); child {
		return err
	}
	_, err := c.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: WorkflowRunWorkflowID(runID), TaskQueue: c.taskQueue,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE}, WorkflowWorkflowRun, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if err != nil && !errors.As(err, &started) {
		return fmt.Errorf("temporal: starting workflow run %s: %w", runID, err)
	}
	return nil
}

// ContinueWorkflowRun tells the suspended workflow run runID that a
// resume has been saved with it (workflows.Run.ResumeStream does that
// with a launcher).
func (c *Client) ContinueWorkflowRun(ctx context.Context, runID string) error {
	return c.temporal.SignalWorkflow(ctx, WorkflowRunWorkflowID(runID), "", SignalContinue, nil)
}

// CancelWorkflowRun cancels the workflow run runID: the node that runs
// ends canceled, a suspended run's wait ends. It reports whether the
// run's Temporal workflow was running.
func (c *Client) CancelWorkflowRun(ctx context.Context, runID string) (bool, error) {
	err := c.temporal.CancelWorkflow(ctx, WorkflowRunWorkflowID(runID), "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return false, nil
	}
	return err == nil, err
}

// WorkflowLauncher returns the workflows.Launcher that runs the runs of
// the registry's workflow key as Temporal workflows of c.
func (c *Client) WorkflowLauncher(key string) workflows.Launcher {
	return workflowLauncher{c: c, key: key}
}

type workflowLauncher struct {
	c   *Client
	key string
}

func (l workflowLauncher) Launch(ctx context.Context, runID string) error {
	return l.c.StartWorkflowRun(ctx, l.key, runID)
}

func (l workflowLauncher) Continue(ctx context.Context, runID string) error {
	return l.c.ContinueWorkflowRun(ctx, runID)
}

func (l workflowLauncher) Cancel(ctx context.Context, runID string) (bool, error) {
	return l.c.CancelWorkflowRun(ctx, runID)
}
