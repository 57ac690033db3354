package conformance_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomastra/mastra/mcpserver/interop/peer"
)

// The suite's tasks scenarios (SEP-2663), one by one, each check listed:
// those in tasksPassing must pass whole; the others must pass the checks
// listed for them (they fail on fixtures a Mastra tool cannot be, see
// ../conformance-baseline.yml).
func TestTasksScenarios(t *testing.T) {
	p := peer.Find(t)
	ts := serveConformance(t)
	for scenario, mustPass := range tasksScenarios {
		t.Run(scenario, func(t *testing.T) {
			out := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := p.Command(ctx, "node_modules/@modelcontextprotocol/conformance/dist/index.js", "server",
				"--url", ts.URL+"/mcp", "--scenario", scenario, "-o", out)
			output, _ := cmd.CombinedOutput()
			checks := readChecks(t, out)
			if len(checks) == 0 {
				t.Fatalf("no checks recorded:\n%s", tail(output, 3000))
			}
			for _, c := range checks {
				t.Logf("%-8s %s %s", c.Status, c.ID, c.ErrorMessage)
				if c.Status != "FAILURE" {
					continue
				}
				if mustPass == nil || mustPass[c.ID] {
					t.Errorf("check %s failed: %s", c.ID, c.ErrorMessage)
				}
			}
		})
	}
}

// tasksScenarios maps each tasks scenario to the checks that must pass
// (nil: all of them).
var tasksScenarios = map[string]map[string]bool{
	"tasks-lifecycle":              nil,
	"tasks-capability-negotiation": nil,
	"tasks-wire-fields":            nil,
	"tasks-request-state-removal":  nil,
	"tasks-dispatch-and-envelope":  nil,
	"tasks-required-task-error":    nil,
	"tasks-request-headers":        nil,
	"tasks-mrtr-input": {
		"sep-2663-tasks-get-status-input-required": true,
		"tasks-mrtr-tasks-update-resumes":          true,
	},
}

type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

func readChecks(t *testing.T, dir string) []check {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	var all []check
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cs []check
		if err := json.Unmarshal(raw, &cs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		all = append(all, cs...)
	}
	return all
}
