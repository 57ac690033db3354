package observational

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// The multi-thread observer's texts are what @mastra/memory 1.31.0's
// own functions return, captured by testdata/gen-multi.mjs (TZ=UTC).

func TestMultiThreadPromptsAreMastras(t *testing.T) {
	hints := map[string]ThreadHints{"t1": {CurrentTask: "Answer about tea", SuggestedResponse: "Ask which tea"}}
	for _, c := range []struct{ name, got string }{
		{"observer-system-multi.txt", observerMultiSystemPrompt},
		{"observer-task-multi-first.txt", observerMultiTaskPrompt("", []string{"t1", "t2"}, nil)},
		{"observer-task-multi-next.txt", observerMultiTaskPrompt("<thread id=\"t1\">\nDate: Jan 2, 2026\n* 🔴 (10:00) User likes tea\n</thread>", []string{"t1", "t2"}, hints)},
	} {
		if want := readTestdata(t, c.name); c.got != want {
			t.Errorf("%s differs from Mastra's:\n got %q\nwant %q", c.name, clip(c.got, 400), clip(want, 400))
		}
	}
}

func TestMultiThreadHistoryIsMastras(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	threads := []threadPending{
		{threadID: "t1", msgs: []stored{
			{ID: "a1", CreatedAt: at("2026-01-02T10:00:00Z"), Msg: model.UserText("I like green tea.")},
			{ID: "a2", CreatedAt: at("2026-01-02T10:00:05Z"), Msg: model.Assistant(model.Text("Noted!"))},
		}},
		{threadID: "t2", msgs: []stored{{ID: "b1", CreatedAt: at("2026-01-03T09:30:00Z"), Msg: model.UserText("And coffee?")}}},
	}
	got := observerMultiHistory(threads, time.UTC)
	wantMessageParts(t, got, "observer-history-multi.json")
}

func TestMultiThreadParsingIsMastras(t *testing.T) {
	var cases []struct {
		Output  string
		Threads map[string]struct{ Observations, CurrentTask, SuggestedResponse string }
	}
	if err := json.Unmarshal([]byte(readTestdata(t, "parse-multi.json")), &cases); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		got := parseMultiObserverOutput(c.Output)
		if len(got) != len(c.Threads) {
			t.Errorf("case %d: threads %v, want %v", i, got, c.Threads)
		}
		for id, w := range c.Threads {
			if g := got[id]; g.Observations != w.Observations || g.CurrentTask != w.CurrentTask || g.SuggestedResponse != w.SuggestedResponse {
				t.Errorf("case %d, thread %s: got %+v, want %+v", i, id, g, w)
			}
		}
	}
}

// Threads are batched in order up to maxTokensPerBatch, a larger thread
// alone, as Mastra batches them.
func TestBatchThreads(t *testing.T) {
	th := func(id string, tokens int) threadPending { return threadPending{threadID: id, tokens: tokens} }
	got := batchThreads([]threadPending{th("a", 4000), th("b", 6000), th("c", 1), th("d", 12000), th("e", 10)})
	var ids [][]string
	for _, b := range got {
		var bs []string
		for _, t := range b {
			bs = append(bs, t.threadID)
		}
		ids = append(ids, bs)
	}
	if want := `[["a","b"],["c"],["d"],["e"]]`; mustJSON(ids) != want {
		t.Errorf("batches %s, want %s", mustJSON(ids), want)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Each batch is one observer call; the answers' threads are merged, and
// a failed call fails them all.
func TestObserveBatches(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		mu.Lock()
		calls++
		mu.Unlock()
		hist := req.Messages[len(req.Messages)-1]
		var out []string
		for _, part := range hist.Content {
			if id, ok := strings.CutPrefix(part.Text, "<thread id=\""); ok {
				id = strings.TrimSuffix(id, "\">\n")
				out = append(out, "<thread id=\""+id+"\">\n* 🔴 about "+id+"\n</thread>")
			}
		}
		return mock.Step{Text: "<observations>\n" + strings.Join(out, "\n") + "\n</observations>"}
	})
	p := &Processor{cfg: Config{Model: m, Location: time.UTC}}
	msg := []stored{{ID: "x", Msg: model.UserText("hello")}}
	batches := [][]threadPending{{{threadID: "a", msgs: msg}, {threadID: "b", msgs: msg}}, {{threadID: "c", msgs: msg}}}
	got, err := p.observeBatches(context.Background(), "", nil, batches)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || len(got) != 3 || got["c"].Observations != "* 🔴 about c" || got["a"].Observations != "* 🔴 about a" {
		t.Errorf("%d calls, results %+v", calls, got)
	}
	p.cfg.Model = mock.New(mock.Step{Text: "<observations>\n<thread id=\"a\">\n* 🔴 x\n</thread>\n</observations>"}, mock.Step{Text: "nothing"})
	if _, err := p.observeBatches(context.Background(), "", nil, batches); err == nil {
		t.Error("a failed batch did not fail the observation")
	}
}

// A batch of one thread answered without <thread> blocks is read as a
// single-thread observer's answer; with more threads it is an error.
func TestMultiThreadAnswerWithoutThreadBlocks(t *testing.T) {
	answer := mock.Step{Text: "<observations>\n* 🔴 (10:00) untagged\n</observations>\n<current-task>\nTask\n</current-task>"}
	p := &Processor{cfg: Config{Model: mock.New(answer, answer), Location: time.UTC}}
	msg := []stored{{ID: "x", Msg: model.UserText("hello")}}
	got, err := p.callMultiObserver(context.Background(), "", nil, []threadPending{{threadID: "a", msgs: msg}})
	if err != nil || got["a"].Observations != "* 🔴 (10:00) untagged" || got["a"].CurrentTask != "Task" {
		t.Errorf("one thread: %+v, err %v", got, err)
	}
	if _, err := p.callMultiObserver(context.Background(), "", nil, []threadPending{{threadID: "a", msgs: msg}, {threadID: "b", msgs: msg}}); err == nil {
		t.Error("two threads answered without blocks: no error")
	}
}

// Attachments are numbered across the threads of a call, as Mastra's
// shared counter numbers them.
func TestMultiThreadHistoryNumbersAttachmentsAcross(t *testing.T) {
	img := func(name string) stored {
		return stored{Msg: model.User(model.Text("look"), model.File("https://x.test/"+name, "image/png", name))}
	}
	got := observerMultiHistory([]threadPending{{threadID: "a", msgs: []stored{img("one.png")}}, {threadID: "b", msgs: []stored{img("two.png")}}}, time.UTC)
	var all []string
	for _, p := range got.Content {
		all = append(all, p.Text)
	}
	if text := strings.Join(all, ""); !strings.Contains(text, "[Image #1: one.png]") || !strings.Contains(text, "[Image #2: two.png]") {
		t.Errorf("history %q", text)
	}
}
