package observational

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/model"
)

// The testdata files are what @mastra/memory 1.31.0's own functions
// return, captured by testdata/gen.mjs (TZ=UTC).

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPromptsAreMastras(t *testing.T) {
	for _, c := range []struct{ name, got string }{
		{"observer-system.txt", observerSystemPrompt},
		{"reflector-system.txt", reflectorSystemPrompt},
		{"context-prompt.txt", contextPrompt},
		{"continuation-hint.txt", continuationHint},
		{"observer-task-first.txt", observerTaskPrompt("", "", "")},
		{"observer-task-next.txt", observerTaskPrompt("Date: Jan 2, 2026\n* 🔴 (10:00) User likes tea", "Answer about tea", "Ask which tea")},
	} {
		if want := readTestdata(t, c.name); c.got != want {
			t.Errorf("%s differs from Mastra's:\n got %q\nwant %q", c.name, clip(c.got, 400), clip(want, 400))
		}
	}
	for level := 0; level <= maxCompressionLevel; level++ {
		name := fmt.Sprintf("reflector-prompt-%d.txt", level)
		if got, want := reflectorPrompt("Date: Jan 2, 2026\n* 🔴 (10:00) User likes tea", level), readTestdata(t, name); got != want {
			t.Errorf("%s differs from Mastra's:\n got %q\nwant %q", name, got, want)
		}
	}
}

func TestObserverHistoryIsMastras(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	msgs := []stored{
		{ID: "m1", CreatedAt: at("2026-01-02T10:00:00Z"), Msg: model.UserText("I like green tea.")},
		{ID: "m2", CreatedAt: at("2026-01-02T10:00:05Z"), Msg: model.Assistant(model.Text("Noted!"), model.ToolCall("c1", "weather", json.RawMessage(`{"city":"Paris"}`)))},
		{ID: "m2t", CreatedAt: at("2026-01-02T10:00:05Z"), Msg: model.ToolMessage(model.ToolResultPart{ToolCallID: "c1", ToolName: "weather", Output: model.ToolResultOutput{Type: model.OutputJSON, Value: map[string]any{"temp": 21}}})},
		{ID: "m3", CreatedAt: at("2026-01-03T09:30:00Z"), Msg: model.UserText("And coffee?")},
	}
	got := observerHistory(msgs, time.UTC)
	wantMessageParts(t, got, "observer-history.json")
}

func TestObserverHistoryTimes(t *testing.T) {
	base := time.Date(2026, 3, 9, 0, 5, 0, 0, time.UTC)
	msgs := []stored{
		{CreatedAt: base, Msg: model.UserText("a")},
		{CreatedAt: base.Add(12 * time.Hour), Msg: model.Assistant(model.Reasoning("hmm"), model.Text("b"))},
		{CreatedAt: base.Add(12 * time.Hour), Msg: model.ToolMessage(model.ToolResultPart{ToolName: "t", Output: model.ToolResultOutput{Type: model.OutputErrorText, Value: ""}})},
	}
	got := observerHistory(msgs, time.UTC)
	want := []string{"Mar 9 2026:\nUser (12:05 AM): a", "Reasoning (12:05 PM): hmm\nAssistant: b\nTool Error t: Tool execution failed"}
	if len(got.Content) != 3 || got.Content[1].Text != want[0] || got.Content[2].Text != want[1] {
		t.Errorf("got %+v", got.Content)
	}
}

func TestParsingIsMastras(t *testing.T) {
	var cases []struct {
		Output string
		Parsed struct {
			Observations, CurrentTask, SuggestedContinuation string
		}
		Optimized string
	}
	if err := json.Unmarshal([]byte(readTestdata(t, "parse.json")), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 4 {
		t.Fatalf("%d cases", len(cases))
	}
	for i, c := range cases {
		p := parseObserverOutput(c.Output)
		if p.Observations != c.Parsed.Observations || p.CurrentTask != c.Parsed.CurrentTask || p.SuggestedResponse != c.Parsed.SuggestedContinuation {
			t.Errorf("case %d: got %+v, want %+v", i, p, c.Parsed)
		}
		if got := optimizeForContext(p.Observations); got != c.Optimized {
			t.Errorf("case %d: optimized %q, want %q", i, got, c.Optimized)
		}
	}
}

func TestReflectorParsingFallsBackToTheWholeAnswer(t *testing.T) {
	if got := parseReflectorOutput("  just prose\n").Observations; got != "just prose" {
		t.Errorf("got %q", got)
	}
	if got := parseReflectorOutput("x\n- a\ny").Observations; got != "- a" {
		t.Errorf("got %q", got)
	}
	p := parseReflectorOutput("<observations>\nA\n</observations> <suggested-response>S</suggested-response>")
	if p.Observations != "A" || p.SuggestedResponse != "S" {
		t.Errorf("got %+v", p)
	}
}

func TestContextMessagesAndHelpers(t *testing.T) {
	at := time.Date(2026, 1, 2, 10, 0, 5, 0, time.UTC)
	obs := "Date: Jan 2, 2026\n* 🟡 (10:00) one [tag]" + messageBoundary(at) + "* 🔴 two -> three [3 items collapsed - ID: b1] [link](u)"
	got := contextMessages(obs, "", "Task", "", at.Add(30*24*time.Hour), time.UTC)
	want := []string{contextPrompt, "<observations>", "Date: Jan 2, 2026 (1 month ago)\n* (10:00) one", "* 🔴 two three [3 items collapsed - ID: b1] [link](u)", "<current-task>\nTask\n</current-task>"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q", got)
	}
	others := contextMessages("* x", "<other-conversation id=\"t2\">\nUser: hi\n</other-conversation>", "", "", at, time.UTC)
	if len(others) != 4 || others[1] != "The following content is from OTHER conversations different from the current conversation, they're here for reference,  but they're not necessarily your focus:\nSTART_OTHER_CONVERSATIONS_BLOCK\n<other-conversation id=\"t2\">\nUser: hi\n</other-conversation>\nEND_OTHER_CONVERSATIONS_BLOCK" || others[2] != "<observations>" {
		t.Errorf("with other conversations: %q", others)
	}
	if got, want := truncateChars("ab😀cd", 3), "ab\n... [truncated 4 characters]"; got != want {
		t.Errorf("truncateChars cut a surrogate pair: %q, want %q", got, want)
	}
	if got := truncateChars("abc", 3); got != "abc" {
		t.Errorf("truncateChars(abc, 3) = %q", got)
	}
	if b := messageBoundary(at); b != "\n\n--- message boundary (2026-01-02T10:00:05.000Z) ---\n\n" {
		t.Errorf("boundary %q", b)
	}
	long := string(make([]rune, 0))
	for range 10_001 {
		long += "a"
	}
	if got := sanitizeObservationLines("x\n" + long); got != "x\n"+long[:10_000]+" … [truncated]" {
		t.Errorf("long line kept: %d", len(got))
	}
	if got := clip("héllo", 2); got != "h…" {
		t.Errorf("clip %q", got)
	}
}

func TestRelativeDatesAreMastras(t *testing.T) {
	var cases []struct {
		Observations, Annotated string
		Now                     time.Time
	}
	if err := json.Unmarshal([]byte(readTestdata(t, "relative.json")), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 3 {
		t.Fatalf("%d cases", len(cases))
	}
	for i, c := range cases {
		if got := addRelativeTime(c.Observations, c.Now, time.UTC); got != c.Annotated {
			t.Errorf("case %d:\n got %q\nwant %q", i, got, c.Annotated)
		}
	}
	for _, c := range []struct {
		days int
		want string
	}{{-1, "tomorrow"}, {-3, "in 3 days"}, {-10, "in 1 week"}, {-20, "in 2 weeks"}, {-40, "in 1 month"}, {-400, "in 1 year"}, {-800, "in 2 years"},
		{3, "3 days ago"}, {10, "1 week ago"}, {20, "2 weeks ago"}, {40, "1 month ago"}, {100, "3 months ago"}, {800, "2 years ago"}} {
		now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
		if got := relativeTime(now.Add(-time.Duration(c.days)*24*time.Hour), now); got != c.want {
			t.Errorf("%d days: %q, want %q", c.days, got, c.want)
		}
	}
	d := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for days, want := range map[int]string{1: "", 3: "[3 days later]", 10: "[1 week later]", 20: "[2 weeks later]", 45: "[1 month later]", 100: "[3 months later]"} {
		if got := gapBetween(d, d.AddDate(0, 0, days)); got != want {
			t.Errorf("gap %d: %q, want %q", days, got, want)
		}
	}
}

func TestDateOfContent(t *testing.T) {
	for in, want := range map[string]string{
		"late May 2025":        "2025-05-23",
		"early May 2025":       "2025-05-07",
		"mid-May 2025":         "2025-05-15",
		"May 27-28, 2025":      "2025-05-27",
		"April to May 2025":    "2025-05-01",
		"Sept 3, 2025":         "2025-09-03",
		"Foo 3, 2025":          "",
		"sometime around 2025": "",
	} {
		got, ok := dateOfContent(in, time.UTC)
		if s := got.Format("2006-01-02"); (want == "" && ok) || (want != "" && s != want) {
			t.Errorf("%q: %v %v, want %q", in, s, ok, want)
		}
	}
}

func TestDegenerate(t *testing.T) {
	loop := strings.Repeat("* 🔴 (10:00) User likes green tea and asked again.\n", 60)
	var varied strings.Builder
	for i := range 120 {
		fmt.Fprintf(&varied, "* 🔴 (10:%02d) Observation number %d about item %d\n", i%60, i, i*7)
	}
	lines := strings.Repeat("* a line long enough to be counted here\n", 25) + strings.Repeat("x", 2000)
	var numbers strings.Builder
	for i := 0; numbers.Len() <= 50_000; i++ {
		fmt.Fprintf(&numbers, "%d,", i)
	}
	longLine := numbers.String() // no window alike
	half := longLine[:1500] + strings.Repeat("0123456789", 150)
	for _, c := range []struct {
		text string
		want bool
	}{
		{"", false},
		{strings.Repeat("ab", 900), false}, // under 2,000
		{loop, true},
		{strings.Repeat("0123456789", 300), true}, // windows alike
		{strings.Repeat("* 🔴 (10:00) User likes green tea and asked again. ", 60), false}, // Mastra's blind spot: one line, a period the samples miss
		{varied.String(), false},
		{"<observations>\n" + longLine + "\n</observations>", true},
		{longLine[:49_000], false},
		{half, true},
		{lines, true},
	} {
		if got := degenerate(c.text); got != c.want {
			t.Errorf("degenerate(%.40q… %d) = %v", c.text, len(c.text), got)
		}
	}
}

func TestThreadSectionsAreMastras(t *testing.T) {
	var d struct {
		Merges []struct{ Existing, Section, Merged string }
		Strips []struct{ In, Out string }
	}
	if err := json.Unmarshal([]byte(readTestdata(t, "merge.json")), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Merges) < 6 || len(d.Strips) < 4 {
		t.Fatalf("%d merges, %d strips", len(d.Merges), len(d.Strips))
	}
	at := time.Date(2026, 1, 2, 10, 0, 5, 0, time.UTC)
	for i, c := range d.Merges {
		if got := mergeThreadSection(c.Existing, c.Section, at); got != c.Merged {
			t.Errorf("merge %d:\n got %q\nwant %q", i, got, c.Merged)
		}
	}
	for i, c := range d.Strips {
		if got := stripThreadTags(c.In); got != c.Out {
			t.Errorf("strip %d: got %.80q, want %.80q", i, got, c.Out)
		}
	}
}

func TestToolArgumentsAreMastras(t *testing.T) {
	var cases []struct{ JSON, Text string }
	if err := json.Unmarshal([]byte(readTestdata(t, "arguments.json")), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 19 {
		t.Fatalf("%d cases", len(cases))
	}
	for i, c := range cases {
		if got := toolArguments(json.RawMessage(c.JSON)); got != c.Text {
			t.Errorf("case %d (%.60s):\n got %q\nwant %q", i, c.JSON, clip(got, 600), clip(c.Text, 600))
		}
	}
	if got := toolArguments(nil); got != "[arguments unavailable]" {
		t.Errorf("no arguments: %q", got)
	}
}

func TestToolResultsAreMastras(t *testing.T) {
	var cases []struct{ JSON, Text string }
	if err := json.Unmarshal([]byte(readTestdata(t, "results.json")), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 7 {
		t.Fatalf("%d cases", len(cases))
	}
	for i, c := range cases {
		var v any
		if err := json.Unmarshal([]byte(c.JSON), &v); err != nil {
			t.Fatal(err)
		}
		typ := model.OutputJSON
		if _, ok := v.(string); ok {
			typ = model.OutputText
		}
		title, got := toolOutcome(model.ToolResultOutput{Type: typ, Value: v}, json.RawMessage(c.JSON))
		if title != "Tool Result" || got != c.Text {
			t.Errorf("case %d (%.60s):\n got %q\nwant %q", i, c.JSON, clip(got, 300), clip(c.Text, 300))
		}
	}
}

func TestJSString(t *testing.T) {
	for in, want := range map[string]string{
		"a\u2028b":          "\"a\u2028b\"",
		`\u2028` + "\u2029": `"\\u2028` + "\u2029\"",
		"<&>\n\"":           `"<&>\n\""`,
	} {
		if got := jsString(in); got != want {
			t.Errorf("jsString(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAttachmentPlaceholdersAreMastras(t *testing.T) {
	var want []string
	if err := json.Unmarshal([]byte(readTestdata(t, "attachments.json")), &want); err != nil {
		t.Fatal(err)
	}
	img := model.Image("iVBORw0KGgo=", "image/jpeg")
	img.Filename = "me.jpg"
	msg := model.User(model.Text("See these."),
		model.Image("https://x.test/a/cat%20pic.png", "image/png"),
		model.File("data:image/png;base64,AAAA", "image/png", ""),
		model.File("JVBERi0xLjQ=", "application/pdf", " report.pdf "),
		model.File("https://x.test/docs/", "text/plain", ""),
		model.File("Zm9v", "application/octet-stream", ""),
		model.File("https://x.test/photo.JPG?x=1", "application/octet-stream", ""),
		img,
	)
	got := observerHistory([]stored{{CreatedAt: time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC), Msg: msg}}, time.UTC)
	if len(got.Content) != len(want) {
		t.Fatalf("%d parts, want %d", len(got.Content), len(want))
	}
	for i, w := range want {
		if got.Content[i].Text != w {
			t.Errorf("part %d:\n got %q\nwant %q", i, got.Content[i].Text, w)
		}
	}
}

// wantMessageParts checks got's role and text parts against the message
// captured from Mastra in testdata/name.
func wantMessageParts(t *testing.T, got model.Message, name string) {
	t.Helper()
	var want struct {
		Role    string
		Content []struct{ Type, Text string }
	}
	if err := json.Unmarshal([]byte(readTestdata(t, name)), &want); err != nil {
		t.Fatal(err)
	}
	if string(got.Role) != want.Role || len(got.Content) != len(want.Content) {
		t.Fatalf("got %d parts (%s), want %d (%s): %+v", len(got.Content), got.Role, len(want.Content), want.Role, got.Content)
	}
	for i, p := range want.Content {
		if got.Content[i].Type != p.Type || got.Content[i].Text != p.Text {
			t.Errorf("part %d: got %q, want %q", i, got.Content[i].Text, p.Text)
		}
	}
}
