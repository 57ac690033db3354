package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/toolsearch"
)

type calcInput struct {
	X float64 `json:"x"`
}

// calcTool is the captured agent's own tool.
func calcTool(t testing.TB) *tools.Tool {
	t.Helper()
	tool, err := tools.Build(tools.Config[calcInput, calcInput]{
		ID: "calc", Description: "Calculator",
		Execute: func(_ tools.Context, in calcInput) (calcInput, error) { return in, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// The captured agent runs, replayed step by step the way an agent loop
// drives the processor: each model call gets Mastra's system messages and
// Mastra's tool definitions (names, order, descriptions, schemas), and each
// scripted call's result is the one Mastra's model saw next.
func TestMastraRunsStepByStep(t *testing.T) {
	f := mastraFixtures(t)
	for _, run := range f.AgentRuns {
		t.Run(run.Name, func(t *testing.T) {
			opts := run.Options.options(catalogueSet(t, f, "small", run.Approval...))
			opts.InjectCatalog = run.InjectCatalog
			p := newProcessor(t, opts)
			own := []toolsearch.NamedTool{{Name: "calc", Tool: calcTool(t)}}
			msgs := []model.Message{model.System("You are helpful."), model.UserText("go")}
			for i, prompt := range run.Prompts {
				prep, err := p.Prepare(context.Background(), toolsearch.Step{Messages: msgs, Tools: own})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(prompt.System[1:], prep.System); diff != "" {
					t.Errorf("call %d system (-mastra +go):\n%s", i, diff)
				}
				if len(prompt.Tools) != len(prep.Tools) {
					t.Fatalf("call %d: tools %v, Mastra offered %d", i, names(prep.Tools), len(prompt.Tools))
				}
				for j, want := range prompt.Tools {
					got := prep.Tools[j]
					if got.Name != want.Name || got.Tool.Description() != want.Description {
						t.Errorf("call %d tool %d: %s %q, want %s %q", i, j, got.Name, got.Tool.Description(), want.Name, want.Description)
					}
					ms, err := compat.Marshal(got.Tool.ModelSchema(compat.Model{Provider: "mock", ModelID: "m"}).Schema)
					if err != nil {
						t.Fatal(err)
					}
					sameValue(t, fmt.Sprintf("call %d %s schema", i, want.Name), want.InputSchema, ms)
				}
				if i+1 >= len(run.Prompts) {
					break
				}
				// Play the scripted call and check its result against the
				// next prompt's.
				sc := run.Script[i]
				id := fmt.Sprintf("call-%d", i+1)
				msgs = append(msgs, model.Assistant(model.ToolCall(id, sc.Tool, sc.Args)))
				next := run.Prompts[i+1].LastToolResults
				tool := findOrNil(prep, sc.Tool)
				if tool == nil {
					// Not offered: the agent reports it (its text is the
					// agent's, not this package's).
					if len(next) != 1 || next[0].Output.Type != "error-text" {
						t.Fatalf("call %d: %s not offered, but Mastra ran it: %+v", i, sc.Tool, next)
					}
					msgs = append(msgs, model.ToolMessage(model.ToolResultPart{ToolCallID: id, ToolName: sc.Tool, Output: model.ErrorTextOutput("not found")}))
					continue
				}
				if requiresApproval(run.Approval, sc.Tool, f) && !tool.RequireApproval() {
					t.Errorf("call %d: loaded %s lost requireApproval", i, sc.Tool)
				}
				out := execute(t, tool, sc.Args, nil)
				if len(next) != 1 || next[0].ToolName != sc.Tool || next[0].Output.Type != "json" {
					t.Fatalf("call %d: Mastra's next prompt ends with %+v", i, next)
				}
				sameJSON(t, fmt.Sprintf("call %d %s result", i, sc.Tool), next[0].Output.Value, out)
				var v any
				if err := json.Unmarshal(out, &v); err != nil {
					t.Fatal(err)
				}
				msgs = append(msgs, model.ToolMessage(model.ToolResultPart{ToolCallID: id, ToolName: sc.Tool, Output: model.JSONOutput(v)}))
			}
		})
	}
}

func findOrNil(prep *toolsearch.Prepared, name string) *tools.Tool {
	for _, nt := range prep.Tools {
		if nt.Name == name {
			return nt.Tool
		}
	}
	return nil
}

// requiresApproval reports whether the tool a run calls (by id or key) is one of the
// catalogue keys marked as requiring approval.
func requiresApproval(keys []string, id string, f *fixtures) bool {
	for _, e := range f.Catalogs["small"] {
		for _, k := range keys {
			if e.Key == k && (e.ID == id || e.Key == id) {
				return true
			}
		}
	}
	return false
}
