package agent_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
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

// Tool messages and a turn's tool-call steps (which Mastra's stored form
// folds into one assistant message) are neither results nor context of
// their own: the turn is, with its first text part.
func TestSearchMemoryFoldsStoredSteps(t *testing.T) {
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
	want := "user: Weather? @t1 [ / Sunny.]\n" + "assistant: Sunny. @t1 [Weather? / ]\n"
	if got := hitLines(res); got != want || res.Results[1].ID != "m2" {
		t.Errorf("hits:\n%s\nwant:\n%s(the turn as m2)", got, want)
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

type weatherIn struct {
	City string `json:"city"`
}

// toolRunAgent is an agent with memory (its lastMessages, and sr:
// semantic recall, or none) whose model answers its first run with a tool call, then "Sunny in
// Paris.", and its later runs with "ok".
func toolRunAgent(t *testing.T, lastMessages int, sr *agent.SemanticRecall) (*agent.Agent, *sqlite.Store) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if sr != nil {
		sr.Vector = st
	}
	weather := tools.New(tools.Config[weatherIn, string]{ID: "weather",
		Execute: func(tools.Context, weatherIn) (string, error) { return "sun", nil }})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "weather", Args: `{"city":"Paris"}`}}},
		mock.Step{Text: "Sunny in Paris."}, mock.Step{Text: "ok"}).RepeatLast()
	a, err := agent.New(agent.Config{ID: "keeper", Model: m, Storage: st, Tools: tools.Set{"weather": weather},
		Memory: &agent.MemoryOptions{LastMessages: lastMessages, SemanticRecall: sr}})
	if err != nil {
		t.Fatal(err)
	}
	return a, st
}

// turnIDs are the ids of a thread's messages folded as Mastra stores
// them (each user message; each turn as its first stored message),
// with their roles.
func turnIDs(t *testing.T, st *sqlite.Store, threadID string) []string {
	t.Helper()
	msgs, err := st.ListMessages(t.Context(), threadID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, m := range msgs {
		step := m.Role == string(model.RoleAssistant) || m.Role == string(model.RoleTool)
		if !step {
			ids = append(ids, m.Role+" "+m.ID)
		} else if i == 0 || msgs[i-1].Role == string(model.RoleUser) || msgs[i-1].Role == string(model.RoleSystem) {
			ids = append(ids, "assistant "+m.ID)
		}
	}
	return ids
}

// hitIDs are a search's hits as "role id", oldest first.
func hitIDs(res *agent.MemorySearchResult) []string {
	var ids []string
	for _, h := range slices.Backward(res.Results) {
		ids = append(ids, h.Role+" "+h.ID)
	}
	return ids
}

// A run with a tool call is stored as four messages (user, tool call,
// tool results, text) but found as Mastra stores it: the user message
// and one assistant turn with its first message's id and time and its
// text.
func TestSearchMemoryToolRunText(t *testing.T) {
	a, st := toolRunAgent(t, 10, nil)
	say(t, a, "Weather in Paris?", "t1")
	want := turnIDs(t, st, "t1")
	if len(want) != 2 {
		t.Fatalf("the thread folds into %v", want)
	}
	res := search(t, a, agent.MemorySearch{Query: "x", ResourceID: "user-1"})
	if got := hitIDs(res); !slices.Equal(got, want) {
		t.Fatalf("hits %v, want %v", got, want)
	}
	msgs, _ := st.ListMessages(t.Context(), "t1", 0)
	turn := res.Results[slices.IndexFunc(res.Results, func(h agent.MemorySearchHit) bool { return h.Role == "assistant" })]
	if turn.Content != "Sunny in Paris." || !turn.CreatedAt.Equal(msgs[1].CreatedAt) {
		t.Errorf("the turn's content %q, time %v (want its first message's, %v)", turn.Content, turn.CreatedAt, msgs[1].CreatedAt)
	}
	if c := turn.Context; c == nil || contents(c.Before) != "Weather in Paris?" || len(c.After) != 0 {
		t.Errorf("the turn's context: %+v", c)
	}
}

// A recalled message that is a step of a turn (the turn's text, which
// is what is embedded) is found as its turn.
func TestSearchMemoryToolRunSemantic(t *testing.T) {
	a, st := toolRunAgent(t, 10, &agent.SemanticRecall{Embedder: mock.NewEmbedder(64), TopK: 1, Scope: agent.ScopeResource})
	say(t, a, "Weather in Paris?", "t1")
	say(t, a, "Hello there", "t2")
	t1 := turnIDs(t, st, "t1")
	want := append(t1[1:], turnIDs(t, st, "t2")...)
	res := search(t, a, agent.MemorySearch{Query: "Sunny in Paris.", ResourceID: "user-1"})
	if got := hitIDs(res); !slices.Equal(got, want) || res.SearchType != "semantic" {
		t.Fatalf("%s hits %v, want %v", res.SearchType, got, want)
	}
	if got := hitLines(res); !strings.HasSuffix(got, "assistant: Sunny in Paris. @t1 [Weather in Paris? / ]\n") {
		t.Errorf("hits:\n%s", got)
	}
	// in thread scope, older than the last messages, with the matched
	// message's range: two steps of the turn (one hit), and Thanks
	a, st = toolRunAgent(t, 2, &agent.SemanticRecall{Embedder: mock.NewEmbedder(64), TopK: 1, Scope: agent.ScopeThread,
		MessageRange: &agent.MessageRange{Before: 1, After: 1}})
	for _, text := range []string{"Weather in Paris?", "Thanks", "Bye"} {
		say(t, a, text, "t1")
	}
	res = search(t, a, agent.MemorySearch{Query: "Sunny in Paris.", ResourceID: "user-1", ThreadID: "t1"})
	ids := turnIDs(t, st, "t1") // Weather, turn, Thanks, ok, Bye, ok
	if got, want := hitIDs(res), append(ids[1:3:3], ids[4:]...); !slices.Equal(got, want) {
		t.Errorf("thread scope: hits %v, want %v", got, want)
	}
}

// A hit's context counts turns: the messages just before and after it
// as Mastra stores them, however many steps a turn took.
func TestSearchMemoryContextCountsTurns(t *testing.T) {
	a, st := toolRunAgent(t, 10, nil)
	for _, text := range []string{"Weather in Paris?", "Thanks", "Bye"} {
		say(t, a, text, "t1")
	}
	res := search(t, a, agent.MemorySearch{Query: "x", ResourceID: "user-1"})
	want := "assistant: ok @t1 [ok, Bye / ]\n" +
		"user: Bye @t1 [Thanks, ok / ok]\n" +
		"assistant: ok @t1 [Sunny in Paris., Thanks / Bye, ok]\n" +
		"user: Thanks @t1 [Weather in Paris?, Sunny in Paris. / ok, Bye]\n" +
		"assistant: Sunny in Paris. @t1 [Weather in Paris? / Thanks, ok]\n" +
		"user: Weather in Paris? @t1 [ / Sunny in Paris., Thanks]\n"
	if got := hitLines(res); got != want {
		t.Errorf("hits:\n%s\nwant:\n%s", got, want)
	}
	ids := turnIDs(t, st, "t1")
	thanks := res.Results[3].Context
	if got := []string{thanks.Before[1].Role + " " + thanks.Before[1].ID}; !slices.Equal(got, ids[1:2]) {
		t.Errorf("the turn before Thanks is %v, want %v", got, ids[1:2])
	}
}
