package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// specDir holds the traffic recorded from Mastra 1.71 (a copy of
// spec/http's .http files).
const specDir = "testdata/mastra"

// sharedSpecDir is the shared spec folder, for the large recorded files
// not copied here (system-api-schema.json).
const sharedSpecDir = "../../shared/spec/http"

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

// addTool is the anchor's add tool ({a, b} → {sum}).
func addTool() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers",
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }})
}

// mastraRaw is the usage record the anchor's scripted model reported.
var mastraRaw = map[string]any{
	"inputTokens":  map[string]any{"total": 10, "noCache": 10},
	"outputTokens": map[string]any{"total": 5, "text": 5},
}

// scripted is the anchor's scripted model (anchor-mastra/lib/mock-model.mjs):
// stateless, it counts the tool results already in the prompt; while
// fewer than toolSteps it calls toolName with args, then it answers
// finalText. One instance serves any number of concurrent runs.
type scripted struct {
	toolSteps int
	toolName  string
	args      string
	finalText string
	// partDelay slows the answer down (for cancellation tests).
	partDelay time.Duration
}

func newScripted() *scripted {
	return &scripted{toolSteps: 1, toolName: "add", args: `{"a":2,"b":3}`, finalText: "The sum is 5."}
}

func (m *scripted) Provider() string { return "mock-provider" }
func (m *scripted) ModelID() string  { return "scripted-mock" }

func (m *scripted) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	done := 0
	for _, msg := range req.Messages {
		if msg.Role == model.RoleTool {
			for _, p := range msg.Content {
				if p.Type == model.MessageToolResult {
					done++
				}
			}
		}
	}
	resp := &model.ResponseMetadata{ID: "resp-scripted-mock", Timestamp: time.Unix(0, 0).UTC(), ModelID: "scripted-mock"}
	usage := model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15, Raw: mastraRaw}
	step := mock.Step{Usage: usage, Response: resp, PartDelay: m.partDelay}
	if done < m.toolSteps {
		step.ToolCalls = []mock.ToolCall{{ID: "call-" + strconv.Itoa(done+1), Name: m.toolName, Args: m.args}}
	} else {
		step.Text = m.finalText
	}
	return mock.New(step).WithID(m.Provider(), m.ModelID()).Stream(ctx, req)
}

var quiet = slog.New(slog.DiscardHandler)

// fixture is the anchor's server: the add tool and calc-agent, plus
// whatever a test adds.
type fixture struct {
	m     *mastra.Mastra
	store storage.Store
	model *scripted
	srv   *Server
	ts    *httptest.Server
}

type fixtureOpt func(*fixtureConfig)

type fixtureConfig struct {
	modelCfg func(*scripted)
	agentCfg func(*agent.Config)
	mcfg     func(*mastra.Config)
	opts     Options
}

// withModel changes the scripted model before the server starts.
func withModel(f func(*scripted)) fixtureOpt {
	return func(c *fixtureConfig) { c.modelCfg = f }
}

func withAgent(f func(*agent.Config)) fixtureOpt {
	return func(c *fixtureConfig) { c.agentCfg = f }
}

func withRegistry(f func(*mastra.Config)) fixtureOpt {
	return func(c *fixtureConfig) { c.mcfg = f }
}

func withOptions(o Options) fixtureOpt { return func(c *fixtureConfig) { c.opts = o } }

func newFixture(t testing.TB, opts ...fixtureOpt) *fixture {
	t.Helper()
	var cfg fixtureConfig
	for _, o := range opts {
		o(&cfg)
	}
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	sm := newScripted()
	if cfg.modelCfg != nil {
		cfg.modelCfg(sm)
	}
	acfg := agent.Config{
		ID: "calc-agent", Name: "calc-agent",
		Description:  "Adds numbers with the add tool (mock model).",
		Instructions: "You add numbers using the add tool.",
		Model:        sm, Tools: tools.Set{"add": addTool()},
		Storage: st, Memory: &agent.MemoryOptions{}, Logger: quiet,
	}
	if cfg.agentCfg != nil {
		cfg.agentCfg(&acfg)
	}
	a, err := agent.New(acfg)
	if err != nil {
		t.Fatal(err)
	}
	mcfg := mastra.Config{Tools: map[string]*tools.Tool{"add": addTool()}, Agents: map[string]*agent.Agent{"calcAgent": a}, Logger: quiet}
	if cfg.mcfg != nil {
		cfg.mcfg(&mcfg)
	}
	m := mastra.New(mcfg)
	o := cfg.opts
	if o.Logger == nil {
		o.Logger = quiet
	}
	srv := New(m, o)
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return &fixture{m: m, store: st, model: sm, srv: srv, ts: ts}
}

// do sends a request and returns the response with its body read.
func (f *fixture) do(t testing.TB, method, path, body string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// recording is one recorded exchange (spec/http/*/*.http).
type recording struct {
	name        string
	method      string
	target      string
	reqHeaders  http.Header
	reqBody     []byte
	status      int
	respHeaders http.Header
	respBody    []byte
}

func readRecording(t testing.TB, path string) *recording {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	reqPart, respPart, ok := strings.Cut(text, "\n### response\n")
	if !ok {
		t.Fatalf("%s: no response section", path)
	}
	if i := strings.Index(respPart, "\n### SSE frames as received"); i >= 0 {
		respPart = respPart[:i+1]
	}
	rec := &recording{name: filepath.Base(path)}
	parse := func(part string) (first string, h http.Header, body []byte) {
		br := bufio.NewReader(strings.NewReader(part))
		line, _ := br.ReadString('\n')
		first = strings.TrimSpace(line)
		h = http.Header{}
		for {
			line, err := br.ReadString('\n')
			line = strings.TrimRight(line, "\r\n")
			if line == "" || err != nil {
				break
			}
			k, v, _ := strings.Cut(line, ": ")
			h.Add(k, v)
		}
		rest, _ := io.ReadAll(br)
		return first, h, rest
	}
	first, h, body := parse(reqPart)
	f := strings.Fields(first)
	rec.method, rec.target, rec.reqHeaders = f[0], f[1], h
	rec.reqBody = bytes.TrimSpace(body)
	first, h, body = parse(respPart)
	rec.status, _ = strconv.Atoi(strings.Fields(first)[1])
	rec.respHeaders, rec.respBody = h, body
	return rec
}

// compactJSON renders a recorded (pretty-printed) JSON body as
// JSON.stringify sends it.
func compactJSON(t testing.TB, b []byte) []byte {
	t.Helper()
	s, err := jsjson.Stringify(bytes.TrimSpace(b), "")
	if err != nil {
		t.Fatalf("recorded body is not JSON: %v\n%s", err, b)
	}
	return []byte(s)
}

func decodeJSON(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

// readFrames splits an SSE body into its data payloads ([DONE] included).
func readFrames(t testing.TB, body []byte) []string {
	t.Helper()
	var out []string
	for _, ev := range strings.Split(string(body), "\n\n") {
		if ev == "" {
			continue
		}
		d, ok := strings.CutPrefix(ev, "data: ")
		if !ok {
			t.Fatalf("frame without data: %q", ev)
		}
		out = append(out, d)
	}
	return out
}

// sseChunks reads the chunks of an SSE stream as a client does.
func sseChunks(t testing.TB, body []byte) []stream.Chunk {
	t.Helper()
	var out []stream.Chunk
	for c, err := range stream.ReadSSE(bytes.NewReader(body)) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func chunkTypes(cs []stream.Chunk) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Type
	}
	return out
}

// errorBody decodes {"error": ...}.
func errorBody(t testing.TB, b []byte) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("not an error body: %s", b)
	}
	return e.Error
}

var errBoom = errors.New("boom")
