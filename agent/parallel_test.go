package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// barrier lets n goroutines through only once all n have arrived.
type barrier struct {
	arrived sync.WaitGroup
	all     chan struct{}
}

func newBarrier(n int) *barrier {
	b := &barrier{all: make(chan struct{})}
	b.arrived.Add(n)
	go func() { b.arrived.Wait(); close(b.all) }()
	return b
}

// await arrives and waits for the others, or fails when ctx ends first.
func (b *barrier) await(ctx context.Context) error {
	b.arrived.Done()
	select {
	case <-b.all:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the other calls did not run alongside: %w", ctx.Err())
	}
}

// meetTool meets the others at b, once per call; runs counts executions
// by call id.
func meetTool(b *barrier, runs *sync.Map) *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "meet", Execute: func(ctx tools.Context, in addIn) (addOut, error) {
		n, _ := runs.LoadOrStore(ctx.ToolCallID(), new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		if err := b.await(ctx); err != nil {
			return addOut{}, err
		}
		return addOut{Sum: in.A + in.B}, nil
	}})
}

// askTool can suspend (it has a suspend schema); the tests offer it
// without calling it.
func askTool() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "ask", SuspendSchema: schema.MustFor[map[string]any](),
		Execute: func(ctx tools.Context, _ addIn) (addOut, error) { return addOut{}, ctx.Suspend(map[string]any{}) }})
}

func runCount(runs *sync.Map, id string) int32 {
	n, ok := runs.Load(id)
	if !ok {
		return 0
	}
	return n.(*atomic.Int32).Load()
}

// ToolCallConcurrency 1 still runs the calls one at a time, in order.
func TestToolCallConcurrencyOneRunsCallsInOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	rec := tools.New(tools.Config[addIn, addOut]{ID: "rec", Execute: func(ctx tools.Context, in addIn) (addOut, error) {
		mu.Lock()
		order = append(order, ctx.ToolCallID())
		mu.Unlock()
		return addOut{}, nil
	}})
	var calls []mock.ToolCall
	for i := range 4 {
		calls = append(calls, mock.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "rec", Args: `{"a":1,"b":1}`})
	}
	m := mock.New(mock.Step{ToolCalls: calls}, mock.Step{Text: "ok"})
	a := newAgent(t, m, tools.Set{"rec": rec}, func(c *Config) { c.ToolCallConcurrency = 1 })
	if _, err := a.Generate(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"c0", "c1", "c2", "c3"}, order); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// lastToolMessage is what the model was last told of the calls: each
// result's call id and JSON value, in order.
func lastToolMessage(m *mock.Model) []string {
	calls := m.Calls()
	msgs := calls[len(calls)-1].Messages
	var got []string
	for _, p := range msgs[len(msgs)-1].Content {
		v, _ := json.Marshal(p.ToolResult.Output.Value)
		got = append(got, p.ToolResult.ToolCallID+"="+string(v))
	}
	return got
}

// [A, B, C] where only B needs approval: A and C run side by side (each
// waits for the other), B waits; the stream keeps the model's order. The
// approval runs B alone: A and C ran exactly once.
func TestOnlyTheCallNeedingApprovalWaits(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var runs sync.Map
	var guardedRuns atomic.Int32
	guarded := tools.New(tools.Config[addIn, addOut]{ID: "guarded", RequireApproval: true, Execute: func(tools.Context, addIn) (addOut, error) {
		guardedRuns.Add(1)
		return addOut{Sum: 100}, nil
	}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{
		{ID: "A", Name: "meet", Args: `{"a":1,"b":1}`},
		{ID: "B", Name: "guarded", Args: `{"a":0,"b":0}`},
		{ID: "C", Name: "meet", Args: `{"a":2,"b":2}`},
	}}, mock.Step{Text: "done"})
	a := newAgent(t, m, tools.Set{"meet": meetTool(newBarrier(2), &runs), "guarded": guarded, "ask": askTool()},
		func(c *Config) { c.Storage = store })
	out, err := a.Generate(ctx, "go")
	if err != nil || out.FinishReason != model.FinishSuspended {
		t.Fatalf("%v, %s, errors %v", err, out.FinishReason, toolErrors(out.Chunks))
	}
	if got := strings.Join(types(out.Chunks)[len(out.Chunks)-3:], " "); got != "tool-result tool-call-approval tool-result" {
		t.Errorf("end of the suspended stream: %s", got)
	}
	if guardedRuns.Load() != 0 {
		t.Fatal("B ran before its approval")
	}
	res, err := a.ApproveToolCallGenerate(ctx, out.RunID, "B")
	if err != nil || res.FinishReason != model.FinishStop {
		t.Fatalf("approve: %v %s", err, res.FinishReason)
	}
	if a, b, c := runCount(&runs, "A"), guardedRuns.Load(), runCount(&runs, "C"); a != 1 || b != 1 || c != 1 {
		t.Errorf("executions A=%d B=%d C=%d, want one each", a, b, c)
	}
	if d := cmp.Diff([]string{`A={"sum":2}`, `B={"sum":100}`, `C={"sum":4}`}, lastToolMessage(m)); d != "" {
		t.Errorf("the model's results (-want +got):\n%s", d)
	}
}

// A tool that may suspend runs alongside the others; its suspension and
// their results are all saved, so the resume runs only it again.
func TestASuspendingCallRunsAlongsideTheOthers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var runs sync.Map
	b := newBarrier(3)
	var holdRuns atomic.Int32
	hold := tools.New(tools.Config[addIn, addOut]{ID: "hold",
		SuspendSchema: schema.MustFor[map[string]any](),
		ResumeSchema:  schema.MustFor[confirmResume](),
		Execute: func(ctx tools.Context, in addIn) (addOut, error) {
			if holdRuns.Add(1) > 1 {
				return addOut{Sum: 7}, nil
			}
			if err := b.await(ctx); err != nil {
				return addOut{}, err
			}
			return addOut{}, ctx.Suspend(map[string]any{"question": "hold?"})
		}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{
		{ID: "A", Name: "meet", Args: `{"a":1,"b":1}`},
		{ID: "S", Name: "hold", Args: `{"a":0,"b":0}`},
		{ID: "C", Name: "meet", Args: `{"a":2,"b":2}`},
	}}, mock.Step{Text: "done"})
	a := newAgent(t, m, tools.Set{"meet": meetTool(b, &runs), "hold": hold}, func(c *Config) { c.Storage = store })
	out, err := a.Generate(ctx, "go")
	if err != nil || out.FinishReason != model.FinishSuspended {
		t.Fatalf("%v, %s, errors %v", err, out.FinishReason, toolErrors(out.Chunks))
	}
	if got := strings.Join(types(out.Chunks)[len(out.Chunks)-3:], " "); got != "tool-result tool-call-suspended tool-result" {
		t.Errorf("end of the suspended stream: %s", got)
	}
	res, err := a.ResumeGenerate(ctx, out.RunID, confirmResume{OK: true})
	if err != nil || res.FinishReason != model.FinishStop {
		t.Fatalf("resume: %v %s", err, res.FinishReason)
	}
	if a, s, c := runCount(&runs, "A"), holdRuns.Load(), runCount(&runs, "C"); a != 1 || s != 2 || c != 1 {
		t.Errorf("executions A=%d S=%d C=%d, want 1, 2 (suspend, resume), 1", a, s, c)
	}
	if d := cmp.Diff([]string{`A={"sum":2}`, `S={"sum":7}`, `C={"sum":4}`}, lastToolMessage(m)); d != "" {
		t.Errorf("the model's results (-want +got):\n%s", d)
	}
}
