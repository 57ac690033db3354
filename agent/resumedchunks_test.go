package agent

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

// guardedTool needs approval before it runs.
func guardedTool() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "guarded", RequireApproval: true,
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: 100 + in.A}, nil }})
}

// approvalStep is a step of three calls, [A runs, B needs approval, C
// runs], then the answer.
func approvalStep() *mock.Model {
	return mock.New(mock.Step{ToolCalls: []mock.ToolCall{
		{ID: "A", Name: "add", Args: `{"a":1,"b":1}`},
		{ID: "B", Name: "guarded", Args: `{"a":0,"b":0}`},
		{ID: "C", Name: "add", Args: `{"a":2,"b":2}`},
	}}, mock.Step{Text: "done"})
}

// resultIDs are the tool call ids of tool-result chunks, in order.
func resultIDs(chunks []stream.Chunk) string {
	var ids []string
	for _, c := range chunks {
		if p, ok := c.Payload.(stream.ToolResultPayload); ok {
			ids = append(ids, p.ToolCallID)
		}
	}
	return strings.Join(ids, ",")
}

// checkResumedStepResults checks that the step a resume completed lists
// the results of the calls that ended before the suspension too.
func checkResumedStepResults(t *testing.T, out *Output) {
	t.Helper()
	if out.FinishReason != model.FinishStop || len(out.Steps) != 2 {
		t.Fatalf("finish %s, %d steps", out.FinishReason, len(out.Steps))
	}
	if got := resultIDs(out.ToolResults); got != "A,B,C" {
		t.Errorf("Output.ToolResults: %s, want A,B,C", got)
	}
	if got := resultIDs(out.Steps[0].ToolResults); got != "A,B,C" {
		t.Errorf("Steps[0].ToolResults: %s, want A,B,C", got)
	}
	if n := len(out.Steps[0].ToolCalls); n != 3 {
		t.Errorf("Steps[0].ToolCalls: %d chunks, want 3", n)
	}
	if got := mustJSON(t, out.ToolResults[0].Payload.(stream.ToolResultPayload).Result); got != `{"sum":2}` {
		t.Errorf("A's result: %s", got)
	}
}

func TestResumedStepListsTheResultsBeforeTheSuspension(t *testing.T) {
	ctx := context.Background()
	a := newAgent(t, approvalStep(), tools.Set{"add": addTool(), "guarded": guardedTool()})
	first, err := a.Generate(ctx, "go")
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("%v %s", err, first.FinishReason)
	}
	out, err := a.ApproveToolCallGenerate(ctx, first.RunID, "B")
	if err != nil {
		t.Fatal(err)
	}
	checkResumedStepResults(t, out)
}

// The same with the stream API, and after a restart (another agent on
// the same SQLite store).
func TestRestoredStepListsTheResultsBeforeTheSuspension(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cfg := func(c *Config) { c.Storage = store }
	first, err := newAgent(t, approvalStep(), tools.Set{"add": addTool(), "guarded": guardedTool()}, cfg).Generate(ctx, "go")
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("%v %s", err, first.FinishReason)
	}
	restarted := newAgent(t, mock.New(mock.Step{Text: "done"}), tools.Set{"add": addTool(), "guarded": guardedTool()}, cfg)
	var onFinish *Output
	for c, err := range restarted.ApproveToolCall(ctx, first.RunID, "B", WithOnFinish(func(_ context.Context, o *Output) { onFinish = o })) {
		if err != nil {
			t.Fatal(err)
		}
		_ = c
	}
	if onFinish == nil {
		t.Fatal("onFinish was not called")
	}
	checkResumedStepResults(t, onFinish)
}

// transformedAdd is add with a display transform of its input and
// output and a toModelOutput, so that its tool-call and tool-result
// chunks carry metadata.
func transformedAdd() *tools.Tool {
	show := func(_ context.Context, tc transform.Context) (any, bool, error) {
		return map[string]any{"shown": tc.ToolName, "n": 1.0}, true, nil
	}
	return tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers",
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil },
		ToModelOutput: func(_ context.Context, out addOut) (*model.ToolResultOutput, error) {
			o := model.TextOutput(fmt.Sprint(out.Sum))
			return &o, nil
		},
		Transform: &transform.Config{Display: &transform.Phases{Input: show, Output: show}},
	})
}

// typeTree lists the Go types of v's values, by path, down to the leaves
// of the maps the chunks' metadata is made of.
func typeTree(path string, v any, out map[string]string) {
	out[path] = reflect.TypeOf(v).String()
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			typeTree(path+"."+k, e, out)
		}
	case transform.Metadata:
		for target, phases := range t {
			for phase, r := range phases {
				p := path + "." + string(target) + "." + string(phase)
				out[p] = reflect.TypeOf(r).String()
				if r.Transformed != nil {
					typeTree(p+".transformed", r.Transformed, out)
				}
			}
		}
	case *model.ToolResultOutput:
		typeTree(path+".value", t.Value, out)
	}
}

// chunkTypes lists the Go types of a chunk's parts and metadata.
func chunkValueTypes(c stream.Chunk) []string {
	tree := map[string]string{"payload": reflect.TypeOf(c.Payload).String()}
	if c.Metadata != nil {
		typeTree("metadata", c.Metadata, tree)
	}
	switch p := c.Payload.(type) {
	case stream.ToolResultPayload:
		tree["result"] = reflect.TypeOf(p.Result).String()
		if p.ProviderMetadata != nil {
			typeTree("providerMetadata", p.ProviderMetadata, tree)
		}
	case stream.ToolCallPayload:
		if p.ProviderMetadata != nil {
			typeTree("providerMetadata", p.ProviderMetadata, tree)
		}
	}
	var out []string
	for k, v := range tree {
		out = append(out, k+" "+v)
	}
	sort.Strings(out)
	return out
}

// A step restored from storage lists its tool chunks with the Go values
// of the live run (types and JSON), metadata included.
func TestRestoredStepChunksHaveTheLiveValues(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	agentOn := func(m *mock.Model) *Agent {
		var runs atomic.Int32
		a, err := New(Config{ID: "calc-agent", Name: "Calc", Model: m, Tools: tools.Set{"add": transformedAdd(), "pay": payTool(&runs)},
			Storage: store, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	first, err := agentOn(threeSteps()).Generate(ctx, "add, then pay")
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("%v %s", err, first.FinishReason)
	}
	restarted := mock.New(mock.Step{Text: "Paid 3."})
	resumed, err := agentOn(restarted).ResumeGenerate(ctx, first.RunID, confirmResume{OK: true})
	if err != nil {
		t.Fatal(err)
	}
	live, restored := first.Steps[0], resumed.Steps[0]
	pairs := [][2][]stream.Chunk{{live.ToolCalls, restored.ToolCalls}, {live.ToolResults, restored.ToolResults}}
	for _, p := range pairs {
		if len(p[0]) != 1 || len(p[1]) != 1 {
			t.Fatalf("live %d chunks, restored %d", len(p[0]), len(p[1]))
		}
		if d := cmp.Diff(chunkValueTypes(p[0][0]), chunkValueTypes(p[1][0])); d != "" {
			t.Errorf("%s: value types (-live +restored):\n%s", p[0][0].Type, d)
		}
		if l, r := mustJSON(t, p[0][0]), mustJSON(t, p[1][0]); l != r {
			t.Errorf("%s: JSON\nlive     %s\nrestored %s", p[0][0].Type, l, r)
		}
		if !reflect.DeepEqual(p[0][0], p[1][0]) {
			t.Errorf("%s: live %#v\nrestored %#v", p[0][0].Type, p[0][0], p[1][0])
		}
	}
}
