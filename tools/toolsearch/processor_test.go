package toolsearch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/toolsearch"
)

func TestNewRejectsBadOptions(t *testing.T) {
	ok := catalogueTool(t, "x", "x", false)
	for name, opts := range map[string]toolsearch.Options{
		"nil tool":      {Tools: tools.Set{"a": nil}},
		"negative topK": {Tools: tools.Set{"a": ok}, Search: toolsearch.SearchOptions{TopK: -1}},
		"NaN minScore":  {Tools: tools.Set{"a": ok}, Search: toolsearch.SearchOptions{MinScore: math.NaN()}},
		"storage":       {Tools: tools.Set{"a": ok}, Storage: "redis"},
	} {
		if _, err := toolsearch.New(opts); !errors.Is(err, toolsearch.ErrBadOptions) {
			t.Errorf("%s: err %v, want ErrBadOptions", name, err)
		}
	}
	// An empty catalogue is fine: nothing to find.
	p := newProcessor(t, toolsearch.Options{})
	prep, err := p.Prepare(context.Background(), toolsearch.Step{})
	if err != nil {
		t.Fatal(err)
	}
	got := execute(t, find(t, prep, "search_tools"), json.RawMessage(`{"query":"x"}`), nil)
	if want := `{"results":[],"message":"No tools found matching \"x\". Try different keywords."}`; string(got) != want {
		t.Errorf("empty catalogue search: %s", got)
	}
}

func TestPrepareRejectsBadStepTools(t *testing.T) {
	p := newProcessor(t, toolsearch.Options{})
	for _, bad := range []toolsearch.NamedTool{{Name: "", Tool: calcTool(t)}, {Name: "calc"}} {
		if _, err := p.Prepare(context.Background(), toolsearch.Step{Tools: []toolsearch.NamedTool{bad}}); err == nil {
			t.Errorf("Prepare accepted %+v", bad)
		}
		if _, err := p.LoadedTools(context.Background(), toolsearch.Step{Tools: []toolsearch.NamedTool{bad}}); err == nil {
			t.Errorf("LoadedTools accepted %+v", bad)
		}
	}
}

// harness drives a processor over the "small" catalogue.
type harness struct {
	t *testing.T
	p *toolsearch.Processor
}

func newHarness(t *testing.T, opts toolsearch.Options) *harness {
	opts.Tools = catalogueSet(t, mastraFixtures(t), "small", "emailSend")
	return &harness{t: t, p: newProcessor(t, opts)}
}

func (h *harness) prepare(s toolsearch.Step) *toolsearch.Prepared {
	h.t.Helper()
	prep, err := h.p.Prepare(context.Background(), s)
	if err != nil {
		h.t.Fatal(err)
	}
	return prep
}

// load calls load_tool on a step of thread and returns its output.
func (h *harness) load(threadID string, input string) string {
	h.t.Helper()
	prep := h.prepare(toolsearch.Step{ThreadID: threadID})
	return string(execute(h.t, find(h.t, prep, "load_tool"), json.RawMessage(input), nil))
}

// offered is what a step of thread offers besides the meta-tools.
func (h *harness) offered(s toolsearch.Step) []string {
	h.t.Helper()
	return names(h.prepare(s).Tools)[2:]
}

func TestTTLExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	h := newHarness(t, toolsearch.Options{TTL: time.Hour, Now: clock})
	h.load("t1", `{"toolName":"weather"}`)
	h.load("t2", `{"toolName":"send_email"}`)

	now = now.Add(59 * time.Minute) // within the TTL: kept, and refreshed
	if got := h.offered(toolsearch.Step{ThreadID: "t1"}); !slices.Equal(got, []string{"weather"}) {
		t.Fatalf("after 59m: %v", got)
	}
	now = now.Add(59 * time.Minute) // 59m after t1's last use, 118m after t2's
	if got := h.offered(toolsearch.Step{ThreadID: "t1"}); !slices.Equal(got, []string{"weather"}) {
		t.Errorf("t1 used 59m ago: %v", got)
	}
	if got := h.offered(toolsearch.Step{ThreadID: "t2"}); len(got) != 0 {
		t.Errorf("t2 unused for 118m still offers %v", got)
	}
	now = now.Add(time.Hour + time.Second)
	if got := h.offered(toolsearch.Step{ThreadID: "t1"}); len(got) != 0 {
		t.Errorf("t1 unused for over an hour still offers %v", got)
	}
}

func TestTTLSweepStatsAndClear(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	h := newHarness(t, toolsearch.Options{TTL: 10 * time.Minute, Now: func() time.Time { return now }})
	for i := range 5 {
		h.load(fmt.Sprint("t", i), `{"toolName":"weather"}`)
		now = now.Add(time.Minute)
	}
	h.load("", `{"toolName":"weather"}`) // the shared "default" thread
	if s := h.p.StateStats(); s.ThreadCount != 6 || !s.OldestAccess.Equal(start) {
		t.Fatalf("stats %+v", s)
	}
	now = start.Add(12*time.Minute + time.Second) // t0, t1, t2 unused for over 10m
	if n := h.p.CleanupNow(); n != 3 {
		t.Errorf("CleanupNow forgot %d threads, want 3", n)
	}
	// The periodic sweep (every max(TTL/2, 1m)) forgets the others on the
	// next use of any thread, without a goroutine.
	now = start.Add(30 * time.Minute)
	h.prepare(toolsearch.Step{ThreadID: "fresh"})
	if s := h.p.StateStats(); s.ThreadCount != 1 {
		t.Errorf("after the sweep %d threads remain, want 1 (fresh)", s.ThreadCount)
	}
	h.load("a", `{"toolName":"weather"}`)
	h.p.ClearState("a")
	if got := h.offered(toolsearch.Step{ThreadID: "a"}); len(got) != 0 {
		t.Errorf("ClearState kept %v", got)
	}
	h.load("", `{"toolName":"weather"}`)
	h.p.ClearState("")
	if got := h.offered(toolsearch.Step{}); len(got) != 0 {
		t.Errorf("ClearState(\"\") kept the default thread's %v", got)
	}
	h.load("b", `{"toolName":"weather"}`)
	h.p.ClearAllState()
	if s := h.p.StateStats(); s.ThreadCount != 0 || !s.OldestAccess.IsZero() {
		t.Errorf("after ClearAllState: %+v", s)
	}
}

func TestNegativeTTLNeverExpires(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := newHarness(t, toolsearch.Options{TTL: -1, Now: func() time.Time { return now }})
	h.load("t", `{"toolName":"weather"}`)
	now = now.AddDate(1, 0, 0)
	if n := h.p.CleanupNow(); n != 0 {
		t.Errorf("CleanupNow forgot %d", n)
	}
	if got := h.offered(toolsearch.Step{ThreadID: "t"}); !slices.Equal(got, []string{"weather"}) {
		t.Errorf("a year later: %v", got)
	}
}

// The request context's thread id wins over Step.ThreadID; runs without
// either share the default thread.
func TestThreadResolution(t *testing.T) {
	h := newHarness(t, toolsearch.Options{})
	h.load("from-step", `{"toolName":"weather"}`)
	rc := tools.NewRequestContext(map[string]any{tools.ThreadIDKey: "from-rc"})
	prep := h.prepare(toolsearch.Step{ThreadID: "from-step", RequestContext: rc})
	execute(t, find(t, prep, "load_tool"), json.RawMessage(`{"toolName":"send_email"}`), rc)
	if got := h.offered(toolsearch.Step{ThreadID: "from-rc"}); !slices.Equal(got, []string{"send_email"}) {
		t.Errorf("from-rc offers %v", got)
	}
	if got := h.offered(toolsearch.Step{ThreadID: "from-step"}); !slices.Equal(got, []string{"weather"}) {
		t.Errorf("from-step offers %v", got)
	}
	if got := h.offered(toolsearch.Step{}); len(got) != 0 {
		t.Errorf("the default thread offers %v", got)
	}
}

// A loaded tool is the catalogue's own tool: its approval flag and
// everything else come with it.
func TestLoadedToolsKeepTheirSettings(t *testing.T) {
	f := mastraFixtures(t)
	set := catalogueSet(t, f, "small", "emailSend")
	p := newProcessor(t, toolsearch.Options{Tools: set})
	prep, err := p.Prepare(context.Background(), toolsearch.Step{ThreadID: "t"})
	if err != nil {
		t.Fatal(err)
	}
	execute(t, find(t, prep, "load_tool"), json.RawMessage(`{"toolNames":["send_email","emailSend","weather"]}`), nil)
	loaded, err := p.LoadedTools(context.Background(), toolsearch.Step{ThreadID: "t"})
	if err != nil {
		t.Fatal(err)
	}
	want := []toolsearch.NamedTool{{Name: "send_email", Tool: set["emailSend"]}, {Name: "emailSend", Tool: set["emailSend"]}, {Name: "weather", Tool: set["weather"]}}
	if diff := cmp.Diff(want, loaded, cmp.Comparer(func(a, b *tools.Tool) bool { return a == b })); diff != "" {
		t.Errorf("LoadedTools (-want +got):\n%s", diff)
	}
	if !loaded[0].Tool.RequireApproval() || loaded[2].Tool.RequireApproval() {
		t.Error("approval flags changed")
	}
}

// With StorageContext the messages are the record: results of load_tool
// and search_tools in them (typed or decoded from JSON) load tools, error
// results do not, and a tool is unloaded once its result is gone.
func TestContextStorageFollowsMessages(t *testing.T) {
	h := newHarness(t, toolsearch.Options{Storage: toolsearch.StorageContext})
	result := func(name string, out model.ToolResultOutput) model.Message {
		return model.ToolMessage(model.ToolResultPart{ToolCallID: "c", ToolName: name, Output: out})
	}
	decoded := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	msgs := []model.Message{
		model.UserText("hi"),
		result("load_tool", model.JSONOutput(toolsearch.LoadOutput{Success: true, ToolName: "weather"})),
		result("load_tool", model.JSONOutput(decoded(`{"success":false,"message":"x","toolName":"github_list_issues"}`))),
		result("load_tool", model.JSONOutput(decoded(`{"success":true,"message":"x","loadedCount":1,"loaded":["database_query"]}`))),
		result("search_tools", model.JSONOutput(decoded(`{"results":[{"name":"send_email","description":"","score":1}],"message":"x"}`))),
		result("load_tool", model.ErrorTextOutput(`{"success":true,"toolName":"slack.post_message"}`)),
		result("other_tool", model.JSONOutput(decoded(`{"success":true,"toolName":"calendar_create_event"}`))),
	}
	if got := h.offered(toolsearch.Step{ThreadID: "t", Messages: msgs}); !slices.Equal(got, []string{"weather", "database_query", "send_email"}) {
		t.Errorf("offered %v", got)
	}
	// Only the first result left in the window.
	if got := h.offered(toolsearch.Step{ThreadID: "t", Messages: msgs[:2]}); !slices.Equal(got, []string{"weather"}) {
		t.Errorf("after the window moved: %v", got)
	}
	// A load not yet visible in the messages is bridged for the thread ...
	prep := h.prepare(toolsearch.Step{ThreadID: "t", Messages: msgs[:1]})
	execute(t, find(t, prep, "load_tool"), json.RawMessage(`{"toolName":"github_list_issues"}`), nil)
	if got, _ := h.p.LoadedTools(context.Background(), toolsearch.Step{ThreadID: "t"}); !slices.Equal(names(got), []string{"github_list_issues"}) {
		t.Errorf("resume without messages sees %v", names(got))
	}
	if got := h.offered(toolsearch.Step{ThreadID: "t", Messages: msgs[:1]}); !slices.Equal(got, []string{"github_list_issues"}) {
		t.Errorf("next step: %v", got)
	}
	// ... and once the messages show it, they alone decide.
	shown := append(slices.Clone(msgs[:1]), result("load_tool", model.JSONOutput(toolsearch.LoadOutput{Success: true, ToolName: "github_list_issues"})))
	if got := h.offered(toolsearch.Step{ThreadID: "t", Messages: shown}); !slices.Equal(got, []string{"github_list_issues"}) {
		t.Errorf("shown: %v", got)
	}
	if got := h.offered(toolsearch.Step{ThreadID: "t", Messages: msgs[:1]}); len(got) != 0 {
		t.Errorf("after its result left the messages: %v", got)
	}
	if s := h.p.StateStats(); s.ThreadCount != 0 || h.p.CleanupNow() != 0 {
		t.Errorf("context storage reports in-memory state %+v", s)
	}
}

// The filter sees the tool's id, the phase, a request context and a
// context; an error or a panic hides the tool.
func TestFilterArgs(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	rc := tools.NewRequestContext(map[string]any{"user": "ann"})
	h := newHarness(t, toolsearch.Options{InjectCatalog: true, Filter: func(a toolsearch.FilterArgs) error {
		if a.Context == nil || a.RequestContext == nil || a.Tool == nil || a.Tool.ID() != a.ToolName {
			t.Errorf("bad filter args %+v", a)
		}
		if u, _ := a.RequestContext.Get("user"); u != "ann" {
			t.Errorf("request context %v", a.RequestContext.All())
		}
		mu.Lock()
		seen = append(seen, string(a.Phase)+":"+a.ToolName)
		mu.Unlock()
		switch a.ToolName {
		case "weather":
			return errors.New("no weather for ann")
		case "send_email":
			panic("boom")
		}
		return nil
	}})
	prep := h.prepare(toolsearch.Step{ThreadID: "f", RequestContext: rc})
	if len(prep.System) != 2 || slices.ContainsFunc([]string{"`weather`", "`send_email`"}, func(s string) bool {
		return strings.Contains(prep.System[1], s)
	}) {
		t.Errorf("catalogue lists hidden tools: %q", prep.System)
	}
	got := execute(t, find(t, prep, "load_tool"), json.RawMessage(`{"toolNames":["weather","send_email","database_query"]}`), rc)
	if want := `{"success":false,"message":"Loaded: database_query — available on your next turn | Not found: weather, send_email","loadedCount":1,"loaded":["database_query"],"notFound":["weather","send_email"]}`; string(got) != want {
		t.Errorf("load: %s", got)
	}
	if !slices.Contains(seen, "search:database_query") || !slices.Contains(seen, "load:weather") {
		t.Errorf("phases seen: %v", seen)
	}
}

// Parallel calls of one step's meta-tools and steps of many threads are
// safe: every load is counted once.
func TestConcurrentUse(t *testing.T) {
	h := newHarness(t, toolsearch.Options{})
	f := mastraFixtures(t)
	var ids []string
	for _, e := range f.Catalogs["small"] {
		ids = append(ids, e.ID)
	}
	prep := h.prepare(toolsearch.Step{ThreadID: "shared"})
	load := find(t, prep, "load_tool")
	var wg sync.WaitGroup
	results := make([]toolsearch.LoadOutput, len(ids)*4)
	for i := range results {
		wg.Go(func() {
			res, err := load.Execute(context.Background(), json.RawMessage(fmt.Sprintf(`{"toolName":%q}`, ids[i%len(ids)])), nil)
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = res.Output.(toolsearch.LoadOutput)
		})
		wg.Go(func() {
			thread := fmt.Sprint("t", i)
			p := h.prepare(toolsearch.Step{ThreadID: thread})
			execute(t, find(t, p, "search_tools"), json.RawMessage(`{"query":"github issue"}`), nil)
		})
	}
	wg.Wait()
	loadedOnce := map[string]int{}
	for _, r := range results {
		if r.Message == fmt.Sprintf(`Tool "%s" loaded successfully. It will be available on your next turn.`, r.ToolName) {
			loadedOnce[r.ToolName]++
		}
	}
	for _, id := range ids {
		if loadedOnce[id] != 1 {
			t.Errorf("%s reported loaded %d times", id, loadedOnce[id])
		}
	}
	if got := h.offered(toolsearch.Step{ThreadID: "shared"}); len(got) != len(ids) {
		t.Errorf("offered %v", got)
	}
}
