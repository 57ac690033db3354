package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// memoryServerDifferences are the memory cases the Go server answers
// differently from real Mastra (the same list as compat's
// memoryCLIDifferences): TestMemoryCommandsAgainstGoServer runs them and
// fails when one comes out the same, so that a stale entry goes.
var memoryServerDifferences = map[string]string{}

type addInput struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOutput struct {
	Sum int `json:"sum"`
}

// memoryTwinApp is compat's memoryApp (the twin of the app the memory
// cases were recorded against: compat/testdata/twin/twin-server.mjs
// memory): memory-agent, which keeps threads, and plain-agent, which keeps
// none, both on the anchor's scripted model (a call of add with
// {"a":2,"b":3}, then "The sum is 5.").
func memoryTwinApp(t *testing.T) *mastra.Mastra {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	add := func() *tools.Tool {
		return tools.New(tools.Config[addInput, addOutput]{
			ID: "add", Description: "Add two integers",
			Execute: func(_ tools.Context, in addInput) (addOutput, error) { return addOutput{Sum: in.A + in.B}, nil },
		})
	}
	scripted := mock.NewFunc(func(req *model.Request) mock.Step {
		step := mock.Step{
			Usage: model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15,
				Raw: json.RawMessage(`{"inputTokens":{"total":10,"noCache":10},"outputTokens":{"total":5,"text":5}}`)},
			Response: &model.ResponseMetadata{ID: "resp-scripted-mock", Timestamp: time.Unix(0, 0).UTC(), ModelID: "scripted-mock"},
		}
		for _, msg := range req.Messages {
			if msg.Role == model.RoleTool {
				step.Text = "The sum is 5."
				return step
			}
		}
		step.ToolCalls = []mock.ToolCall{{ID: "call-1", Name: "add", Args: `{"a":2,"b":3}`}}
		return step
	}).WithID("mock-provider", "scripted-mock")
	newAgent := func(id, description string, memory bool) *agent.Agent {
		cfg := agent.Config{ID: id, Name: id, Description: description, Instructions: "You add numbers using the add tool.",
			Tools: tools.Set{"add": add()}, Model: scripted, Logger: quiet}
		if memory {
			cfg.Storage, cfg.Memory = st, &agent.MemoryOptions{}
		}
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	m := mastra.New(mastra.Config{Logger: quiet})
	for _, err := range []error{
		m.AddAgent(newAgent("memory-agent", "Adds numbers and remembers the conversation.", true), "memoryAgent"),
		m.AddAgent(newAgent("plain-agent", "Adds numbers and keeps no memory.", false), "plainAgent"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

var (
	runTimeKeyRE = regexp.MustCompile(`"([A-Za-z]*[a-z]At)":(\s*)(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"[^"\\]*")`)
	runUUIDRE    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
)

// normalizeRun replaces what changes from run to run in a CLI's output:
// the values of keys ending in "At" (times) and UUIDs (numbered by first
// appearance, so which places share an id is still compared). It is
// compat's normalize, less the cases these outputs do not have.
func normalizeRun(s string) string {
	s = runTimeKeyRE.ReplaceAllString(s, `"$1":$2"<time>"`)
	ids := map[string]string{}
	return runUUIDRE.ReplaceAllStringFunc(s, func(id string) string {
		r, ok := ids[id]
		if !ok {
			r = fmt.Sprintf("<id%d>", len(ids)+1)
			ids[id] = r
		}
		return r
	})
}

// TestMemoryCommandsAgainstGoServer runs the captured thread and memory
// cases (testdata/captured, --url http://127.0.0.1:4700) with this CLI
// against the Go server serving the memory app's twin, in the recorded
// order on one server, and requires what the real CLI printed against
// real Mastra, ids and times aside.
func TestMemoryCommandsAgainstGoServer(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "captured", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]json.RawMessage
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	srv := server.New(memoryTwinApp(t), server.Options{Logger: slog.New(slog.DiscardHandler)})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	ran := 0
	for _, c := range cases {
		var name string
		var args []string
		if json.Unmarshal(c[0], &name) != nil || json.Unmarshal(c[1], &args) != nil {
			t.Fatalf("cases.json: bad case %s", c[0])
		}
		if !strings.HasPrefix(strings.Join(args, " "), "api --url "+memoryHost+" ") {
			continue
		}
		ran++
		for i, a := range args {
			args[i] = strings.Replace(a, memoryHost, ts.URL, 1)
		}
		t.Run(name, func(t *testing.T) {
			want := loadTranscript(t, filepath.Join("testdata", "captured", name+".txt"))
			stdout, stderr, code := runCLI(t, testConfig(t, "", nil), args...)
			stdout = strings.ReplaceAll(stdout, ts.URL, memoryHost)
			stderr = strings.ReplaceAll(stderr, ts.URL, memoryHost)
			same := code == want.code && normalizeRun(stdout) == normalizeRun(want.stdout) &&
				normalizeRun(stderr) == normalizeRun(want.stderr)
			if why, known := memoryServerDifferences[name]; known {
				if same {
					t.Errorf("prints what real Mastra's CLI printed now: take %s out of memoryServerDifferences", name)
				} else {
					t.Logf("differs as known: %s", why)
				}
				return
			}
			diffText(t, "stdout", normalizeRun(stdout), normalizeRun(want.stdout))
			diffText(t, "stderr", normalizeRun(stderr), normalizeRun(want.stderr))
			if code != want.code {
				t.Errorf("exit code %d, want %d", code, want.code)
			}
		})
		// The recorded cases ran seconds apart; two writes in one
		// millisecond would tie in orders by createdAt.
		time.Sleep(2 * time.Millisecond)
	}
	if ran < 40 {
		t.Errorf("only %d captured cases use %s", ran, memoryHost)
	}
	for name := range memoryServerDifferences {
		if !strings.Contains(string(raw), `"`+name+`"`) {
			t.Errorf("memoryServerDifferences names %s, which is no captured case", name)
		}
	}
}
