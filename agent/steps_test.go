package agent

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

func offered(req *model.Request) []string {
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Name)
	}
	return names
}

func TestActiveToolsAndToolsets(t *testing.T) {
	mul := tools.New(tools.Config[addIn, addOut]{ID: "mul", Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A * in.B}, nil }})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`}}}, mock.Step{Text: "no"})
	a := newAgent(t, m, tools.Set{"add": addTool()})
	out, err := a.Generate(context.Background(), "go", WithToolsets(tools.Set{"mul": mul}), WithActiveTools("mul"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"mul"}, offered(m.Calls()[0])); d != "" {
		t.Errorf("offered tools (-want +got):\n%s", d)
	}
	want := []string{`Tool "add" not found. Available tools: mul. Call tools by their exact name only — never add prefixes, namespaces, or colons.`}
	if d := cmp.Diff(want, toolErrors(out.Chunks)); d != "" {
		t.Errorf("an inactive tool is not found (-want +got):\n%s", d)
	}
}

func TestStopWhen(t *testing.T) {
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "add", Args: `{"a":1,"b":1}`}}}).RepeatLast()
	out, err := newAgent(t, m, tools.Set{"add": addTool()}).Generate(context.Background(), "loop",
		WithMaxSteps(10), WithStopWhen(StepCountIs(2)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Calls()) != 2 || out.FinishReason != model.FinishToolCalls {
		t.Errorf("%d model calls (want 2), reason %s", len(m.Calls()), out.FinishReason)
	}
	m = mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "add", Args: `{"a":1,"b":1}`}}}).RepeatLast()
	if _, err := newAgent(t, m, tools.Set{"add": addTool()}).Generate(context.Background(), "loop", WithStopWhen(HasToolCall("add"))); err != nil {
		t.Fatal(err)
	}
	if len(m.Calls()) != 1 {
		t.Errorf("HasToolCall: %d model calls", len(m.Calls()))
	}
}

func TestPrepareStep(t *testing.T) {
	first := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "add", Args: `{"a":1,"b":1}`}}})
	second := mock.New(mock.Step{Text: "from the second model"}).WithID("other", "other-model")
	a := newAgent(t, first, tools.Set{"add": addTool()})
	none := model.ToolChoiceNone
	out, err := a.Generate(context.Background(), "go", WithPrepareStep(func(_ context.Context, s PrepareStep) (*StepOverrides, error) {
		if s.StepNumber == 0 {
			return nil, nil
		}
		if len(s.Steps) != 1 || s.Steps[0].ToolNames()[0] != "add" {
			t.Errorf("prepareStep sees the earlier steps: %+v", s.Steps)
		}
		instr := "Answer now."
		return &StepOverrides{Model: second, ToolChoice: &none, ActiveTools: []string{}, Instructions: &instr}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "from the second model" || len(second.Calls()) != 1 {
		t.Fatalf("the second step must use the second model: %q", out.Text)
	}
	req := second.Calls()[0]
	if req.ToolChoice != none || len(req.Tools) != 0 || req.Messages[0].TextContent() != "Answer now." {
		t.Errorf("step overrides not applied: choice %+v, tools %v, system %q", req.ToolChoice, offered(req), req.Messages[0].TextContent())
	}
}

func TestCallbacksAndToolsFromRequestContext(t *testing.T) {
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "vipAdd", Args: `{"a":1,"b":2}`}}}, mock.Step{Text: "3"})
	a := newAgent(t, m, nil, func(c *Config) {
		c.ToolsFunc = func(_ context.Context, rc *tools.RequestContext) (tools.Set, error) {
			if tier, _ := rc.Get("tier"); tier == "vip" {
				return tools.Set{"vipAdd": addTool()}, nil
			}
			return nil, nil
		}
	})
	var steps []model.FinishReason
	var finished *Output
	out, err := a.Generate(context.Background(), "go",
		WithRequestContext(tools.NewRequestContext(map[string]any{"tier": "vip"})),
		WithOnStepFinish(func(_ context.Context, s Step) { steps = append(steps, s.FinishReason) }),
		WithOnFinish(func(_ context.Context, f *Output) { finished = f }),
	)
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "3" || len(toolErrors(out.Chunks)) != 0 {
		t.Fatalf("the request context's tool was not offered: %v", toolErrors(out.Chunks))
	}
	if d := cmp.Diff([]model.FinishReason{model.FinishToolCalls, model.FinishStop}, steps); d != "" {
		t.Errorf("onStepFinish (-want +got):\n%s", d)
	}
	if finished == nil || finished.FinishReason != model.FinishStop || len(finished.Steps) != 2 || finished.RunID != out.RunID {
		t.Errorf("onFinish: %+v", finished)
	}
}

func TestModelFromRequestContext(t *testing.T) {
	basic := mock.New(mock.Step{Text: "basic"})
	premium := mock.New(mock.Step{Text: "premium"}).WithID("openai", "gpt-premium")
	a := newAgent(t, basic, nil, func(c *Config) {
		c.Model = nil
		c.ModelFunc = func(_ context.Context, rc *tools.RequestContext) (model.LanguageModel, error) {
			if tier, _ := rc.Get("tier"); tier == "premium" {
				return premium, nil
			}
			return basic, nil
		}
	})
	out, err := a.Generate(context.Background(), "hi", WithRequestContext(tools.NewRequestContext(map[string]any{"tier": "premium"})))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "premium" || out.Steps[0].Response.ModelMetadata.ModelID != "gpt-premium" {
		t.Errorf("the request context's model was not used: %q from %+v", out.Text, out.Steps[0].Response.ModelMetadata)
	}
	failing := newAgent(t, basic, nil, func(c *Config) {
		c.ModelFunc = func(context.Context, *tools.RequestContext) (model.LanguageModel, error) { return nil, nil }
	})
	if _, err := failing.Generate(context.Background(), "hi"); err == nil || !strings.Contains(err.Error(), "returned no model") {
		t.Errorf("a model function without a model: %v", err)
	}
}

func TestSettingsAndProviderOptionsReachTheModel(t *testing.T) {
	m := mock.New(mock.Step{Text: "hi"})
	temp := 0.2
	po := model.ProviderOptions{"openai": {"reasoningEffort": "low"}}
	if _, err := newAgent(t, m, nil).Generate(context.Background(), "hi", WithSettings(model.CallSettings{Temperature: &temp}), WithProviderOptions(po)); err != nil {
		t.Fatal(err)
	}
	req := m.Calls()[0]
	if req.Settings.Temperature == nil || *req.Settings.Temperature != 0.2 || req.ProviderOptions["openai"]["reasoningEffort"] != "low" {
		t.Errorf("request settings %+v, provider options %v", req.Settings, req.ProviderOptions)
	}
}

type noteProcessor struct{ seen []int }

func (p *noteProcessor) ID() string { return "note" }

func (p *noteProcessor) ProcessStep(_ context.Context, s *StepInput) error {
	p.seen = append(p.seen, s.StepNumber)
	s.Messages = append(s.Messages, model.UserText("<note>step "+strconv.Itoa(s.StepNumber)+"</note>"))
	return nil
}

func TestProcessorsShapeEachModelCallOnly(t *testing.T) {
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "add", Args: `{"a":1,"b":2}`}}}, mock.Step{Text: "3"})
	p := &noteProcessor{}
	out, err := newAgent(t, m, tools.Set{"add": addTool()}, func(c *Config) { c.Processors = []StepProcessor{p} }).Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	second := m.Calls()[1].Messages
	if last := second[len(second)-1].TextContent(); last != "<note>step 1</note>" || len(second) != 5 || len(p.seen) != 2 {
		t.Errorf("second call ends with %q (%d messages), processor saw steps %v", last, len(second), p.seen)
	}
	for _, msg := range out.Response.Messages {
		if strings.Contains(msg.TextContent(), "<note>") {
			t.Errorf("a processor's message entered the run's history: %+v", msg)
		}
	}
}
