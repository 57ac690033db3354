package builtin_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// testdata/webfetch/mastra.json is the real Mastra's webFetchTool, recorded
// by testdata/webfetch/capture.mjs against the same scenarios (see
// testdata/webfetch/README.md).
type wfFixture struct {
	Tool struct {
		ID, Description           string
		InputSchema, OutputSchema json.RawMessage
	} `json:"tool"`
	ModelTool struct {
		Name, Description string
		InputSchema       json.RawMessage
	} `json:"modelTool"`
	Fetches []wfCase `json:"fetches"`
	Hostile []wfCase `json:"hostile"`
}

type wfCase struct {
	URL    string          `json:"url"`
	Result json.RawMessage `json:"result"`
}

func loadWFFixture(t *testing.T) *wfFixture {
	t.Helper()
	raw, err := os.ReadFile("testdata/webfetch/mastra.json")
	if err != nil {
		t.Fatal(err)
	}
	var f wfFixture
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

func TestMastraWebFetchSchemas(t *testing.T) {
	f := loadWFFixture(t)
	tool := builtin.WebFetchTool
	if tool.ID() != f.Tool.ID || builtin.WebFetchToolID != f.Tool.ID {
		t.Errorf("id %q, want %q", tool.ID(), f.Tool.ID)
	}
	if tool.Description() != f.Tool.Description {
		t.Errorf("description %q, want %q", tool.Description(), f.Tool.Description)
	}
	for _, s := range []struct {
		name string
		got  any
		want json.RawMessage
	}{
		{"input", tool.InputSchema().JSONSchema(), f.Tool.InputSchema},
		{"output", tool.OutputSchema().JSONSchema(), f.Tool.OutputSchema},
	} {
		if diff := cmp.Diff(jsonValue(t, s.want), jsonValue(t, s.got)); diff != "" {
			t.Errorf("%s schema (-mastra +go):\n%s", s.name, diff)
		}
	}
	ms := tool.ModelSchema(compat.Model{Provider: "mock", ModelID: "m"})
	got, err := compat.Marshal(ms.Schema)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jsonValue(t, f.ModelTool.InputSchema), jsonValue(t, json.RawMessage(got))); diff != "" {
		t.Errorf("model schema (-mastra +go):\n%s", diff)
	}
	if f.ModelTool.Name != "web_fetch" || f.ModelTool.Description != tool.Description() {
		t.Errorf("model tool %q %q", f.ModelTool.Name, f.ModelTool.Description)
	}
}

// Where the Go tool deliberately answers differently from the recording,
// the reason and the Go answer. Every other recorded case must match
// byte for byte (key order included).
var wfFetchDifferences = map[string]struct{ why, want string }{
	"http://fixture.test/html-latin1": {"Go decodes the <meta> charset; Mastra reads every body as UTF-8",
		`{"content":"<html><head><meta charset=\"iso-8859-1\"></head><body><p>Café and châteaux!</p></body></html>","truncated":false,"status":200,"statusText":"OK","contentType":"text/html","url":"http://fixture.test/html-latin1","ok":true}`},
	"http://fixture.test/latin1": {"Go decodes the Content-Type charset",
		`{"content":"café","truncated":false,"status":200,"statusText":"OK","contentType":"text/plain; charset=iso-8859-1","url":"http://fixture.test/latin1","ok":true}`},
	"http://fixture.test/invalid-utf8": {"undeclared text that is not UTF-8 is windows-1252 in Go",
		`{"content":"aÿb","truncated":false,"status":200,"statusText":"OK","contentType":"text/plain","url":"http://fixture.test/invalid-utf8","ok":true}`},
	"http://fixture.test/astral-split": {"Mastra's cut leaves half a surrogate pair (100000 units); Go ends before the pair (99999)",
		`{"content":{"$units":99999,"$tail":[55357,56832,55357,56832]},"truncated":true,"status":200,"statusText":"OK","contentType":"text/plain; charset=utf-8","url":"http://fixture.test/astral-split","ok":true}`},
}

// Hostile URLs Mastra does not refuse (it fetched them from the capture's
// fixture server, or failed only at DNS) and Go refuses.
var wfHostileDifferences = map[string]string{
	"http://localhost./":           wfBlocked,                                                      // Mastra: DNS lookup of "localhost."
	"http://127.0.0.1..//":         "Failed to fetch URL: only HTTP and HTTPS URLs are supported.", // empty label
	"http://192.88.99.1/":          wfBlocked,                                                      // deprecated 6to4 relay anycast
	"http://[::ffff:8.8.8.8]/":     wfBlocked,                                                      // IPv4-mapped, whatever it maps
	"http://[::127.0.0.1]/":        wfBlocked,                                                      // IPv4-compatible
	"http://[64:ff9b::127.0.0.1]/": wfBlocked,                                                      // NAT64
	"http://[64:ff9b:1::a00:1]/":   wfBlocked,                                                      // NAT64 local-use
	"http://[2002:7f00:1::]/":      wfBlocked,                                                      // 6to4
	"http://[2001::7f00:1]/":       wfBlocked,                                                      // Teredo
	"http://[2001:db8::1]/":        wfBlocked,                                                      // documentation
	"http://[fec0::1]/":            wfBlocked,                                                      // site-local
	"http://[100::1]/":             wfBlocked,                                                      // discard-only
	"http://[2001:10::1]/":         wfBlocked,                                                      // ORCHID
	"http://[2001:20::1]/":         wfBlocked,                                                      // ORCHIDv2
	"http://nat64.test/":           wfBlocked,                                                      // resolves to NAT64
}

func TestMastraWebFetchFetches(t *testing.T) {
	f, s := loadWFFixture(t), loadWFScenarios(t)
	srv := wfScenarioServer(t, s)
	guard := newWFGuardDialer(t, map[string]string{"93.184.216.34:80": srv.Listener.Addr().String()})
	tool := newWFTool(t, builtin.WebFetchOptions{Raw: true, Resolver: newWFFakeDNS(s.DNS), DialContext: guard.dial})
	if len(f.Fetches) != len(s.Fetches)+1 {
		t.Fatalf("fixture has %d fetches, scenarios %d (+1 empty URL): regenerate mastra.json", len(f.Fetches), len(s.Fetches))
	}
	for _, c := range f.Fetches {
		want := string(c.Result)
		if d, ok := wfFetchDifferences[c.URL]; ok {
			if wfSameJSON(t, c.Result, []byte(d.want)) {
				t.Errorf("%s: listed as a difference (%s) but Mastra answers the same", c.URL, d.why)
			}
			want = d.want
		}
		wfCompareResult(t, c.URL, tool, want)
	}
}

func TestMastraWebFetchHostile(t *testing.T) {
	f, s := loadWFFixture(t), loadWFScenarios(t)
	guard := newWFGuardDialer(t, nil)
	dns := newWFFakeDNS(s.DNS)
	tool := newWFTool(t, builtin.WebFetchOptions{Resolver: dns, DialContext: guard.dial})
	if len(f.Hostile) != len(s.Hostile) {
		t.Fatalf("fixture has %d hostile URLs, scenarios %d: regenerate mastra.json", len(f.Hostile), len(s.Hostile))
	}
	for _, c := range f.Hostile {
		want := string(c.Result)
		if msg, ok := wfHostileDifferences[c.URL]; ok {
			want = `{"content":` + wfJSONString(msg) + `,"isError":true}`
			if wfSameJSON(t, c.Result, []byte(want)) {
				t.Errorf("%s: listed as a difference but Mastra answers the same", c.URL)
			}
		} else if wfDecode(t, c.Result)["isError"] != true {
			t.Errorf("%s: Mastra fetched it; list the Go answer in wfHostileDifferences", c.URL)
		}
		wfCompareResult(t, c.URL, tool, want)
	}
	if d := guard.dials(); len(d) > 0 {
		t.Errorf("hostile URLs dialled %v", d)
	}
}

// wfCompareResult runs url and compares the result with want: the same
// top-level keys in the same order, the same values; a content recorded
// as {"$units", "$tail"} (a long one) is compared in that form.
func wfCompareResult(t *testing.T, url string, tool *tools.Tool, want string) {
	t.Helper()
	res, err := wfFetchRaw(t, tool, url)
	if err != nil {
		t.Errorf("%s: Go error %v", url, err)
		return
	}
	got, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if gk, wk := wfTopKeys(t, got), wfTopKeys(t, []byte(want)); !slices.Equal(gk, wk) {
		t.Errorf("%s: keys %v, want %v", url, gk, wk)
	}
	gv, wv := wfDecode(t, got), wfDecode(t, []byte(want))
	if _, long := wv["content"].(map[string]any); long {
		if c, ok := gv["content"].(string); ok {
			gv["content"] = wfSummarize(c)
		}
	}
	if diff := cmp.Diff(wv, gv); diff != "" {
		t.Errorf("%s (-want +go):\n%s", url, diff)
	}
}

func wfTopKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func wfDecode(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return m
}

func wfSameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	return cmp.Equal(wfDecode(t, a), wfDecode(t, b))
}

func wfJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// wfSummarize gives a content longer than 300 UTF-16 units as capture.mjs
// records it: {"$units": n, "$tail": the last four units}.
func wfSummarize(content string) any {
	units := utf16.Encode([]rune(content))
	if len(units) <= 300 {
		return content
	}
	tail := make([]any, 0, 4)
	for _, u := range units[len(units)-4:] {
		tail = append(tail, json.Number(strconv.Itoa(int(u))))
	}
	return map[string]any{"$units": json.Number(strconv.Itoa(len(units))), "$tail": tail}
}
