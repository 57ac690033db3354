package temporal_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// serveApp is the app of the serve test: "banker", whose transfer tool
// needs an approval; its model calls and tool runs count in calls.
func serveApp(calls *atomic.Int64) serve.Build {
	return func(_ context.Context, env serve.Env) (*mastra.Mastra, error) {
		transfer := tools.New(tools.Config[struct{}, string]{ID: "transfer", Description: "Moves money.", RequireApproval: true,
			Execute: func(tools.Context, struct{}) (string, error) {
				calls.Add(1)
				return "moved", nil
			}})
		m := mock.NewFunc(func(req *model.Request) mock.Step {
			calls.Add(1)
			for _, msg := range req.Messages {
				if msg.Role == model.RoleTool {
					return mock.Step{Text: "Transferred."}
				}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "t1", Name: "transfer", Args: `{}`}}}
		})
		a, err := agent.New(agent.Config{ID: "banker", Name: "Banker", Instructions: "Move money.", Model: m,
			Tools: tools.Set{"transfer": transfer}, Storage: env.Storage})
		if err != nil {
			return nil, err
		}
		return mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"banker": a},
			Workflows: map[string]*workflows.Workflow{"signing": signingWorkflow(env.Storage, calls)}}), nil
	}
}

type document struct {
	Title string `json:"title"`
}

type signature struct {
	By string `json:"by"`
}

// signingWorkflow checks a document, then waits for a signature; its
// steps' runs count in calls.
func signingWorkflow(store storage.Runs, calls *atomic.Int64) *workflows.Workflow {
	check := workflows.NewStep(workflows.StepConfig[document, document]{ID: "check", Execute: func(_ workflows.StepContext, d document) (document, error) {
		calls.Add(1)
		return d, nil
	}})
	sign := workflows.NewStep(workflows.StepConfig[document, signature]{ID: "sign", ResumeSchema: workflows.MustSchemaFor[signature](),
		Execute: func(ctx workflows.StepContext, d document) (signature, error) {
			calls.Add(1)
			var s signature
			if data := ctx.ResumeData(); data != nil {
				err := json.Unmarshal(data, &s)
				return s, err
			}
			return s, ctx.Suspend(map[string]string{"sign": d.Title})
		}})
	w := workflows.New(workflows.Config{ID: "signing", Storage: store}).Then(check).Then(sign)
	if err := w.Commit(); err != nil {
		panic(err)
	}
	return w
}

// TestServeOnTemporal serves an app whose engine is Temporal and runs
// its worker as `myapp worker` would (serve.RunMode), each with its own
// registry on one SQLite file: a run started over HTTP waits for its
// approval, the approval over HTTP finishes it on the worker.
func TestServeOnTemporal(t *testing.T) {
	ts := newServer(t)
	// The worker's registry makes every call; the server's none.
	var onServer, onWorker atomic.Int64
	cfg := serve.Config{Host: "127.0.0.1", Port: "0", NoStudio: true, StorageURL: filepath.Join(t.TempDir(), "mastra.db"),
		Engine: fmt.Sprintf("temporal://%s/%s?taskQueue=serve-test", ts.GetFrontendHostPort(), ts.GetDefaultNamespace())}
	temporal.ServeOption(temporal.Options{})(&cfg)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	getenv := func(string) string { return "" }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	workerDone := make(chan error, 1)
	workerCfg := cfg
	go func() {
		workerDone <- serve.RunMode(ctx, workerCfg, getenv, log, serveApp(&onWorker), workerCfg.Extensions[0], nil, nil)
	}()
	addr := make(chan string, 1)
	cfg.Ready = func(a string) { addr <- a }
	serverDone := make(chan error, 1)
	go func() { serverDone <- serve.Run(ctx, cfg, getenv, log, serveApp(&onServer)) }()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-serverDone:
		t.Fatalf("server: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the server did not start")
	}

	first := sse(t, base+"/api/agents/banker/stream", `{"messages":"Move 10."}`)
	last := first[len(first)-1]
	if last["type"] != "tool-call-approval" || onWorker.Load() != 1 {
		t.Fatalf("the stream ends with %v (%d calls on the worker), want the approval request after one model call", last["type"], onWorker.Load())
	}
	runID := last["runId"].(string)
	rest := sse(t, base+"/api/agents/banker/approve-tool-call", fmt.Sprintf(`{"runId":%q,"toolCallId":"t1"}`, runID))
	var got []string
	for _, c := range rest {
		got = append(got, c["type"].(string))
	}
	if !strings.Contains(strings.Join(got, " "), "tool-result") || got[len(got)-1] != "finish" {
		t.Fatalf("after the approval: %v", got)
	}
	if onWorker.Load() != 3 || onServer.Load() != 0 {
		t.Errorf("calls: %d on the worker (want 3: model, tool, model), %d on the server (want 0)", onWorker.Load(), onServer.Load())
	}

	// A workflow run over Mastra's workflow routes: started, suspended,
	// resumed; its steps run on the worker.
	wfRun := postJSON(t, base+"/api/workflows/signing/create-run", `{}`)["runId"].(string)
	started := postJSON(t, base+"/api/workflows/signing/start-async?runId="+wfRun, `{"inputData":{"title":"lease"}}`)
	if started["status"] != "suspended" {
		t.Fatalf("start-async: %v", started)
	}
	done := postJSON(t, base+"/api/workflows/signing/resume-async?runId="+wfRun, `{"step":"sign","resumeData":{"by":"Ada"}}`)
	if done["status"] != "success" || fmt.Sprint(done["result"]) != "map[by:Ada]" {
		t.Fatalf("resume-async: %v", done)
	}
	if onWorker.Load() != 6 || onServer.Load() != 0 {
		t.Errorf("calls: %d on the worker (want 6: and check, sign, sign), %d on the server (want 0)", onWorker.Load(), onServer.Load())
	}
	cancel()
	if err := <-serverDone; err != nil {
		t.Errorf("server: %v", err)
	}
	if err := <-workerDone; err != nil {
		t.Errorf("worker: %v", err)
	}
}

// sse posts body to url and returns the chunks of the SSE answer.
func sse(t *testing.T, url, body string) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("%s: %s %s", url, res.Status, b)
	}
	var chunks []map[string]any
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c map[string]any
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		chunks = append(chunks, c)
	}
	return chunks
}

// postJSON posts body to url and decodes the JSON answer.
func postJSON(t *testing.T, url, body string) map[string]any {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("%s: %s %s", url, res.Status, b)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %s: %v", url, b, err)
	}
	return v
}
