package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// guardedAdd is add that needs approval before it runs.
func guardedAdd() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "guarded", Description: "Add, once approved", RequireApproval: true,
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }})
}

// approvalRunFixture serves calc-agent with a model that adds (step 0),
// then calls add and guarded side by side (step 1, which waits for the
// approval of guarded), then answers (step 2); each call uses 10+5
// tokens.
func approvalRunFixture(t *testing.T) *fixture {
	usage := model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}
	resp := &model.ResponseMetadata{ID: "resp-1", Timestamp: time.Unix(0, 0).UTC(), ModelID: "scripted-mock"}
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c0", Name: "add", Args: `{"a":1,"b":1}`}}, Usage: usage, Response: resp},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "A", Name: "add", Args: `{"a":2,"b":2}`}, {ID: "B", Name: "guarded", Args: `{"a":3,"b":3}`}},
			Usage: usage, Response: resp},
		mock.Step{Text: "Done.", Usage: usage, Response: resp},
	)
	return newFixture(t, withAgent(func(c *agent.Config) {
		c.Model, c.Tools = m, tools.Set{"add": addTool(), "guarded": guardedAdd()}
	}))
}

// wholeRun is what a resumed run's finish (or FullOutput) says of the
// run: its steps, their tool results and its usage.
type wholeRun struct {
	Steps []struct {
		ToolResults []struct {
			Payload struct {
				ToolCallID string `json:"toolCallId"`
			} `json:"payload"`
		} `json:"toolResults"`
		Usage model.Usage `json:"usage"`
	} `json:"steps"`
	Usage      model.Usage `json:"usage"`
	TotalUsage model.Usage `json:"totalUsage"`
	Text       string      `json:"text"`
	ToolResult []struct {
		Payload struct {
			ToolCallID string `json:"toolCallId"`
		} `json:"payload"`
	} `json:"toolResults"`
}

// checkSummedUsage checks that u adds up the run's three model calls.
func checkSummedUsage(t *testing.T, what string, u model.Usage) {
	t.Helper()
	if u.InputTokens != 30 || u.OutputTokens != 15 || u.TotalTokens != 45 {
		t.Errorf("%s: usage %+v, want 30+15=45", what, u)
	}
}

// The stream form: the finish of approve-tool-call lists all three
// steps of the run and its summed usage.
func TestApprovedRunStreamFinishListsEveryStep(t *testing.T) {
	f := approvalRunFixture(t)
	runID, callID := approvalOf(t, f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"go"}`))
	if callID != "B" {
		t.Fatalf("waiting call %q", callID)
	}
	cs := f.streamChunks(t, "/api/agents/calc-agent/approve-tool-call", fmt.Sprintf(`{"runId":%q,"toolCallId":%q}`, runID, callID))
	last := cs[len(cs)-1]
	if last.Type != stream.TypeFinish {
		t.Fatalf("approved stream: %v", chunkTypes(cs))
	}
	var finish struct {
		Output struct {
			Steps []json.RawMessage `json:"steps"`
			Usage model.Usage       `json:"usage"`
			Text  string            `json:"text"`
		} `json:"output"`
	}
	if err := json.Unmarshal(mustJSON(t, last.Payload), &finish); err != nil {
		t.Fatal(err)
	}
	if len(finish.Output.Steps) != 3 {
		t.Errorf("finish lists %d steps, want 3", len(finish.Output.Steps))
	}
	checkSummedUsage(t, "finish", finish.Output.Usage)
	if finish.Output.Text != "Done." {
		t.Errorf("finish text %q", finish.Output.Text)
	}
	// The step the approval completed lists both its calls' results.
	var step1 struct {
		Content []struct {
			Type       string `json:"type"`
			ToolCallID string `json:"toolCallId"`
		} `json:"content"`
	}
	if err := json.Unmarshal(finish.Output.Steps[1], &step1); err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, p := range step1.Content {
		if p.Type == "tool-result" {
			results = append(results, p.ToolCallID)
		}
	}
	if got := strings.Join(results, ","); got != "A,B" {
		t.Errorf("step 1's tool results: %s, want A,B", got)
	}
}

// The generate form: approve-tool-call-generate's FullOutput lists all
// three steps, every call's result (in call order) and the summed usage.
func TestApprovedRunGenerateListsEveryStep(t *testing.T) {
	f := approvalRunFixture(t)
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"go"}`)
	var first struct {
		RunID        string `json:"runId"`
		FinishReason string `json:"finishReason"`
	}
	if err := json.Unmarshal(body, &first); err != nil || resp.StatusCode != 200 || first.FinishReason != "suspended" {
		t.Fatalf("generate: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/approve-tool-call-generate", fmt.Sprintf(`{"runId":%q,"toolCallId":"B"}`, first.RunID))
	if resp.StatusCode != 200 {
		t.Fatalf("approve: %d %s", resp.StatusCode, body)
	}
	var out wholeRun
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Steps) != 3 {
		t.Fatalf("%d steps, want 3: %s", len(out.Steps), body)
	}
	checkSummedUsage(t, "usage", out.Usage)
	checkSummedUsage(t, "totalUsage", out.TotalUsage)
	var ids, step1 []string
	for _, r := range out.ToolResult {
		ids = append(ids, r.Payload.ToolCallID)
	}
	for _, r := range out.Steps[1].ToolResults {
		step1 = append(step1, r.Payload.ToolCallID)
	}
	if got := strings.Join(ids, ","); got != "c0,A,B" {
		t.Errorf("toolResults: %s, want c0,A,B", got)
	}
	if got := strings.Join(step1, ","); got != "A,B" {
		t.Errorf("steps[1].toolResults: %s, want A,B", got)
	}
	if out.Text != "Done." {
		t.Errorf("text %q", out.Text)
	}
}
