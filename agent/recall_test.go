package agent_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

// promptLog is a scripted model that answers "ok: <the user's text>" and
// keeps every prompt it was given.
type promptLog struct {
	mu      sync.Mutex
	prompts [][]model.Message
}

func (p *promptLog) model() *mock.Model {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		p.mu.Lock()
		p.prompts = append(p.prompts, req.Messages)
		p.mu.Unlock()
		last := req.Messages[len(req.Messages)-1]
		return mock.Step{Text: "ok: " + last.TextContent()}
	})
}

func (p *promptLog) last() []model.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.prompts[len(p.prompts)-1]
}

func texts(msgs []model.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.Role)+": "+m.TextContent())
	}
	return out
}

func recallAgent(t *testing.T, scope agent.MemoryScope, embedder model.EmbeddingModel, logs *bytes.Buffer) (*agent.Agent, *promptLog, *sqlite.Store) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	log := &promptLog{}
	logger := slog.New(slog.DiscardHandler)
	if logs != nil {
		logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	a, err := agent.New(agent.Config{ID: "keeper", Model: log.model(), Storage: st, Logger: logger,
		Memory: &agent.MemoryOptions{LastMessages: 2, SemanticRecall: &agent.SemanticRecall{
			Embedder: embedder, Vector: st, TopK: 1, Scope: scope,
		}}})
	if err != nil {
		t.Fatal(err)
	}
	return a, log, st
}

func say(t *testing.T, a *agent.Agent, text, thread string) {
	t.Helper()
	if _, err := a.Generate(t.Context(), text, agent.WithMemory(thread, "user-1")); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
}

// A run is shown the stored message most like its question, with the
// messages around it, even when it is older than the last messages
// memory gives; the history is not repeated.
func TestSemanticRecallInTheThread(t *testing.T) {
	a, log, st := recallAgent(t, agent.ScopeThread, mock.NewEmbedder(64), nil)
	for _, text := range []string{"My cat is called Tom", "The weather is nice", "I like pizza a lot"} {
		say(t, a, text, "t1")
	}
	say(t, a, "What is my cat called?", "t1")
	got := strings.Join(texts(log.last()), " | ")
	want := "user: My cat is called Tom | assistant: ok: My cat is called Tom | user: I like pizza a lot | assistant: ok: I like pizza a lot | user: What is my cat called?"
	if got != want {
		t.Errorf("prompt:\n got %s\nwant %s", got, want)
	}
	stats, err := st.DescribeIndex(t.Context(), "memory_messages_64")
	if err != nil || stats.Count != 8 || stats.Dimension != 64 {
		t.Errorf("index %+v, %v: want the 8 messages with text, of 64 dimensions", stats, err)
	}
}

// With resource scope, messages of the resource's other threads come in
// Mastra's system message.
func TestSemanticRecallAcrossThreads(t *testing.T) {
	a, log, _ := recallAgent(t, agent.ScopeResource, mock.NewEmbedder(64), nil)
	say(t, a, "My cat is called Tom", "t1")
	say(t, a, "What is my cat called?", "t2")
	var system string
	for _, m := range log.last() {
		if m.Role == model.RoleSystem && strings.Contains(m.TextContent(), "remembered from a different conversation") {
			system = m.TextContent()
		}
	}
	if !strings.HasPrefix(system, "The following messages were remembered from a different conversation:\n<remembered_from_other_conversation>\n\nthe following messages are from ") ||
		!strings.Contains(system, ": User: My cat is called Tom\nMessage from previous conversation at ") ||
		!strings.HasSuffix(system, ": Assistant: ok: My cat is called Tom\n<end_remembered_from_other_conversation>") {
		t.Errorf("system message:\n%s", system)
	}
	for _, m := range log.last() {
		if m.Role != model.RoleSystem && strings.Contains(m.TextContent(), "Tom") {
			t.Errorf("another thread's message joined the history: %s", m.TextContent())
		}
	}
}

// An embedder that fails costs the run nothing but recall: the error is
// logged.
func TestSemanticRecallFailureIsLogged(t *testing.T) {
	var logs bytes.Buffer
	a, log, _ := recallAgent(t, agent.ScopeThread, mock.NewEmbedder(8).WithError(errors.New("embedder down")), &logs)
	say(t, a, "Hello", "t1")
	if got := texts(log.last()); len(got) != 1 || got[0] != "user: Hello" {
		t.Errorf("prompt %v", got)
	}
	if !strings.Contains(logs.String(), "embedder down") {
		t.Errorf("the failure was not logged: %s", logs.String())
	}
}

func TestSemanticRecallNeedsAnEmbedderAndAStore(t *testing.T) {
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, sr := range []*agent.SemanticRecall{{Vector: st}, {Embedder: mock.NewEmbedder(4)},
		{Embedder: mock.NewEmbedder(4), Vector: st, MessageRange: &agent.MessageRange{Before: -1}}} {
		if _, err := agent.New(agent.Config{ID: "a", Model: mock.New(), Storage: st, Memory: &agent.MemoryOptions{SemanticRecall: sr}}); err == nil {
			t.Errorf("%+v accepted", sr)
		}
	}
}

// A recalled message the history already holds is not repeated.
func TestSemanticRecallSkipsTheHistory(t *testing.T) {
	a, log, _ := recallAgent(t, agent.ScopeThread, mock.NewEmbedder(64), nil)
	say(t, a, "My cat is called Tom", "t1")
	say(t, a, "What is my cat called?", "t1")
	got := strings.Join(texts(log.last()), " | ")
	if want := "user: My cat is called Tom | assistant: ok: My cat is called Tom | user: What is my cat called?"; got != want {
		t.Errorf("prompt:\n got %s\nwant %s", got, want)
	}
}

// Deleting a thread or messages through the agent deletes their
// embeddings too, so recall cannot bring them back.
func TestDeletingForgetsEmbeddings(t *testing.T) {
	a, _, st := recallAgent(t, agent.ScopeResource, mock.NewEmbedder(64), nil)
	say(t, a, "My cat is called Tom", "t1")
	say(t, a, "My dog is called Rex", "t2")
	count := func() int {
		stats, err := st.DescribeIndex(t.Context(), "memory_messages_64")
		if err != nil {
			t.Fatal(err)
		}
		return stats.Count
	}
	if n := count(); n != 4 {
		t.Fatalf("%d embeddings, want 4", n)
	}
	if err := a.DeleteThread(t.Context(), "t1"); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Errorf("%d embeddings after deleting t1, want 2", n)
	}
	msgs, err := st.ListMessages(t.Context(), "t2", 0)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("t2: %v, %v", msgs, err)
	}
	if err := a.DeleteMessages(t.Context(), []string{msgs[0].ID}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("%d embeddings after deleting a message, want 1", n)
	}
}
