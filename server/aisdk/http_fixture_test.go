package aisdk

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/server"
)

// httpFixture is a recording of testdata/capture/capture.mjs: one request
// to the real chatRoute, its exact response, and the prompts the scripted
// models received.
type httpFixture struct {
	Note    string `json:"note"`
	Request struct {
		Method string          `json:"method"`
		Path   string          `json:"path"`
		Body   json.RawMessage `json:"body"`
	} `json:"request"`
	Response struct {
		Status  int               `json:"status"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	} `json:"response"`
	Prompts map[string][][]json.RawMessage `json:"prompts"`
}

func loadHTTPFixture(t *testing.T, name string) httpFixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "http", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f httpFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

// requestBody is the fixture's request body: a JSON value, or a string
// holding a body that is not JSON.
func (f httpFixture) requestBody() []byte {
	var s string
	if json.Unmarshal(f.Request.Body, &s) == nil {
		return []byte(s)
	}
	return f.Request.Body
}

var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// sseFrames splits an SSE body into its data frames.
func sseFrames(body string) []string {
	var out []string
	for _, f := range strings.Split(body, "\n\n") {
		if d, ok := strings.CutPrefix(f, "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

// normaliseIDs replaces the generated ids (UUIDs) of frames by <id-N>, N
// counting first appearances, and returns them in that order.
func normaliseIDs(frames []string) ([]string, []string) {
	index := map[string]int{}
	var order []string
	out := make([]string, len(frames))
	for i, f := range frames {
		out[i] = uuidPattern.ReplaceAllStringFunc(f, func(id string) string {
			n, ok := index[id]
			if !ok {
				n = len(order)
				index[id] = n
				order = append(order, id)
			}
			return "<id-" + string(rune('0'+n%10)) + ">"
		})
	}
	return out, order
}

// agentDetails blanks, in both streams, what the parts carry verbatim
// from the agent's own chunks where gomastra's agent differs from Mastra's
// (the converter's fixtures show those values pass through unchanged):
//
//   - errorText of tool-output-error and error parts: Mastra serialises
//     its MastraError objects ({"name","cause","id","domain",...}),
//     gomastra's agent reports {"message"}-shaped errors;
//   - resumeSchema texts: Mastra's approval schema is its Zod schema with
//     descriptions, gomastra's the plain JSON Schema of {approved, reason};
//     a tool's resume schema comes back from gomastra's schema package
//     with its keys in another order;
//   - subAgentResourceId: without memory Mastra makes up an id, gomastra
//     derives "<parent agent>-<key>" (both give the sub-agent a
//     resource of its own).
var agentDetails = []*regexp.Regexp{
	regexp.MustCompile(`"errorText":"(?:[^"\\]|\\.)*"`),
	regexp.MustCompile(`"resumeSchema":"(?:[^"\\]|\\.)*"`),
	regexp.MustCompile(`"subAgentResourceId":"(?:[^"\\]|\\.)*"`),
}

func blankAgentDetails(frames []string) []string {
	out := make([]string, len(frames))
	for i, f := range frames {
		for _, re := range agentDetails {
			f = re.ReplaceAllStringFunc(f, func(m string) string { return m[:strings.Index(m, ":")] + `:"<agent>"` })
		}
		out[i] = f
	}
	return out
}

// knownAgentDifferences adjust Mastra's frames (want) or ours (got) where
// gomastra's agent emits other chunks, scenario by scenario:
//
//   - model-error: Mastra's agent closes the failed step with a
//     step-finish chunk (a finish-step part) before the run's finish;
//     gomastra's ends the run with the error and the finish only.
//   - sub-agent: gomastra's agent-<key> result also carries the
//     sub-agent's finishReason and usage (as Mastra's runtime result
//     does); Mastra's output schema drops them from the result it
//     reports.
var knownAgentDifferences = map[string]func(want, got []string) ([]string, []string){
	"model-error": func(want, got []string) ([]string, []string) {
		var out []string
		for i, f := range want {
			if f == `{"type":"finish-step"}` && i > 0 && strings.HasPrefix(want[i-1], `{"type":"error"`) {
				continue
			}
			out = append(out, f)
		}
		return out, got
	},
	"sub-agent": func(want, got []string) ([]string, []string) {
		re := regexp.MustCompile(`,"finishReason":"stop","usage":\{"inputTokens":20,"outputTokens":10,"totalTokens":30\}`)
		out := make([]string, len(got))
		for i, f := range got {
			out[i] = re.ReplaceAllString(f, "")
		}
		return want, out
	},
}

// TestChatRouteMatchesMastra replays the recorded chatRoute requests
// against ChatRoute on the Go twin of the capture's application, and
// compares status, headers and the UI message stream frame by frame
// (generated ids normalised). Requests that resume a recorded run get the
// ids of the Go run instead.
func TestChatRouteMatchesMastra(t *testing.T) {
	m := newTestApp(t)
	ts, client := startServer(t, m, server.Options{Routes: testRoutes(m)})
	paths, err := filepath.Glob("testdata/http/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	// By name, so that "approval" comes before "approval-resume".
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = strings.TrimSuffix(filepath.Base(p), ".json")
	}
	slices.Sort(names)
	ids := map[string]string{} // Mastra's generated ids -> ours
	replayed := 0
	for _, name := range names {
		if strings.HasPrefix(name, "error-") {
			continue // the bad-input answers differ on purpose; see TestChatRouteRejectsBadInput
		}
		f := loadHTTPFixture(t, name)
		body := f.requestBody()
		for mastraID, ourID := range ids {
			body = bytes.ReplaceAll(body, []byte(mastraID), []byte(ourID))
		}
		res, err := client.Post(ts.URL+f.Request.Path, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		replayed++
		t.Run(name, func(t *testing.T) {
			if res.StatusCode == 200 {
				dumpStream(t, got)
			}
			if res.StatusCode != f.Response.Status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, f.Response.Status, got)
			}
			for k, want := range f.Response.Headers {
				if k == "transfer-encoding" {
					if len(res.TransferEncoding) == 0 || res.TransferEncoding[0] != want {
						t.Errorf("transfer encoding %v, want %s", res.TransferEncoding, want)
					}
					continue
				}
				if g := res.Header.Get(k); g != want {
					t.Errorf("header %s: %q, want %q", k, g, want)
				}
			}
			if !strings.HasSuffix(string(got), "data: [DONE]\n\n") {
				t.Errorf("the stream does not end with [DONE]: %q", got)
			}
			wantFrames, mastraIDs := normaliseIDs(sseFrames(f.Response.Body))
			gotFrames, ourIDs := normaliseIDs(sseFrames(string(got)))
			if fix := knownAgentDifferences[name]; fix != nil {
				wantFrames, gotFrames = fix(wantFrames, gotFrames)
			}
			if diff := cmp.Diff(blankAgentDetails(wantFrames), blankAgentDetails(gotFrames)); diff != "" {
				t.Fatalf("frames differ from Mastra's (-mastra +ours):\n%s", diff)
			}
			for i := range min(len(mastraIDs), len(ourIDs)) {
				ids[mastraIDs[i]] = ourIDs[i]
			}
		})
	}
	if replayed < 10 {
		t.Errorf("replayed %d recordings; the capture holds more", replayed)
	}
}
