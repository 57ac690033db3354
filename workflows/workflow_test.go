package workflows

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomastra/mastra/stream"
)

type num struct {
	N int `json:"n"`
}

func addStep(id string, k int) *Step {
	return NewStep(StepConfig[num, num]{ID: id, Execute: func(_ StepContext, in num) (num, error) { return num{N: in.N + k}, nil }})
}

func mustCommit(t *testing.T, w *Workflow) *Workflow {
	t.Helper()
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestSequence(t *testing.T) {
	w := mustCommit(t, New(Config{ID: "seq"}).Then(addStep("a", 1)).Then(addStep("b", 10)))
	var types []string
	run := w.CreateRun()
	for c, err := range run.Stream(context.Background(), num{N: 1}, nil) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, c.Type)
	}
	res := run.result()
	if res.Status != StatusSuccess || string(res.Result) != `{"n":12}` {
		t.Fatalf("result %+v", res)
	}
	if got := strings.Join(types, " "); got != "workflow-start workflow-step-start workflow-step-result workflow-step-start workflow-step-result workflow-finish" {
		t.Errorf("chunks %s", got)
	}
	_ = stream.TypeWorkflowStart
	_ = json.RawMessage{}
}
