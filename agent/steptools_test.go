package agent

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// replaceTools is a processor that offers its own tool list each step.
type replaceTools struct{ add *tools.Tool }

func (replaceTools) ID() string { return "replace-tools" }

func (p replaceTools) ProcessStep(_ context.Context, s *StepInput) error {
	s.Tools = append([]StepTool{{Name: "extra tool!", Tool: p.add}}, s.Tools[1:]...)
	return nil
}

// A processor's StepInput.Tools are exactly what the model is offered, in
// order, names sanitised, and the step's calls run against them.
func TestProcessorChoosesTheStepTools(t *testing.T) {
	extra := tools.New(tools.Config[confirmIn, confirmOut]{ID: "extra", Execute: func(tools.Context, confirmIn) (confirmOut, error) {
		return confirmOut{Paid: true}, nil
	}})
	keep := tools.New(tools.Config[confirmIn, confirmOut]{ID: "keep", Execute: func(tools.Context, confirmIn) (confirmOut, error) { return confirmOut{}, nil }})
	dropped := tools.New(tools.Config[confirmIn, confirmOut]{ID: "dropped", Execute: func(tools.Context, confirmIn) (confirmOut, error) { return confirmOut{}, nil }})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "extra_tool_", Args: `{"amount":1}`}, {ID: "c2", Name: "a_dropped", Args: `{"amount":1}`}}}, mock.Step{Text: "done"})
	a := newAgent(t, m, tools.Set{"a_dropped": dropped, "b_keep": keep}, func(c *Config) { c.Processors = []StepProcessor{replaceTools{add: extra}} })
	out, err := a.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range m.Calls()[0].Tools {
		names = append(names, d.Name)
	}
	if len(names) != 2 || names[0] != "extra_tool_" || names[1] != "b_keep" {
		t.Fatalf("offered %v", names)
	}
	if len(out.ToolResults) != 1 {
		t.Fatalf("results %+v", out.ToolResults)
	}
	want := `Tool "a_dropped" not found. Available tools: extra_tool_, b_keep. Call tools by their exact name only — never add prefixes, namespaces, or colons.`
	if errs := toolErrors(out.Chunks); len(errs) != 1 || errs[0] != want {
		t.Errorf("the dropped tool's call: %q", errs)
	}
}
