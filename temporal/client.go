package temporal

import (
	"context"
	"errors"
	"fmt"
	"iter"

	enums "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// Client starts agent runs on Temporal and signals them. It needs no
// worker: the runs' chunks come from their event logs in the agents'
// storage.
type Client struct {
	temporal  client.Client
	taskQueue string
	mastra    *mastra.Mastra
}

// NewClient returns a client that starts runs of m's agents on
// taskQueue (DefaultTaskQueue when empty).
func NewClient(c client.Client, taskQueue string, m *mastra.Mastra) *Client {
	if taskQueue == "" {
		taskQueue = DefaultTaskQueue
	}
	return &Client{temporal: c, taskQueue: taskQueue, mastra: m}
}

// WorkflowID is the id of the workflow of the run runID.
func WorkflowID(runID string) string { return "gomastra-run-" + runID }

// Start starts the run in (a new run id when in.RunID is empty) and
// returns its run id. A run id is run once: starting a run whose id has
// run, or runs, already starts nothing and returns its id. Called from
// the tool-call activity of a run's workflow (a sub-agent's launch on a
// worker), it has that workflow start the run as its child.
func (c *Client) Start(ctx context.Context, in RunInput) (string, error) {
	if _, err := c.mastra.GetAgent(in.AgentKey); err != nil {
		return "", err
	}
	if in.RunID == "" {
		in.RunID = uuid.New()
	}
	if child, err := c.startAsChild(ctx, childStart{WorkflowID: WorkflowID(in.RunID), AgentRun: &in}); child {
		return in.RunID, err
	}
	_, err := c.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: WorkflowID(in.RunID), TaskQueue: c.taskQueue,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE}, WorkflowAgentRun, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return in.RunID, nil // one run per id: this one has started, or ended, already
	}
	if err != nil {
		return "", fmt.Errorf("temporal: starting run %s: %w", in.RunID, err)
	}
	return in.RunID, nil
}

// Stream starts the run in and yields its chunks as they reach its log.
func (c *Client) Stream(ctx context.Context, in RunInput) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		runID, err := c.Start(ctx, in)
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		for ch, err := range c.Observe(ctx, in.AgentKey, runID, 0) {
			if !yield(ch, err) || err != nil {
				return
			}
		}
	}
}

// Observe yields the chunks of the agent's run runID from index offset
// of its log on, waiting for a run that has not yet logged anything
// (agent.Observe, which this is, does not).
func (c *Client) Observe(ctx context.Context, agentKey, runID string, offset int64) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		a, err := c.mastra.GetAgent(agentKey)
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		events, ok := a.Storage().(storage.RunEvents)
		if !ok {
			yield(stream.Chunk{}, fmt.Errorf("temporal: agent %s: its storage keeps no run event log", agentKey))
			return
		}
		if err := events.WaitEvents(ctx, runID, -1); err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		for ev, err := range a.Observe(ctx, runID, offset) {
			if err != nil {
				yield(stream.Chunk{}, err)
				return
			}
			if ev.Type != agent.RunEventIterationComplete && !yield(ev.Chunk, nil) {
				return
			}
		}
	}
}

// Result waits for the run runID to end and returns how it ended.
func (c *Client) Result(ctx context.Context, runID string) (RunResult, error) {
	var res RunResult
	err := c.temporal.GetWorkflow(ctx, WorkflowID(runID), "").Get(ctx, &res)
	return res, err
}

// Approve approves the run's waiting call toolCallID.
func (c *Client) Approve(ctx context.Context, runID, toolCallID string) error {
	yes := true
	return c.answer(ctx, runID, agent.Answer{ToolCallID: toolCallID, Approved: &yes})
}

// Decline declines the run's waiting call toolCallID, for reason.
func (c *Client) Decline(ctx context.Context, runID, toolCallID, reason string) error {
	no := false
	return c.answer(ctx, runID, agent.Answer{ToolCallID: toolCallID, Approved: &no, Reason: reason})
}

// Resume gives the run's suspended call toolCallID its resume data.
func (c *Client) Resume(ctx context.Context, runID, toolCallID string, data []byte) error {
	return c.answer(ctx, runID, agent.Answer{ToolCallID: toolCallID, Data: data})
}

// Abort aborts the run.
func (c *Client) Abort(ctx context.Context, runID string) error {
	return c.temporal.SignalWorkflow(ctx, WorkflowID(runID), "", SignalAbort, nil)
}

func (c *Client) answer(ctx context.Context, runID string, a agent.Answer) error {
	if a.ToolCallID == "" {
		return errors.New("temporal: an answer needs the waiting call's id")
	}
	return c.temporal.SignalWorkflow(ctx, WorkflowID(runID), "", SignalAnswer, a)
}
