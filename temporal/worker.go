package temporal

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/gomastra/mastra"
)

// DefaultTaskQueue is the task queue runs go to when none is named.
const DefaultTaskQueue = "gomastra"

// Register registers on r the workflows and activities that run the
// agents and workflows of m: any worker of yours can then run gomastra
// runs. The agents and workflows need shared storage (agent.Config.Storage,
// workflows.Config.Storage: SQLite or PostgreSQL that the readers of their
// runs reach too).
func Register(r worker.Registry, m *mastra.Mastra, opts Options) {
	opts = opts.withDefaults()
	w := &runners{mastra: m, opts: opts}
	r.RegisterWorkflowWithOptions(w.agentRun, workflow.RegisterOptions{Name: WorkflowAgentRun})
	a := &activities{mastra: m, opts: opts}
	r.RegisterActivityWithOptions(a.callModel, activity.RegisterOptions{Name: activityCallModel})
	r.RegisterActivityWithOptions(a.callTool, activity.RegisterOptions{Name: activityCallTool})
	r.RegisterActivityWithOptions(a.awaitTask, activity.RegisterOptions{Name: activityAwaitTask})
	r.RegisterWorkflowWithOptions(w.workflowRun, workflow.RegisterOptions{Name: WorkflowWorkflowRun})
	r.RegisterActivityWithOptions(a.advanceWorkflow, activity.RegisterOptions{Name: activityAdvanceWorkflow})
}

// NewWorker returns a worker of taskQueue (DefaultTaskQueue when empty)
// that runs the agents and workflows of m; Run or Start it. The agents
// and workflows of m launch their runs through c from then on
// (Client.UseLaunchers), so that a sub-agent's run (agent-<key>), or a
// workflow tool's (workflow-<key>), is a child workflow of the calling
// run's, which the parent's call follows, rather than a run inside that
// call.
func NewWorker(c client.Client, taskQueue string, m *mastra.Mastra, opts Options) (worker.Worker, error) {
	if taskQueue == "" {
		taskQueue = DefaultTaskQueue
	}
	if err := NewClient(c, taskQueue, m).UseLaunchers(); err != nil {
		return nil, err
	}
	w := worker.New(c, taskQueue, worker.Options{})
	Register(w, m, opts)
	return w, nil
}
