package agent_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
)

// hitLines renders a search's hits one a line: role, content, thread
// title, and the contents of the context before and after it.
func hitLines(res *agent.MemorySearchResult) string {
	var b strings.Builder
	for _, h := range res.Results {
		b.WriteString(h.Role + ": " + h.Content + " @" + h.ThreadTitle)
		if h.Context != nil {
			b.WriteString(" [" + contents(h.Context.Before) + " / " + contents(h.Context.After) + "]")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func contents(msgs []agent.MemorySearchMessage) string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Content)
	}
	return strings.Join(out, ", ")
}

func search(t *testing.T, a *agent.Agent, q agent.MemorySearch) *agent.MemorySearchResult {
	t.Helper()
	res, err := a.SearchMemory(t.Context(), q)
	if err != nil {
		t.Fatalf("SearchMemory(%+v): %v", q, err)
	}
	if res.Count != len(res.Results) {
		t.Errorf("Count %d, %d results", res.Count, len(res.Results))
	}
	return res
}

// With resource scope the searched thread is the resource's latest; its
// last messages come with the resource's message most like the query,
// alone (its neighbours are its context), from another thread.
func TestSearchMemoryResourceScope(t *testing.T) {
	a, _, st := recallAgent(t, agent.ScopeResource, mock.NewEmbedder(64), nil)
	for _, text := range []string{"My cat is called Tom", "The weather is nice", "I like pizza a lot"} {
		say(t, a, text, "t1")
	}
	th, err := st.GetThread(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	th.Title = "Pets"
	if err := st.SaveThread(t.Context(), *th); err != nil {
		t.Fatal(err)
	}
	say(t, a, "Hello there", "t2")
	res := search(t, a, agent.MemorySearch{Query: "My cat is called Tom", ResourceID: "user-1"})
	want := "assistant: ok: Hello there @t2 [Hello there / ]\n" +
		"user: Hello there @t2 [ / ok: Hello there]\n" +
		"user: My cat is called Tom @Pets [ / ok: My cat is called Tom, The weather is nice]\n"
	if got := hitLines(res); got != want || res.SearchScope != "resource" || res.SearchType != "semantic" || res.Query != "My cat is called Tom" {
		t.Errorf("scope %q type %q query %q, hits:\n%s\nwant:\n%s", res.SearchScope, res.SearchType, res.Query, got, want)
	}
}

// With thread scope the matches come with their MessageRange, from the
// searched thread only; a thread not stored gives no results.
func TestSearchMemoryThreadScope(t *testing.T) {
	embedder := mock.NewEmbedder(64)
	a, _, _ := recallAgent(t, agent.ScopeThread, embedder, nil)
	for _, text := range []string{"My cat is called Tom", "The weather is nice", "I like pizza a lot"} {
		say(t, a, text, "t1")
	}
	say(t, a, "Hello there", "t2")
	res := search(t, a, agent.MemorySearch{Query: "My cat is called Tom", ResourceID: "user-1", ThreadID: "t1"})
	want := "assistant: ok: I like pizza a lot @t1 [ok: The weather is nice, I like pizza a lot / ]\n" +
		"user: I like pizza a lot @t1 [The weather is nice, ok: The weather is nice / ok: I like pizza a lot]\n" +
		"assistant: ok: My cat is called Tom @t1 [My cat is called Tom / The weather is nice, ok: The weather is nice]\n" +
		"user: My cat is called Tom @t1 [ / ok: My cat is called Tom, The weather is nice]\n"
	if got := hitLines(res); got != want || res.SearchScope != "thread" || res.SearchType != "semantic" {
		t.Errorf("scope %q type %q, hits:\n%s\nwant:\n%s", res.SearchScope, res.SearchType, got, want)
	}
	res = search(t, a, agent.MemorySearch{Query: "My cat is called Tom", ResourceID: "user-1", ThreadID: "t2"})
	if got := hitLines(res); strings.Contains(got, "cat") {
		t.Errorf("a thread-scoped search of t2 found t1's messages:\n%s", got)
	}
	embeds := len(embedder.Calls())
	res = search(t, a, agent.MemorySearch{Query: "cat", ResourceID: "user-1", ThreadID: "nope"})
	if len(res.Results) != 0 || res.SearchScope != "thread" || res.SearchType != "semantic" || len(embedder.Calls()) != embeds {
		t.Errorf("a thread not stored: %+v, %d embed calls (want none)", res, len(embedder.Calls())-embeds)
	}
	if _, err := a.SearchMemory(t.Context(), agent.MemorySearch{Query: "cat", ResourceID: "user-2", ThreadID: "t1"}); err == nil {
		t.Error("searching another resource's thread: no error")
	}
}

func historyAgent(t *testing.T, lastMessages int) (*agent.Agent, *sqlite.Store) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	log := &promptLog{}
	a, err := agent.New(agent.Config{ID: "keeper", Model: log.model(), Storage: st, Memory: &agent.MemoryOptions{LastMessages: lastMessages}})
	if err != nil {
		t.Fatal(err)
	}
	return a, st
}

// Without semantic recall a search answers the last messages of the
// thread (by default the resource's thread updated last), as Mastra's
// "text" search does: the query matches nothing.
func TestSearchMemoryText(t *testing.T) {
	a, st := historyAgent(t, 2)
	say(t, a, "My cat is called Tom", "t1")
	say(t, a, "The weather is nice", "t1")
	say(t, a, "Another thread", "t2")
	if err := st.SaveThread(t.Context(), storage.Thread{ID: "t1", ResourceID: "user-1", Title: "Weather"}); err != nil {
		t.Fatal(err)
	}
	res := search(t, a, agent.MemorySearch{Query: "pizza", ResourceID: "user-1"})
	want := "assistant: ok: The weather is nice @Weather [ok: My cat is called Tom, The weather is nice / ]\n" +
		"user: The weather is nice @Weather [My cat is called Tom, ok: My cat is called Tom / ok: The weather is nice]\n"
	if got := hitLines(res); got != want || res.SearchScope != "resource" || res.SearchType != "text" {
		t.Errorf("scope %q type %q, hits:\n%s\nwant:\n%s", res.SearchScope, res.SearchType, got, want)
	}
	res = search(t, a, agent.MemorySearch{Query: "pizza", ResourceID: "user-1", ThreadID: "t1", Limit: 1})
	if got := hitLines(res); !strings.HasPrefix(want, got) || res.Count != 1 {
		t.Errorf("Limit 1: %s", got)
	}
	res = search(t, a, agent.MemorySearch{Query: "pizza", ResourceID: "user-1", ThreadID: "nope"})
	if len(res.Results) != 0 || res.SearchType != "text" {
		t.Errorf("a thread not stored: %+v", res)
	}
	res = search(t, a, agent.MemorySearch{Query: "pizza", ResourceID: "user-9"})
	if len(res.Results) != 0 || res.SearchType != "text" {
		t.Errorf("a resource without threads: %+v", res)
	}
}

// The result encodes as Mastra's route answers: its field names, dates
// as JavaScript writes them, empty context lists as [].
func TestSearchMemoryJSON(t *testing.T) {
	a, _ := historyAgent(t, 1)
	say(t, a, "Hi", "t1")
	b, err := json.Marshal(search(t, a, agent.MemorySearch{Query: "x", ResourceID: "user-1"}))
	if err != nil {
		t.Fatal(err)
	}
	re := `^\{"results":\[\{"id":"[^"]+","role":"assistant","content":"ok: Hi","createdAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",` +
		`"threadId":"t1","threadTitle":"t1","context":\{"before":\[\{"id":"[^"]+","role":"user","content":"Hi","createdAt":"[^"]+Z"\}\],"after":\[\]\}\}\],` +
		`"count":1,"query":"x","searchScope":"resource","searchType":"text"\}$`
	if !regexp.MustCompile(re).Match(b) {
		t.Errorf("JSON:\n%s", b)
	}
	noHistory, _ := historyAgent(t, -1)
	b, _ = json.Marshal(search(t, noHistory, agent.MemorySearch{Query: "x", ResourceID: "user-1", ThreadID: "t1"}))
	if string(b) != `{"results":[],"count":0,"query":"x"}` {
		t.Errorf("without history nor recall: %s", b)
	}
}

func TestSearchMemoryWithoutMemory(t *testing.T) {
	a, err := agent.New(agent.Config{ID: "plain", Model: mock.New(mock.Step{Text: "ok"})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SearchMemory(t.Context(), agent.MemorySearch{Query: "x", ResourceID: "u"}); err == nil {
		t.Error("no error")
	}
}

// Tool messages (which Mastra's stored form folds into the assistant's)
// are neither results nor context.
func TestSearchMemoryLeavesOutToolMessages(t *testing.T) {
	a, st := historyAgent(t, 10)
	ctx := t.Context()
	if err := st.SaveThread(ctx, storage.Thread{ID: "t1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	msg := func(id, role, parts string) storage.Message {
		return storage.Message{ID: id, ThreadID: "t1", ResourceID: "user-1", Role: role,
			Content: json.RawMessage(`{"role":"` + role + `","content":[` + parts + `]}`)}
	}
	err := st.SaveMessages(ctx, []storage.Message{
		msg("m1", "user", `{"type":"text","text":"Weather?"}`),
		msg("m2", "assistant", `{"type":"tool-call","toolCallId":"c1","toolName":"weather","input":{}}`),
		msg("m3", "tool", `{"type":"tool-result","toolCallId":"c1","toolName":"weather","output":{"type":"text","value":"sun"}}`),
		msg("m4", "assistant", `{"type":"text","text":"Sunny."},{"type":"text","text":"Warm."}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	res := search(t, a, agent.MemorySearch{Query: "x", ResourceID: "user-1", ThreadID: "t1"})
	// (saved together, they have one time: they stay in thread order)
	want := "user: Weather? @t1 [ / ]\n" + "assistant:  @t1 [Weather? / Sunny.]\n" + "assistant: Sunny. @t1 [ / ]\n"
	if got := hitLines(res); got != want {
		t.Errorf("hits:\n%s\nwant:\n%s", got, want)
	}
	for _, h := range res.Results {
		for _, c := range append(h.Context.Before, h.Context.After...) {
			if c.Role == "tool" {
				t.Errorf("%s's context holds tool message %s", h.ID, c.ID)
			}
		}
	}
}

// A match whose message is gone (deleted from storage but not from the
// index) is skipped, neither an error nor a hit.
func TestSearchMemorySkipsMatchesNoLongerStored(t *testing.T) {
	a, _, st := recallAgent(t, agent.ScopeResource, mock.NewEmbedder(64), nil)
	say(t, a, "My cat is called Tom", "t1")
	say(t, a, "Hello there", "t2")
	msgs, err := st.ListMessages(t.Context(), "t1", 0)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("%d messages, %v", len(msgs), err)
	}
	if err := st.DeleteMessages(t.Context(), []string{msgs[0].ID}); err != nil {
		t.Fatal(err)
	}
	res := search(t, a, agent.MemorySearch{Query: "My cat is called Tom", ResourceID: "user-1"})
	if got := hitLines(res); strings.Contains(got, "cat") || len(res.Results) != 2 {
		t.Errorf("hits:\n%s", got)
	}
}
