package agent_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/workflows"
)

// An agent offered a workflow that was never committed would only fail
// when the model called it; New refuses it, naming the key and the cure.
func TestNewRefusesUncommittedWorkflow(t *testing.T) {
	var runs atomic.Int32
	draft := workflows.New(workflows.Config{ID: "research"}).Then(wfPlan(&runs))
	_, err := agent.New(agent.Config{ID: "researcher", Model: mock.New(mock.Step{Text: "hi"}),
		Workflows: map[string]*workflows.Workflow{"research": draft}})
	if err == nil {
		t.Fatal("New accepted an uncommitted workflow")
	}
	for _, want := range []string{"researcher", `"research"`, "Commit"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if err := draft.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.New(agent.Config{ID: "researcher", Model: mock.New(mock.Step{Text: "hi"}),
		Workflows: map[string]*workflows.Workflow{"research": draft}}); err != nil {
		t.Fatalf("a committed workflow: %v", err)
	}
}
