package agent

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/tools"
)

func bgTool(t *testing.T, bg *tools.BackgroundConfig) *tools.Tool {
	t.Helper()
	type in struct {
		City string `json:"city"`
	}
	return tools.New(tools.Config[in, string]{ID: "research", Description: "d", Background: bg,
		Execute: func(tools.Context, in) (string, error) { return "ok", nil }})
}

func TestBackgroundPlanResolution(t *testing.T) {
	on := bgTool(t, &tools.BackgroundConfig{Enabled: true, Timeout: time.Minute, MaxRetries: 2})
	off := bgTool(t, nil)
	fg := bgTool(t, &tools.BackgroundConfig{Enabled: true, DefaultDisposition: tools.DispositionForeground})
	yes, no := true, false
	ms, retries := 1500.0, 4.0
	cases := []struct {
		name  string
		agent *BackgroundTasks
		tool  string
		t     *tools.Tool
		o     *backgroundOverride
		want  backgroundPlan
	}{
		{"tool says enabled: deferred by default", nil, "research", on, nil, backgroundPlan{tools.DispositionDeferred, time.Minute, 2}},
		{"tool says nothing: foreground", nil, "research", off, nil, backgroundPlan{disposition: tools.DispositionForeground}},
		{"an override cannot opt an ineligible tool in", nil, "research", off, &backgroundOverride{Disposition: tools.DispositionAwaited}, backgroundPlan{disposition: tools.DispositionForeground}},
		{"agent all", &BackgroundTasks{All: true}, "research", off, nil, backgroundPlan{disposition: tools.DispositionDeferred}},
		{"agent false beats the tool", &BackgroundTasks{Tools: map[string]BackgroundTool{"research": {Enabled: false}}}, "research", on, nil, backgroundPlan{disposition: tools.DispositionForeground}},
		{"agent names a sub-agent by key", &BackgroundTasks{Tools: map[string]BackgroundTool{"writer": {Enabled: true, Timeout: time.Second}}}, "agent-writer", off, nil, backgroundPlan{tools.DispositionDeferred, time.Second, 0}},
		{"agent names a workflow by key", &BackgroundTasks{Tools: map[string]BackgroundTool{"flow": {Enabled: true}}}, "workflow-flow", off, nil, backgroundPlan{disposition: tools.DispositionDeferred}},
		{"disabled agent", &BackgroundTasks{Disabled: true, All: true}, "research", on, &backgroundOverride{Disposition: tools.DispositionDeferred}, backgroundPlan{disposition: tools.DispositionForeground}},
		{"foreground default", nil, "research", fg, nil, backgroundPlan{disposition: tools.DispositionForeground}},
		{"override opts a foreground-default tool in", nil, "research", fg, &backgroundOverride{Disposition: tools.DispositionAwaited}, backgroundPlan{disposition: tools.DispositionAwaited}},
		{"enabled true is deferred", nil, "research", fg, &backgroundOverride{Enabled: &yes}, backgroundPlan{disposition: tools.DispositionDeferred}},
		{"enabled false is foreground", nil, "research", on, &backgroundOverride{Enabled: &no}, backgroundPlan{tools.DispositionForeground, time.Minute, 2}},
		{"timeout and retries from the model", nil, "research", on, &backgroundOverride{TimeoutMs: &ms, MaxRetries: &retries}, backgroundPlan{tools.DispositionDeferred, 1500 * time.Millisecond, 4}},
	}
	for _, c := range cases {
		if got := c.agent.plan(c.tool, c.t, c.o); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestSplitBackgroundKeepsTheOtherArguments(t *testing.T) {
	rest, v := splitBackground(json.RawMessage(`{"b":1,"_background":{"disposition":"awaited"},"a":"x"}`))
	if string(rest) != `{"b":1,"a":"x"}` || string(v) != `{"disposition":"awaited"}` {
		t.Errorf("rest %s value %s", rest, v)
	}
	rest, v = splitBackground(json.RawMessage(`{"_background":null}`))
	if string(rest) != `{}` || v != nil {
		t.Errorf("null: rest %s value %s", rest, v)
	}
	for _, args := range []string{`{"a":1}`, `"_background"`, `[1]`} {
		if rest, v := splitBackground(json.RawMessage(args)); string(rest) != args || v != nil {
			t.Errorf("%s: rest %s value %s", args, rest, v)
		}
	}
}

func TestParseBackgroundReportsWhatTheModelMustFix(t *testing.T) {
	o, issues := parseBackground(json.RawMessage(`{"disposition":"awaited","timeoutMs":100}`))
	if len(issues) > 0 || o.Disposition != tools.DispositionAwaited || *o.TimeoutMs != 100 {
		t.Fatalf("valid: %+v %v", o, issues)
	}
	cases := map[string]string{
		`{"disposition":"later"}`: "_background.disposition",
		`{"when":"now"}`:          "_background",
		`"deferred"`:              "_background",
		`{"enabled":"yes"}`:       "_background.enabled",
	}
	for in, path := range cases {
		_, issues := parseBackground(json.RawMessage(in))
		if len(issues) == 0 || strings.Join(issues[0].Path, ".") != path {
			t.Errorf("%s: issues %+v, want one at %s", in, issues, path)
		}
	}
}

func TestBackgroundSystemPromptListsEligibleTools(t *testing.T) {
	if backgroundSystemPrompt(nil) != "" {
		t.Error("a prompt without eligible tools")
	}
	p := backgroundSystemPrompt([]backgroundToolLine{{"research", tools.DispositionDeferred}, {"scan", tools.DispositionForeground}})
	for _, want := range []string{
		"The following tools support background execution:\n- research (default: background)\n- scan (default: foreground — opt in with \"_background\")\n\n",
		`"_background": { "disposition": "foreground" | "deferred" | "awaited", "timeoutMs": number, "maxRetries": number }`,
		`IMPORTANT: "_background" field is always an object.`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
}

func TestWithBackgroundFieldAddsTheFieldLast(t *testing.T) {
	in := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"city": {Type: "string"}}, PropertyOrder: []string{"city"}, Required: []string{"city"}}
	out := withBackgroundField(in)
	if _, ok := in.Properties[backgroundKey]; ok || len(in.PropertyOrder) != 1 {
		t.Fatal("the tool's own schema was changed")
	}
	if !slices.Equal(out.PropertyOrder, []string{"city", backgroundKey}) || slices.Contains(out.Required, backgroundKey) {
		t.Errorf("order %v required %v", out.PropertyOrder, out.Required)
	}
	b, _ := json.Marshal(out.Properties[backgroundKey])
	if !strings.Contains(string(b), `"enum":["foreground","deferred","awaited"]`) || !strings.Contains(string(b), `"additionalProperties":false`) {
		t.Errorf("field schema %s", b)
	}
}

func TestContinuationDirectiveNamesEachEndedCall(t *testing.T) {
	d := continuationDirective([]endedTask{
		{bgCompleted, "c1", "research"}, {bgFailed, "c2", "scan"}, {bgCancelled, "c3", ""}, {bgSuspended, "c4", "ask"},
	})
	want := `IMPORTANT: The following tool-call IDs completed successfully: c1 (research). Their results are now in the conversation. Do not call the same tool again — the result is already available.  IMPORTANT: The following tool-call IDs failed: c2 (scan).`
	if !strings.HasPrefix(d, want) || !strings.Contains(d, "cancelled by the user before completion: c3.") || !strings.HasSuffix(d, "are suspended: c4 (ask). Do not attempt to resume them; let the user know they are waiting for explicit resume input.") {
		t.Errorf("directive:\n%s", d)
	}
}
