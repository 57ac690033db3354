package compat

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/tools"
)

// slowAddTool adds once its run is aborted (its context ends), or after
// ten seconds: the tool in flight when observe.mjs aborts the thread.
func slowAddTool() *tools.Tool {
	return tools.New(tools.Config[addInput, addOutput]{
		ID: "slow-add", Description: "Add two integers, slowly",
		Execute: func(ctx tools.Context, in addInput) (addOutput, error) {
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
			}
			return add(in), nil
		},
	})
}

// observeApp serves calc-agent and slow-agent for observe.mjs.
func observeApp(t testing.TB) *mastra.Mastra {
	t.Helper()
	st := openStore(t)
	m := mastra.New(mastra.Config{Logger: quiet})
	for _, err := range []error{
		m.AddAgent(newAgent(t, st, agent.Config{ID: "calc-agent", Name: "calc-agent", Instructions: "You add numbers.",
			Tools: tools.Set{"add": addTool()}}, "add"), "calcAgent"),
		m.AddAgent(newAgent(t, st, agent.Config{ID: "slow-agent", Name: "slow-agent", Instructions: "You add numbers.",
			Tools: tools.Set{"slow-add": slowAddTool()}}, "slow-add"), "slowAgent"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestClientJSObserveAndAbort runs observe.mjs: @mastra/client-js 1.47's
// agent.observe (history from an offset, live events, errors) and
// agent.abortThread against the Go server; each step's own checks must
// pass.
func TestClientJSObserveAndAbort(t *testing.T) {
	t.Parallel()
	tc := needToolchain(t)
	url := serve(t, observeApp(t))
	res := tc.run(t, clientTimeout, t.TempDir(), filepath.Join(tc.bin, "node"), filepath.Join(tc.dir, "observe.mjs"), url)
	if res.code != 0 {
		t.Fatalf("observe.mjs exit %d\nstderr: %s", res.code, clip(res.stderr))
	}
	got, err := decodeReport([]byte(res.stdout))
	if err != nil {
		t.Fatalf("observe.mjs output: %v\n%s", err, clip(res.stdout))
	}
	if len(got.Steps) == 0 {
		t.Fatalf("no steps: %s", clip(res.stdout))
	}
	for _, s := range got.Steps {
		t.Run(s.Name, func(t *testing.T) {
			if !s.OK {
				var v any
				_ = json.Unmarshal(s.Value, &v)
				t.Errorf("%s\nobserved: %v", s.Error, v)
			}
		})
	}
}
