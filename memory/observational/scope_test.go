package observational_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
)

// A read-only run is given the observations but neither observes nor
// saves, past the threshold too (Mastra's readOnly).
func TestReadOnlyRunDoesNotObserve(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(mock.Step{Text: observed})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st})
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	if _, err := a.Generate(ctx, long, agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	before, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	// The thread past the threshold again (a message another writer
	// kept), read-only: the model sees the observations, the observer
	// is not called, nothing is saved.
	content, _ := json.Marshal(model.UserText(long + " again"))
	if err := st.SaveMessages(ctx, []storage.Message{{ID: "m-again", ThreadID: "thread-1", ResourceID: "user-1", Role: "user", Content: content}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Generate(ctx, "Anything new?", agent.WithMemory("thread-1", "user-1"), agent.WithMemoryReadOnly()); err != nil {
		t.Fatal(err)
	}
	if n := len(observer.Calls()); n != 1 {
		t.Errorf("%d observer calls, want 1 (none read-only)", n)
	}
	if got := actor.Calls()[1].Messages; !hasText(got, "User likes green tea") || !hasText(got, "again") {
		t.Errorf("read-only prompt %q", texts(got))
	}
	after, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if !after.UpdatedAt.Equal(before.UpdatedAt) || len(after.ObservedMessageIDs) != len(before.ObservedMessageIDs) {
		t.Errorf("a read-only run changed the record: %+v", after)
	}
}

// In resource scope the unobserved messages of all the resource's
// threads count (the others' as shown to the model, parts cut at 500
// characters) and are observed together by one call of Mastra's
// multi-thread observer, each thread into its section.
func TestResourceScopeObservesAllThreads(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(mock.Step{Text: "<observations>\n<thread id=\"thread-1\">\n* 🔴 (10:00) From the first thread\n<current-task>First task</current-task>\n</thread>\n" +
		"<thread id=\"thread-2\">\n* 🔴 (10:00) From the second thread\n</thread>\n</observations>"})
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 400, Storage: st, Scope: observational.ScopeResource})
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	if _, err := a.Generate(ctx, sized("first", 300), agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	if n := len(observer.Calls()); n != 0 {
		t.Fatalf("one thread below the threshold was observed (%d calls)", n)
	}
	if _, err := a.Generate(ctx, sized("second", 300), agent.WithMemory("thread-2", "user-1")); err != nil {
		t.Fatal(err)
	}
	calls := observer.Calls()
	if len(calls) != 1 || !hasText(calls[0].Messages, "<thread id=\"thread-1\">\n") || !hasText(calls[0].Messages, "first: word") ||
		!hasText(calls[0].Messages, "second: word") || !hasText(calls[0].Messages, "=== MULTI-THREAD INPUT ===") {
		t.Fatalf("%d observer calls, want one of both threads with the multi-thread prompt", len(calls))
	}
	rec, err := om.Load(ctx, "thread-2", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.ActiveObservations, "<thread id=\"thread-1\">\n* 🔴 (10:00) From the first thread") ||
		!strings.Contains(rec.ActiveObservations, "<thread id=\"thread-2\">\n* 🔴 (10:00) From the second thread") ||
		len(rec.ObservedMessageIDs) != 3 || rec.PendingMessageTokens != 0 || rec.Threads["thread-1"].CurrentTask != "First task" {
		t.Errorf("record %+v", rec)
	}
	if got := actor.Calls()[1].Messages; hasText(got, "second: word") || !hasText(got, "From the first thread") {
		t.Errorf("prompt %q", texts(got))
	}
	// The other threads' unobserved messages come in Mastra's block.
	if _, err := a.Generate(ctx, "third", agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	got := actor.Calls()[2].Messages
	if !hasText(got, "START_OTHER_CONVERSATIONS_BLOCK\n<other-conversation id=\"thread-2\">\n") || hasText(got, "<other-conversation id=\"thread-1\">") {
		t.Errorf("prompt %q", texts(got))
	}
}

// A thread the multi-thread observer's answer leaves out stays
// unobserved (Mastra would drop its messages); an answer with no
// thread of the batch fails the step and stores nothing.
func TestMultiThreadAnswerLeavesAThreadOut(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := mock.New(
		mock.Step{Text: "<observations>\n<thread id=\"elsewhere\">\n* 🔴 not asked\n</thread>\n</observations>"},
		mock.Step{Text: "<observations>\n<thread id=\"thread-2\">\n* 🔴 (10:00) From the second thread\n</thread>\n</observations>"},
	)
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 400, Storage: st, Scope: observational.ScopeResource})
	a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}).RepeatLast(), om)
	if _, err := a.Generate(ctx, sized("first", 300), agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Generate(ctx, sized("second", 300), agent.WithMemory("thread-2", "user-1")); err == nil || !strings.Contains(err.Error(), "holds no thread's observations") {
		t.Fatalf("an answer for no thread asked: err %v", err)
	}
	if _, ok, err := om.Stored(ctx, "thread-2", "user-1"); ok || err != nil {
		t.Fatalf("the failed observation stored a record (err %v)", err)
	}
	if _, err := a.Generate(ctx, sized("again", 10), agent.WithMemory("thread-2", "user-1")); err != nil {
		t.Fatal(err)
	}
	rec, err := om.Load(ctx, "thread-2", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.ActiveObservations, "thread-1") || !strings.Contains(rec.ActiveObservations, "From the second thread") ||
		len(rec.ObservedMessageIDs) != 2 || rec.PendingMessageTokens == 0 {
		t.Errorf("record %+v", rec)
	}
}
