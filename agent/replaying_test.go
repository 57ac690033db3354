package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// replayingEngine is a ReplayingEngine in this process: goroutine
// groups, Await answers from answers (false when it has none for the
// waiting calls), and Record keeps what it recorded, to give it back, in
// order, instead of running again, once replay is set.
type replayingEngine struct {
	LocalEngine
	answers map[string]Answer
	awaited []string // the waiting calls' ids, in the order asked
	records [][]byte
	replay  bool
	next    int
}

func (e *replayingEngine) NewGroup(ctx context.Context, limit int) Group {
	return newGoGroup(ctx, limit)
}

func (e *replayingEngine) Record(ctx context.Context, read func(context.Context) ([]byte, error)) ([]byte, error) {
	if e.replay {
		e.next++
		return e.records[e.next-1], nil
	}
	v, err := read(ctx)
	if err == nil {
		e.records = append(e.records, v)
	}
	return v, err
}

func (e *replayingEngine) Aborts(func()) {}

func (e *replayingEngine) Await(_ context.Context, _ string, waiting []WaitingCall) (Answer, bool) {
	for _, w := range waiting {
		e.awaited = append(e.awaited, w.ToolCallID)
		if a, ok := e.answers[w.ToolCallID]; ok {
			return a, true
		}
	}
	return Answer{}, false
}

// approvalAgent is an agent on store whose one tool needs approval.
func approvalAgent(t *testing.T, runs *int) *Agent {
	t.Helper()
	tool := tools.New(tools.Config[struct{}, string]{ID: "transfer", Description: "Moves money.", RequireApproval: true,
		Execute: func(tools.Context, struct{}) (string, error) { *runs++; return "moved", nil }})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "g1", Name: "transfer", Args: `{}`}}}, mock.Step{Text: "Done."})
	a, err := New(Config{ID: "banker", Instructions: "Move money.", Model: m, Tools: tools.Set{"transfer": tool},
		Storage: memoryStore(t), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// On a ReplayingEngine a waiting call's chunk is streamed (and logged)
// before the engine waits for its answer, and the answer goes on in the
// same stream: no suspension.
func TestReplayingEngineWaitsAfterStreamingTheWaitingCall(t *testing.T) {
	runs := 0
	a := approvalAgent(t, &runs)
	yes := true
	e := &replayingEngine{answers: map[string]Answer{"g1": {ToolCallID: "g1", Approved: &yes}}}
	chunks := chunksOf(t, a, "Move it.", WithEngine(e), WithRunID("r1"))
	got := types(chunks)
	approval, result := slices.Index(got, stream.TypeToolCallApproval), slices.Index(got, stream.TypeToolResult)
	if approval < 0 || result < approval || got[len(got)-1] != stream.TypeFinish || runs != 1 {
		t.Fatalf("chunks %v (tool ran %d times), want the approval, then the result and the finish", got, runs)
	}
	if !slices.Equal(e.awaited, []string{"g1"}) {
		t.Errorf("awaited %v", e.awaited)
	}
	var logged []string
	for ev, err := range a.Observe(context.Background(), "r1", 0) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type != RunEventIterationComplete {
			logged = append(logged, ev.Chunk.Type)
		}
	}
	if !slices.Equal(logged, got) {
		t.Errorf("the log holds %v, the stream was %v", logged, got)
	}
}

// A run of a ReplayingEngine driven again from its start (a replay, on
// a worker that took over from one that died mid-run) publishes its
// events again: each goes to its place, so the log holds every event
// once, the replayed ones and the new ones.
func TestIndexedPublisherWritesEachEventOnce(t *testing.T) {
	log := &storeLog{events: storage.NewMemoryEvents(), log: slog.New(slog.DiscardHandler)}
	chunk := func(i int) RunEvent {
		return RunEvent{Type: RunEventChunk, Chunk: stream.Chunk{Type: stream.TypeTextDelta, Payload: stream.TextPayload{ID: "t", Text: strconv.Itoa(i)}}}
	}
	first := log.indexedPublisher("r1", RunOwner{ThreadID: "th"})
	for i := range 5 {
		first.publish(chunk(i)) // the worker dies after these
	}
	replay := log.indexedPublisher("r1", RunOwner{ThreadID: "th"})
	for i := range 8 {
		replay.publish(chunk(i))
	}
	replay.close(eventEnd, false)
	events, err := log.read(context.Background(), "r1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, e := range events {
		if e.Type == eventEnd {
			texts = append(texts, "end")
			continue
		}
		texts = append(texts, e.Chunk.Payload.(stream.TextPayload).Text)
	}
	if got := strings.Join(texts, " "); got != "0 1 2 3 4 5 6 7 end" {
		t.Errorf("the log holds %s", got)
	}
}

// A run on a ReplayingEngine cannot hand calls to the background-task
// manager's goroutines: an eligible call runs inline, without its
// "_background" argument.
func TestReplayingEngineRunsBackgroundCallsInline(t *testing.T) {
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls","_background":{"enabled":true}}`}}},
		mock.Step{Text: "Done."},
	)
	a := bgAgent(t, m, tools.Set{"research": researchTool(nil, &tools.BackgroundConfig{Enabled: true})}, mgr,
		func(c *Config) { c.Storage = memoryStore(t) })
	chunks := chunksOf(t, a, "research owls", WithEngine(&replayingEngine{}))
	if _, ok := firstOfType(chunks, bgtasks.TypeStarted); ok {
		t.Fatalf("a background task started: %v", types(chunks))
	}
	res, ok := firstOfType(chunks, stream.TypeToolResult)
	if !ok || res.Payload.(stream.ToolResultPayload).Result == nil {
		t.Fatalf("no inline result: %v", types(chunks))
	}
}

// A replaying engine needs a log other processes read: an agent without
// one refuses the run.
func TestReplayingEngineNeedsASharedLog(t *testing.T) {
	a, err := New(Config{ID: "plain", Instructions: "Hi.", Model: mock.New(mock.Step{Text: "Hi."})})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Generate(context.Background(), "Hi.", WithEngine(&replayingEngine{}))
	if err == nil || !strings.Contains(err.Error(), "needs Config.Storage or Config.Events") {
		t.Fatalf("err = %v", err)
	}
}

// A replay does not run the loop's callbacks again (hooks, a tool's
// lifecycle callbacks and ToModelOutput): their outcomes are recorded,
// so they need not decide the same way twice.
func TestReplayingEngineRecordsCallbacks(t *testing.T) {
	calls := map[string]int{}
	count := func(name string) { calls[name]++ }
	add := tools.New(tools.Config[struct{ A, B int }, int]{ID: "add", Description: "Adds.",
		Execute: func(_ tools.Context, in struct{ A, B int }) (int, error) { return in.A + in.B, nil },
		ToModelOutput: func(_ context.Context, out int) (*model.ToolResultOutput, error) {
			count("toModelOutput")
			o := model.TextOutput("sum " + strconv.Itoa(out+calls["toModelOutput"])) // differs each time it runs
			return &o, nil
		},
		OnOutput:         func(context.Context, tools.OutputEvent) { count("onOutput") },
		OnInputAvailable: func(context.Context, tools.InputAvailableEvent[struct{ A, B int }]) { count("onInputAvailable") },
	})
	hooks := Hooks{
		BeforeToolCall: func(context.Context, HookCall) (*Skip, error) { count("before"); return nil, nil },
		AfterToolCall:  func(context.Context, HookCall, any, error) error { count("after"); return nil },
	}
	script := func() *mock.Model {
		return mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"A":2,"B":3}`}}}, mock.Step{Text: "Done."})
	}
	a, err := New(Config{ID: "adder", Instructions: "Add.", Model: script(), Tools: tools.Set{"add": add}, Hooks: hooks,
		Storage: memoryStore(t), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	e := &replayingEngine{}
	first := chunksOf(t, a, "Add.", WithEngine(e), WithRunID("r1"))
	once := maps.Clone(calls)
	e.replay = true
	a.cfg.Model = script()
	second := chunksOf(t, a, "Add.", WithEngine(e), WithRunID("r1"))
	if !maps.Equal(calls, once) {
		t.Errorf("callbacks ran %v, then %v on the replay", once, calls)
	}
	for _, name := range []string{"toModelOutput", "onOutput", "onInputAvailable", "before", "after"} {
		if once[name] != 1 {
			t.Errorf("%s ran %d times, want 1", name, once[name])
		}
	}
	if r1, r2 := resultOf(first), resultOf(second); r1 != r2 {
		t.Errorf("the model saw %q, then %q on the replay", r1, r2)
	}
}

// resultOf is the model output of the run's first tool result.
func resultOf(chunks []stream.Chunk) string {
	c, _ := firstOfType(chunks, stream.TypeToolResult)
	raw, _ := json.Marshal(c.Payload)
	return string(raw)
}
