package observational_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/processors"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools/builtin"
)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// long is a user message of about 300 tokens.
var long = "Here is everything about my garden: " + strings.Repeat("tomatoes, basil and roses grow by the fence; ", 30)

const observed = "<observations>\nDate: Jan 2, 2026\n* 🔴 (10:00) User likes green tea\n* 🟡 (10:01) User described their garden [garden]\n</observations>\n\n<current-task>\nAnswer about the garden\n</current-task>"

func newOM(t *testing.T, cfg observational.Config) *observational.Processor {
	t.Helper()
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return time.Date(2026, 1, 2, 18, 0, 0, 0, time.UTC) }
	}
	if cfg.BufferTokens == 0 && cfg.Scope != observational.ScopeResource {
		cfg.BufferTokens = observational.BufferingOff // these tests observe synchronously
	}
	p, err := observational.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newAgent(t *testing.T, st storage.Store, actor model.LanguageModel, procs ...agent.StepProcessor) *agent.Agent {
	t.Helper()
	a, err := agent.New(agent.Config{ID: "assistant", Model: actor, Storage: st,
		Memory: &agent.MemoryOptions{LastMessages: 100}, Processors: procs})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func texts(msgs []model.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.Role)+": "+m.TextContent())
	}
	return out
}

func hasText(msgs []model.Message, s string) bool {
	for _, m := range msgs {
		if strings.Contains(m.TextContent(), s) {
			return true
		}
	}
	return false
}

func TestObservesThenLeavesObservedMessagesOut(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(mock.Step{Text: observed})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st})
	actor := mock.New(mock.Step{Text: "Green tea it is."}, mock.Step{Text: "Lovely garden."}, mock.Step{Text: "Try a latte."})
	a := newAgent(t, st, actor, om)
	mem := agent.WithMemory("thread-1", "user-1")

	if _, err := a.Generate(ctx, "I like green tea.", mem); err != nil {
		t.Fatal(err)
	}
	if n := len(observer.Calls()); n != 0 {
		t.Fatalf("observed below the threshold (%d calls)", n)
	}
	if _, err := a.Generate(ctx, long, mem); err != nil {
		t.Fatal(err)
	}
	calls := observer.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d observer calls, want 1", len(calls))
	}
	req := calls[0]
	if len(req.Messages) != 3 || req.Messages[0].Role != model.RoleSystem || !strings.HasPrefix(req.Messages[0].TextContent(), "You are the memory consciousness of an AI assistant.") {
		t.Fatalf("observer prompt %q", texts(req.Messages))
	}
	if !strings.HasPrefix(req.Messages[1].TextContent(), "## Your Task") {
		t.Errorf("task prompt %q", req.Messages[1].TextContent())
	}
	hist := req.Messages[2]
	if hist.Content[0].Text != "## New Message History to Observe\n\n" || len(hist.Content) != 4 ||
		!strings.Contains(hist.Content[1].Text, "User (") || !strings.HasSuffix(hist.Content[1].Text, "): I like green tea.") ||
		!strings.HasPrefix(hist.Content[2].Text, "Assistant") || !strings.Contains(hist.Content[3].Text, "my garden") {
		t.Errorf("history %+v", hist.Content)
	}
	if s := req.Settings; s.Temperature == nil || *s.Temperature != 0.3 || s.MaxOutputTokens == nil || *s.MaxOutputTokens != 100_000 {
		t.Errorf("settings %+v", s)
	}
	if b, _ := json.Marshal(req.ProviderOptions); string(b) != `{"google":{"thinkingConfig":{"thinkingBudget":215}}}` {
		t.Errorf("provider options %s", b)
	}

	// The run that observed is given the observations, not the messages.
	got := actor.Calls()[1].Messages
	if hasText(got, "I like green tea.") || hasText(got, "my garden") {
		t.Errorf("observed messages sent: %q", texts(got))
	}
	if len(got) < 5 || !strings.HasPrefix(got[0].TextContent(), "The following observations block contains your memory") ||
		got[1].TextContent() != "<observations>" ||
		got[2].TextContent() != "Date: Jan 2, 2026 (today)\n* 🔴 (10:00) User likes green tea\n* (10:01) User described their garden" ||
		got[3].TextContent() != "<current-task>\nAnswer about the garden\n</current-task>" ||
		got[4].Role != model.RoleUser || !strings.HasPrefix(got[4].TextContent(), "<system-reminder>Please continue naturally") {
		t.Errorf("prompt %q", texts(got))
	}

	rec, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.OriginType != "initial" || rec.Scope != observational.ScopeThread || rec.ThreadID != "thread-1" ||
		len(rec.ObservedMessageIDs) != 3 || rec.LastObservedAt == nil || rec.TotalTokensObserved < 200 ||
		rec.ObservationTokenCount != processors.EstimateTokens(rec.ActiveObservations) ||
		rec.Threads["thread-1"].CurrentTask != "Answer about the garden" {
		t.Errorf("record %+v", rec)
	}

	// The next run: the observed messages stay out, the newer ones are in.
	if _, err := a.Generate(ctx, "And coffee?", mem); err != nil {
		t.Fatal(err)
	}
	got = actor.Calls()[2].Messages
	if hasText(got, "I like green tea.") || hasText(got, "my garden") || !hasText(got, "Lovely garden.") || !hasText(got, "And coffee?") || !hasText(got, "User likes green tea") {
		t.Errorf("prompt %q", texts(got))
	}
	if n := len(observer.Calls()); n != 1 {
		t.Errorf("%d observer calls", n)
	}
}

func TestSecondObservationAppendsAfterABoundary(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(mock.Step{Text: observed}, mock.Step{Text: "<observations>\n* 🔴 (11:00) User grows roses\n</observations>"})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st})
	a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}).RepeatLast(), om)
	mem := agent.WithMemory("thread-1", "user-1")
	for range 2 {
		if _, err := a.Generate(ctx, long, mem); err != nil {
			t.Fatal(err)
		}
	}
	calls := observer.Calls()
	if len(calls) != 2 || !strings.HasPrefix(calls[1].Messages[1].TextContent(), "## Previous Observations\n\nDate: Jan 2, 2026") ||
		!strings.Contains(calls[1].Messages[1].TextContent(), "- prior current-task: Answer about the garden") {
		t.Fatalf("calls %d: %q", len(calls), texts(calls[len(calls)-1].Messages))
	}
	rec, _ := om.Load(ctx, "thread-1", "")
	if !strings.Contains(rec.ActiveObservations, "\n\n--- message boundary (") || !strings.HasSuffix(rec.ActiveObservations, ") ---\n\n* 🔴 (11:00) User grows roses") || len(rec.ObservedMessageIDs) != 3 {
		t.Errorf("record %+v", rec)
	}
}

func TestMalformedObserverAnswerLosesNothing(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(mock.Step{Text: "I could not find anything worth noting."}, mock.Step{Err: errors.New("overloaded")}, mock.Step{Text: observed})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st})
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	mem := agent.WithMemory("thread-1", "user-1")

	_, err := a.Generate(ctx, long, mem)
	if err == nil || !strings.Contains(err.Error(), "the observer's answer holds no observations") || !strings.Contains(err.Error(), "I could not find anything") {
		t.Fatalf("err %v", err)
	}
	rec, _ := om.Load(ctx, "thread-1", "")
	if rec.ActiveObservations != "" || len(rec.ObservedMessageIDs) != 0 {
		t.Errorf("record changed: %+v", rec)
	}
	_, err = a.Generate(ctx, "hello?", mem)
	if err == nil || !strings.Contains(err.Error(), "observer: ") || !strings.Contains(err.Error(), "overloaded") {
		t.Fatalf("err %v", err)
	}
	// A working observer then observes everything the failures left.
	if _, err := a.Generate(ctx, "again", mem); err != nil {
		t.Fatal(err)
	}
	hist := observer.Calls()[2].Messages[2]
	var all strings.Builder
	for _, p := range hist.Content {
		all.WriteString(p.Text)
	}
	if !strings.Contains(all.String(), "my garden") || !strings.Contains(all.String(), "hello?") || !strings.Contains(all.String(), "again") {
		t.Errorf("observed %q", all.String())
	}
	if rec, _ = om.Load(ctx, "thread-1", ""); len(rec.ObservedMessageIDs) < 3 || rec.ActiveObservations == "" {
		t.Errorf("record %+v", rec)
	}
}

func TestReflectsWhenObservationsGrow(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	big := "<observations>\n" + strings.Repeat("* 🔴 (10:00) User likes green tea\n", 20) + "</observations>"
	observer := mock.New(
		mock.Step{Text: observed},
		mock.Step{Text: big}, // level 1: not smaller than the threshold
		mock.Step{Text: "<observations>\n* 🔴 User likes tea and gardens\n</observations>\n<suggested-response>\nAsk about roses\n</suggested-response>"},
	)
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, ObservationTokens: 30, Storage: st})
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	if _, err := a.Generate(ctx, long, agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	calls := observer.Calls()
	if len(calls) != 3 {
		t.Fatalf("%d calls", len(calls))
	}
	for i, level := range []string{"## COMPRESSION REQUIRED", "## AGGRESSIVE COMPRESSION REQUIRED"} {
		r := calls[i+1]
		if len(r.Messages) != 2 || !strings.Contains(r.Messages[0].TextContent(), "the observation reflector") ||
			!strings.HasPrefix(r.Messages[1].TextContent(), "## OBSERVATIONS TO REFLECT ON\n\nDate: Jan 2, 2026") ||
			!strings.Contains(r.Messages[1].TextContent(), level) || *r.Settings.Temperature != 0 ||
			r.ProviderOptions["google"]["thinkingConfig"].(map[string]any)["thinkingBudget"] != 1024 {
			t.Errorf("reflector call %d: %q", i, texts(r.Messages))
		}
	}
	rec, _ := om.Load(ctx, "thread-1", "")
	if rec.OriginType != "reflection" || rec.GenerationCount != 1 || rec.ActiveObservations != "* 🔴 User likes tea and gardens" ||
		rec.ObservationTokenCount != processors.EstimateTokens(rec.ActiveObservations) || rec.Threads["thread-1"].SuggestedResponse != "Ask about roses" {
		t.Errorf("record %+v", rec)
	}
	got := actor.Calls()[0].Messages
	if !hasText(got, "User likes tea and gardens") || !hasText(got, "<suggested-response>\nAsk about roses\n</suggested-response>") || hasText(got, "User likes green tea") {
		t.Errorf("prompt %q", texts(got))
	}
}

func TestReflectionWithoutObservationsKeepsThem(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(mock.Step{Text: observed}, mock.Step{Text: "<observations>\n</observations>"}).RepeatLast()
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, ObservationTokens: 10, Storage: st})
	a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}).RepeatLast(), om)
	if _, err := a.Generate(ctx, long, agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	if n := len(observer.Calls()); n != 5 { // the observation, then levels 1 to 4
		t.Errorf("%d calls", n)
	}
	rec, _ := om.Load(ctx, "thread-1", "")
	if rec.OriginType != "initial" || !strings.Contains(rec.ActiveObservations, "User likes green tea") || len(rec.ObservedMessageIDs) != 1 {
		t.Errorf("record %+v", rec)
	}
	// Unchanged observations are not reflected on again, as Mastra skips them.
	if _, err := a.Generate(ctx, "ok?", agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	if n := len(observer.Calls()); n != 5 {
		t.Errorf("%d calls after an unproductive reflection", n)
	}
}

func TestDegenerateObserverAnswers(t *testing.T) {
	ctx := context.Background()
	loop := strings.Repeat("* 🔴 (10:00) User likes green tea and asked again.\n", 60)
	for _, c := range []struct {
		name  string
		steps []mock.Step
		err   string
	}{
		{"twice", []mock.Step{{Text: loop}, {Text: loop}}, "the observer repeated itself"},
		{"once", []mock.Step{{Text: loop}, {Text: observed}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := openStore(t)
			observer := mock.New(c.steps...)
			om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st})
			a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}).RepeatLast(), om)
			_, err := a.Generate(ctx, long, agent.WithMemory("thread-1", "user-1"))
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("err %v", err)
			}
			if n := len(observer.Calls()); n != 2 {
				t.Errorf("%d calls", n)
			}
			rec, _ := om.Load(ctx, "thread-1", "")
			if (c.err == "") != (len(rec.ObservedMessageIDs) == 1) {
				t.Errorf("record %+v", rec)
			}
		})
	}
}

func TestResourceScopeSharesObservations(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if err := st.SaveResource(ctx, storage.Resource{ID: "user-1", WorkingMemory: "# Ada", Metadata: map[string]any{"plan": "pro"}}); err != nil {
		t.Fatal(err)
	}
	// The multi-thread observer answers in <thread> blocks.
	observer := mock.New(mock.Step{Text: strings.Replace(strings.Replace(observed, "<observations>\n", "<observations>\n<thread id=\"thread-1\">\n", 1), "\n</observations>", "\n</thread>\n</observations>", 1)})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st, Scope: observational.ScopeResource})
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	if _, err := a.Generate(ctx, long, agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Generate(ctx, "Hi again", agent.WithMemory("thread-2", "user-1")); err != nil {
		t.Fatal(err)
	}
	got := actor.Calls()[1].Messages
	if !hasText(got, "<thread id=\"thread-1\">\nDate: Jan 2, 2026 (today)") || !hasText(got, "Hi again") {
		t.Errorf("other thread's prompt %q", texts(got))
	}
	if _, ok, _ := st.GetThreadState(ctx, "thread-1", observational.StateType); ok {
		t.Error("a resource-scoped record was kept in thread state")
	}
	r, err := st.GetResource(ctx, "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if r.WorkingMemory != "# Ada" || r.Metadata["plan"] != "pro" || r.Metadata[observational.MetadataKey] == nil {
		t.Errorf("resource %+v", r)
	}
	rec, _ := om.Load(ctx, "thread-2", "user-1")
	if rec.Scope != observational.ScopeResource || rec.ThreadID != "" || rec.ResourceID != "user-1" || len(rec.ObservedMessageIDs) != 1 {
		t.Errorf("record %+v", rec)
	}
}

func TestTaskListSurvivesTruncation(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	const writeTwo = `{"tasks":[{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},` +
		`{"content":"Write tests","status":"pending","activeForm":"Writing tests"}]}`
	observer := mock.New(mock.Step{Text: observed})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 300, Storage: st})
	actor := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "task_write", Args: writeTwo}}},
		mock.Step{Text: "Working on it."},
		mock.Step{Text: "Still on it."},
	)
	a, err := agent.New(agent.Config{ID: "coder", Model: actor, Storage: st,
		Memory:     &agent.MemoryOptions{LastMessages: 100},
		Processors: []agent.StepProcessor{om},
		Signals:    []agent.Signal{builtin.NewTaskSignalProvider(st)}})
	if err != nil {
		t.Fatal(err)
	}
	mem := agent.WithMemory("thread-1", "user-1")
	if _, err := a.Generate(ctx, "Fix the bug and test it.", mem); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Generate(ctx, long, mem); err != nil {
		t.Fatal(err)
	}
	if n := len(observer.Calls()); n != 1 {
		t.Fatalf("%d observations", n)
	}
	got := actor.Calls()[2].Messages
	if hasText(got, "Fix the bug and test it.") || !hasText(got, "User likes green tea") {
		t.Fatalf("not truncated: %q", texts(got))
	}
	for _, m := range got {
		if m.Role == model.RoleTool || m.Role == model.RoleAssistant {
			t.Errorf("the observed step is still sent: %q", texts(got))
		}
	}
	if !hasText(got, "{id: task_fix_the_bug} Fix the bug") || !hasText(got, "Write tests") {
		t.Errorf("the task list is not shown after truncation: %q", texts(got))
	}
}

func TestConcurrentStepsObserveOnce(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if err := st.SaveThread(ctx, storage.Thread{ID: "thread-1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	raw, _ := model.UserText(long).MarshalJSON()
	if err := st.SaveMessages(ctx, []storage.Message{{ID: "m1", ThreadID: "thread-1", ResourceID: "user-1", Role: "user", Content: raw}}); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	observer := mock.NewFunc(func(*model.Request) mock.Step {
		calls.Add(1)
		return mock.Step{Text: observed, Delay: 20 * time.Millisecond}
	})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			s := &agent.StepInput{ThreadID: "thread-1", ResourceID: "user-1", Messages: []model.Message{model.UserText(long)}}
			if err := om.ProcessStep(ctx, s); err != nil {
				errs <- err
				return
			}
			if len(s.Messages) != 5 || hasText(s.Messages, "my garden") {
				errs <- errors.New("prompt " + strings.Join(texts(s.Messages), " | "))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("observed %d times", n)
	}
}

func TestNewAndStepsWithoutThread(t *testing.T) {
	st := openStore(t)
	if _, err := observational.New(observational.Config{Storage: st}); err == nil {
		t.Error("no model accepted")
	}
	if _, err := observational.New(observational.Config{Model: mock.New()}); err == nil {
		t.Error("no storage accepted")
	}
	if _, err := observational.New(observational.Config{Model: mock.New(), Storage: st, Scope: "global"}); err == nil {
		t.Error("unknown scope accepted")
	}
	om := newOM(t, observational.Config{Model: mock.New(), Storage: st})
	if om.ID() != "observational-memory" {
		t.Errorf("id %q", om.ID())
	}
	s := &agent.StepInput{Messages: []model.Message{model.UserText("hi")}}
	if err := om.ProcessStep(context.Background(), s); err != nil || len(s.Messages) != 1 {
		t.Errorf("%v %v", err, s.Messages)
	}
	rec, err := om.Load(context.Background(), "t", "r")
	if err != nil || rec.OriginType != "initial" || rec.ThreadID != "t" || rec.ActiveObservations != "" {
		t.Errorf("%+v %v", rec, err)
	}
	if err := st.SetThreadState(context.Background(), "t", observational.StateType, []byte(`"x"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := om.Load(context.Background(), "t", "r"); err == nil || !strings.Contains(err.Error(), "unreadable") {
		t.Errorf("err %v", err)
	}
}

func TestDegenerateReflectionIsAFailedCompression(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	loop := strings.Repeat("* 🔴 (10:00) User likes green tea and asked again.\n", 60)
	observer := mock.New(mock.Step{Text: observed}, mock.Step{Text: loop}).RepeatLast()
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, ObservationTokens: 30, Storage: st})
	a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}).RepeatLast(), om)
	if _, err := a.Generate(ctx, long, agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	calls := observer.Calls()
	if len(calls) != 5 || !strings.Contains(calls[2].Messages[1].TextContent(), "## AGGRESSIVE COMPRESSION REQUIRED") {
		t.Fatalf("%d calls", len(calls))
	}
	if rec, _ := om.Load(ctx, "thread-1", ""); !strings.Contains(rec.ActiveObservations, "User likes green tea\n") || rec.GenerationCount != 0 {
		t.Errorf("record %+v", rec)
	}
}

// listCounter records the sizes of the message lists asked for.
type listCounter struct {
	*sqlite.Store
	mu sync.Mutex
	ns []int
}

func (l *listCounter) ListMessages(ctx context.Context, threadID string, n int) ([]storage.Message, error) {
	l.mu.Lock()
	l.ns = append(l.ns, n)
	l.mu.Unlock()
	return l.Store.ListMessages(ctx, threadID, n)
}

func (l *listCounter) asked() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	ns := l.ns
	l.ns = nil
	return ns
}

func TestReadsOnlyTheThreadsTail(t *testing.T) {
	ctx := context.Background()
	st := &listCounter{Store: openStore(t)}
	if err := st.SaveThread(ctx, storage.Thread{ID: "thread-1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	var prompt []model.Message
	save := func(from, to int) {
		var msgs []storage.Message
		for i := from; i < to; i++ {
			m := model.UserText(strings.Repeat("word ", 10) + "message " + strings.Repeat("x", i%7) + " " + string(rune('a'+i%26)))
			raw, _ := m.MarshalJSON()
			msgs = append(msgs, storage.Message{ID: "m" + string(rune('A'+i/26)) + string(rune('a'+i%26)), ThreadID: "thread-1", ResourceID: "user-1", Role: "user", Content: raw, CreatedAt: base.Add(time.Duration(i) * time.Second)})
			prompt = append(prompt, m)
		}
		if err := st.SaveMessages(ctx, msgs); err != nil {
			t.Fatal(err)
		}
	}
	save(0, 200)
	observer := mock.New(mock.Step{Text: observed})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 1000, Storage: st})
	s := &agent.StepInput{ThreadID: "thread-1", ResourceID: "user-1", Messages: append([]model.Message(nil), prompt[190:]...)}
	if err := om.ProcessStep(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got := st.asked(); len(got) != 3 || got[0] != 74 || got[2] != 296 {
		t.Errorf("asked for %v", got)
	}
	if rec, _ := om.Load(ctx, "thread-1", ""); len(rec.ObservedMessageIDs) != 200 {
		t.Errorf("%d observed", len(rec.ObservedMessageIDs))
	}
	if h := observer.Calls()[0].Messages[2]; len(h.Content) != 201 {
		t.Errorf("%d messages observed", len(h.Content)-1)
	}
	save(200, 205)
	s = &agent.StepInput{ThreadID: "thread-1", ResourceID: "user-1", Messages: append([]model.Message{model.System("Be brief.")}, prompt[195:]...)}
	if err := om.ProcessStep(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got := st.asked(); len(got) != 1 || got[0] != 75 {
		t.Errorf("asked for %v", got)
	}
	// Be brief., 4 of observations, the reminder, then the 5 new messages.
	if len(s.Messages) != 11 || s.Messages[0].TextContent() != "Be brief." || s.Messages[6].TextContent() != prompt[200].TextContent() {
		t.Errorf("prompt %q", texts(s.Messages))
	}
}

func TestToolResultsKeepTheirOrder(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if err := st.SaveThread(ctx, storage.Thread{ID: "thread-1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	call, _ := model.Assistant(model.ToolCall("c1", "weather", json.RawMessage(`{"city":"Paris"}`))).MarshalJSON()
	user, _ := model.UserText(long).MarshalJSON()
	// The result as a provider's JSON has it, temp before city.
	result := json.RawMessage(`{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"weather","output":{"type":"json","value":{"temp":21,"city":"Paris"}}}]}`)
	base := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	if err := st.SaveMessages(ctx, []storage.Message{
		{ID: "m1", ThreadID: "thread-1", ResourceID: "user-1", Role: "user", Content: user, CreatedAt: base},
		{ID: "m2", ThreadID: "thread-1", ResourceID: "user-1", Role: "assistant", Content: call, CreatedAt: base.Add(time.Second)},
		{ID: "m3", ThreadID: "thread-1", ResourceID: "user-1", Role: "tool", Content: result, CreatedAt: base.Add(time.Second)},
	}); err != nil {
		t.Fatal(err)
	}
	observer := mock.New(mock.Step{Text: observed})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st})
	if err := om.ProcessStep(ctx, &agent.StepInput{ThreadID: "thread-1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	hist := observer.Calls()[0].Messages[2].Content
	want := "Tool Call weather: city: \"Paris\"\nTool Result weather: {\n  \"temp\": 21,\n  \"city\": \"Paris\"\n}"
	if len(hist) != 3 || hist[2].Text != want {
		t.Errorf("history %+v", hist)
	}
}

func TestThresholdCountsAsMastra(t *testing.T) {
	ctx := context.Background()
	msg := model.UserText(long)
	// Mastra's countMessages: each message rounded, and 24 for the conversation.
	n := int(math.Round((&processors.TokenLimiter{}).MessageTokens(msg))) + 24
	for _, c := range []struct {
		threshold int
		observes  bool
	}{{n, true}, {n + 1, false}} {
		st := openStore(t)
		if err := st.SaveThread(ctx, storage.Thread{ID: "thread-1", ResourceID: "user-1"}); err != nil {
			t.Fatal(err)
		}
		raw, _ := msg.MarshalJSON()
		if err := st.SaveMessages(ctx, []storage.Message{{ID: "m1", ThreadID: "thread-1", ResourceID: "user-1", Role: "user", Content: raw}}); err != nil {
			t.Fatal(err)
		}
		observer := mock.New(mock.Step{Text: observed})
		om := newOM(t, observational.Config{Model: observer, MessageTokens: c.threshold, Storage: st})
		if err := om.ProcessStep(ctx, &agent.StepInput{ThreadID: "thread-1", ResourceID: "user-1"}); err != nil {
			t.Fatal(err)
		}
		if got := len(observer.Calls()) == 1; got != c.observes {
			t.Errorf("threshold %d (message %d): observed %v", c.threshold, n, got)
		}
	}
}

func TestFailedReflectionKeepsTheObservation(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(mock.Step{Text: observed}, mock.Step{Err: errors.New("reflector down")}, mock.Step{Text: "<observations>\n* 🔴 User likes tea\n</observations>"})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, ObservationTokens: 30, Storage: st})
	a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}).RepeatLast(), om)
	mem := agent.WithMemory("thread-1", "user-1")
	if _, err := a.Generate(ctx, long, mem); err == nil || !strings.Contains(err.Error(), "reflector: ") || !strings.Contains(err.Error(), "reflector down") {
		t.Fatalf("err %v", err)
	}
	rec, _ := om.Load(ctx, "thread-1", "")
	if len(rec.ObservedMessageIDs) != 1 || rec.OriginType != "initial" || !strings.Contains(rec.ActiveObservations, "User likes green tea") {
		t.Fatalf("record %+v", rec)
	}
	// The next step reflects without observing again.
	if _, err := a.Generate(ctx, "hi", mem); err != nil {
		t.Fatal(err)
	}
	if rec, _ = om.Load(ctx, "thread-1", ""); rec.OriginType != "reflection" || rec.ActiveObservations != "* 🔴 User likes tea" || len(observer.Calls()) != 3 {
		t.Errorf("record %+v, %d calls", rec, len(observer.Calls()))
	}
}
