package temporal_test

import (
	"context"
	"testing"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/temporal"
)

// replayRegistry registers the workflows of temporal.Register on a
// replayer, which runs no activities.
type replayRegistry struct {
	worker.WorkflowReplayer
	worker.NexusServiceRegistry // never used by temporal.Register
}

func (replayRegistry) RegisterActivity(any)                                         {}
func (replayRegistry) RegisterActivityWithOptions(any, activity.RegisterOptions)    {}
func (replayRegistry) RegisterDynamicActivity(any, activity.DynamicRegisterOptions) {}

// replay replays the history of the ended run runID's workflow with the
// workflows of reg: it fails when the workflow's code, run again from
// its history as a worker that takes the run over does, decides
// otherwise than it did (a nondeterministic effect).
func replay(t *testing.T, c client.Client, reg *mastra.Mastra, runID string) {
	t.Helper()
	h := &historypb.History{}
	it := c.GetWorkflowHistory(context.Background(), temporal.WorkflowID(runID), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, e)
	}
	r := replayRegistry{WorkflowReplayer: worker.NewWorkflowReplayer()}
	temporal.Register(r, reg, temporal.Options{})
	if err := r.ReplayWorkflowHistory(nil, h); err != nil {
		t.Fatalf("replaying run %s: %v", runID, err)
	}
}
