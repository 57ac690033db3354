package agent

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// TestHooksSeeTheRequestContextAndTypedValues: both hooks get the run's
// request context, and read the call's input and the tool's output as
// typed values.
func TestHooksSeeTheRequestContextAndTypedValues(t *testing.T) {
	add := tools.New(tools.Config[addIn, addOut]{ID: "add", Execute: func(_ tools.Context, in addIn) (addOut, error) {
		return addOut{Sum: in.A + in.B}, nil
	}})
	var log []string
	hooks := Hooks{
		BeforeToolCall: func(_ context.Context, c HookCall) (*Skip, error) {
			tenant, _ := c.RequestContext.Get("tenant")
			in, err := InputAs[addIn](c)
			if err != nil {
				return nil, err
			}
			log = append(log, "before", tenant.(string), strconv.Itoa(in.A), strconv.Itoa(in.B))
			return nil, nil
		},
		AfterToolCall: func(_ context.Context, c HookCall, output any, _ error) error {
			tenant, _ := c.RequestContext.Get("tenant")
			out, err := OutputAs[addOut](output)
			if err != nil {
				return err
			}
			log = append(log, "after", tenant.(string), strconv.Itoa(out.Sum))
			return nil
		},
	}
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`}}}, mock.Step{Text: "3"})
	a := newAgent(t, m, tools.Set{"add": add}, func(c *Config) { c.Hooks = hooks })
	rc := tools.NewRequestContext(map[string]any{"tenant": "acme"})
	if _, err := a.Generate(context.Background(), "go", WithRequestContext(rc)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, " "); got != "before acme 1 2 after acme 3" {
		t.Errorf("hooks saw %q", got)
	}
}

func TestOutputAs(t *testing.T) {
	if out, err := OutputAs[addOut](addOut{Sum: 4}); err != nil || out.Sum != 4 {
		t.Errorf("a value of the type: %v %v", out, err)
	}
	if out, err := OutputAs[addOut](map[string]any{"sum": 5}); err != nil || out.Sum != 5 {
		t.Errorf("a map: %v %v", out, err)
	}
	if _, err := OutputAs[addOut](&tools.ValidationError{Message: "bad"}); err == nil || !strings.Contains(err.Error(), "bad") {
		t.Errorf("a validation error: %v", err)
	}
	if _, err := InputAs[addIn](HookCall{Input: []byte(`{"a":"x"}`)}); err == nil {
		t.Error("mistyped input decoded")
	}
}
