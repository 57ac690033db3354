package temporal

import (
	"context"
	"errors"

	"go.temporal.io/api/serviceerror"

	"github.com/gomastra/mastra/agent"
)

// Launcher returns the agent.Launcher that runs the runs of the
// registry's agent agentKey as workflows of c: give it to the agent
// (agent.UseLauncher) in a process that serves the agent without
// running it, such as an API server whose workers run elsewhere.
func (c *Client) Launcher(agentKey string) agent.Launcher { return launcher{c: c, key: agentKey} }

// UseLaunchers has every agent and workflow of the client's registry run
// its runs through the client (workflows.Workflow.UseLauncher).
func (c *Client) UseLaunchers() error {
	for key, a := range c.mastra.ListAgents() {
		if err := a.UseLauncher(c.Launcher(key)); err != nil {
			return err
		}
	}
	for key, w := range c.mastra.ListWorkflows() {
		if err := w.UseLauncher(c.WorkflowLauncher(key)); err != nil {
			return err
		}
	}
	return nil
}

type launcher struct {
	c   *Client
	key string
}

func (l launcher) Launch(ctx context.Context, req agent.LaunchRequest) error {
	_, err := l.c.Start(ctx, RunInput{AgentKey: l.key, LaunchRequest: req})
	return err
}

func (l launcher) Answer(ctx context.Context, runID string, a agent.Answer) error {
	return l.c.answer(ctx, runID, a)
}

func (l launcher) Abort(ctx context.Context, runID string) (bool, error) {
	err := l.c.Abort(ctx, runID)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return false, nil
	}
	return err == nil, err
}
