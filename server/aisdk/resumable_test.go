package aisdk

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

const gatedAnswer = "The gate opened, all done."

// gatedApp is a registry with one agent, "gated-agent", that calls the
// tool "wait", which returns once release is closed (or fails with its
// context's error), then answers gatedAnswer. st is its storage (nil:
// none).
func gatedApp(t *testing.T, st storage.Store) (m *mastra.Mastra, release chan struct{}) {
	t.Helper()
	release = make(chan struct{})
	wait := tools.New(tools.Config[struct{}, string]{ID: "wait", Description: "waits for the gate",
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			select {
			case <-release:
				return "opened", nil
			case <-ctx.Done():
				return "", context.Cause(ctx)
			}
		}})
	a, err := agent.New(agent.Config{ID: "gated-agent", Storage: st, Tools: tools.Set{"wait": wait},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			if hasToolResult(req) {
				return mock.Step{Text: gatedAnswer}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-wait", Name: "wait", Args: `{}`}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	return mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"gated": a}}), release
}

func sqliteStore(t *testing.T) storage.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// postUntil posts body and reads the SSE answer until a frame of type
// until, then drops the connection, as a reloading page does.
func postUntil(t *testing.T, client *http.Client, url, body, until string, header ...string) (read string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("POST: %d %s", res.StatusCode, b)
	}
	var got strings.Builder
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		got.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), `"type":"`+until+`"`) {
			return got.String()
		}
	}
	t.Fatalf("the stream ended before a %s part: %v", until, sc.Err())
	return ""
}

// getStream sends a GET and returns its status, body and frames (as post).
func getStream(t *testing.T, client *http.Client, url string, header ...string) (int, string, []map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var frames []map[string]any
	for _, f := range sseFrames(string(b)) {
		if f != "[DONE]" {
			frames = append(frames, decodeFrame(t, f))
		}
	}
	return res.StatusCode, string(b), frames
}

// reconnect opens GET url, reads the replay up to a part of type until
// while the run still waits, then calls then (which lets the run go on)
// and reads the rest: it returns the status and the whole body's frames.
func reconnect(t *testing.T, client *http.Client, url, until string, then func(), header ...string) (int, string, []map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body strings.Builder
	r := bufio.NewReader(res.Body)
	for res.StatusCode == http.StatusOK {
		line, err := r.ReadString('\n')
		body.WriteString(line)
		if err != nil {
			t.Fatalf("the replay ended before a %s part: %v", until, err)
		}
		if strings.Contains(line, `"type":"`+until+`"`) {
			break
		}
	}
	then()
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	body.Write(rest)
	var frames []map[string]any
	for _, f := range sseFrames(body.String()) {
		if f != "[DONE]" {
			frames = append(frames, decodeFrame(t, f))
		}
	}
	return res.StatusCode, body.String(), frames
}

// TestResumableChatReconnectAfterDisconnect: the client drops the POST
// while the run's tool waits; the run goes on, and GET
// <route>/<chatId>/stream streams the whole answer once, from its start:
// the parts the POST sent, then the rest, each once, then [DONE]. Once
// the run has ended the chat has no active stream (204).
func TestResumableChatReconnectAfterDisconnect(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   func(*testing.T) storage.Store
	}{{"sqlite", sqliteStore}, {"no storage", func(*testing.T) storage.Store { return nil }}} {
		t.Run(tc.name, func(t *testing.T) {
			m, release := gatedApp(t, tc.st(t))
			ts, client := startServer(t, m, server.Options{Routes: ChatRoutes(m, ChatRouteOptions{Resumable: true})})
			body := `{"id":"chat-9","trigger":"submit-message","messages":[{"id":"msg-1","role":"user","parts":[{"type":"text","text":"wait for it"}]}],"memory":{"thread":"thread-9","resource":"user-1"}}`
			sent := postUntil(t, client, ts.URL+"/chat/gated-agent", body, PartToolInputAvailable)
			status, b, frames := reconnect(t, client, ts.URL+"/chat/gated-agent/chat-9/stream", PartToolInputAvailable, func() { close(release) })
			if status != http.StatusOK || !strings.HasSuffix(b, "data: [DONE]\n\n") {
				t.Fatalf("reconnect: %d %s", status, b)
			}
			if !strings.HasPrefix(b, sent) {
				t.Errorf("the reconnect does not start with the bytes the POST sent:\n%s\nPOST:\n%s", b, sent)
			}
			var types []string
			text := ""
			for _, f := range frames {
				types = append(types, f["type"].(string))
				if f["type"] == PartTextDelta {
					text += f["delta"].(string)
				}
			}
			want := "start start-step tool-input-start tool-input-delta tool-input-available tool-output-available finish-step " +
				"start-step text-start text-delta text-delta text-delta text-delta text-delta text-end finish-step finish"
			if got := strings.Join(types, " "); got != want {
				t.Errorf("parts:\n got %s\nwant %s", got, want)
			}
			if text != gatedAnswer {
				t.Errorf("text = %q", text)
			}
			if out := ofType(frames, PartToolOutputAvailable); len(out) != 1 || out[0]["output"] != "opened" {
				t.Errorf("tool outputs %v: the run did not go on after the disconnect", out)
			}
			waitNoContent(t, client, ts.URL+"/chat/gated-agent/chat-9/stream")
		})
	}
}

// waitNoContent waits until GET url answers 204 (the chat's run ended
// and was forgotten).
func waitNoContent(t *testing.T, client *http.Client, url string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, b, _ := getStream(t, client, url)
		if status == http.StatusNoContent && b == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the run: %d %s, want 204", status, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestResumableChatNoActiveRun: a chat that never ran, and an unknown
// agent.
func TestResumableChatNoActiveRun(t *testing.T) {
	m, _ := gatedApp(t, sqliteStore(t))
	ts, client := startServer(t, m, server.Options{Routes: ChatRoutes(m, ChatRouteOptions{Resumable: true})})
	if status, b, _ := getStream(t, client, ts.URL+"/chat/gated-agent/never/stream"); status != http.StatusNoContent || b != "" {
		t.Errorf("unknown chat: %d %q", status, b)
	}
	if status, b, _ := getStream(t, client, ts.URL+"/chat/nope/chat-1/stream"); status != http.StatusNotFound || !strings.Contains(b, "Agent with id nope not found") {
		t.Errorf("unknown agent: %d %s", status, b)
	}
	if routes := ChatRoutes(m, ChatRouteOptions{}); len(routes) != 1 {
		t.Errorf("without Resumable: %d routes", len(routes))
	}
}

// TestResumableChatRefusesOtherResources: with authentication, only the
// resource that started the chat's run reconnects to it.
func TestResumableChatRefusesOtherResources(t *testing.T) {
	m, release := gatedApp(t, sqliteStore(t))
	auth := func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }
	ts, client := startServer(t, m, server.Options{Routes: ChatRoutes(m, ChatRouteOptions{Resumable: true}), Auth: auth})
	body := `{"id":"chat-a","messages":[{"id":"msg-1","role":"user","parts":[{"type":"text","text":"wait"}]}],"memory":{"thread":"thread-a"}}`
	postUntil(t, client, ts.URL+"/chat/gated-agent", body, PartToolInputAvailable, "X-User", "alice")
	url := ts.URL + "/chat/gated-agent/chat-a/stream"
	status, b, _ := getStream(t, client, url, "X-User", "mallory")
	if status != http.StatusForbidden || !strings.Contains(b, "thread belongs to a different resource") {
		t.Errorf("mallory: %d %s", status, b)
	}
	status, b, frames := reconnect(t, client, url, PartToolInputAvailable, func() { close(release) }, "X-User", "alice")
	if status != http.StatusOK || len(ofType(frames, PartFinish)) != 1 {
		t.Errorf("alice: %d %s", status, b)
	}
	waitNoContent(t, client, url)
}

func decodeFrame(t *testing.T, f string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(f), &m); err != nil {
		t.Fatalf("frame %q: %v", f, err)
	}
	return m
}

// TestResumableChatReconnectOnAnotherServer: two servers over one store
// stand for two replicas: the chat's answer started on the first is
// found and followed through the second (the chat's active run is kept
// in the store, and so is the run's event log).
func TestResumableChatReconnectOnAnotherServer(t *testing.T) {
	st := sqliteStore(t)
	first, release := gatedApp(t, st)
	second, _ := gatedApp(t, st)
	tsA, client := startServer(t, first, server.Options{Routes: ChatRoutes(first, ChatRouteOptions{Resumable: true})})
	tsB, _ := startServer(t, second, server.Options{Routes: ChatRoutes(second, ChatRouteOptions{Resumable: true})})
	body := `{"id":"chat-r","messages":[{"id":"msg-1","role":"user","parts":[{"type":"text","text":"wait"}]}],"memory":{"thread":"thread-r","resource":"user-1"}}`
	sent := postUntil(t, client, tsA.URL+"/chat/gated-agent", body, PartToolInputAvailable)
	url := tsB.URL + "/chat/gated-agent/chat-r/stream"
	status, b, frames := reconnect(t, client, url, PartToolInputAvailable, func() { close(release) })
	if status != http.StatusOK || !strings.HasPrefix(b, sent) || !strings.HasSuffix(b, "data: [DONE]\n\n") {
		t.Fatalf("reconnect on the other server: %d %s", status, b)
	}
	if f := ofType(frames, PartFinish); len(f) != 1 || f[0]["finishReason"] != "stop" {
		t.Errorf("finish parts %v", f)
	}
	waitNoContent(t, client, url)
}

// TestResumableWithAISDKClient drives the resumable route with the AI
// SDK's own client (testdata/resume/resume.mjs): 204 before any message,
// a send it drops after the tool's input, a reconnect through
// DefaultChatTransport's own URL that reads the whole answer into one
// message (its text once), and 204 once the run is over. It needs Node
// and the `ai` package (6.x): AISDK_NODE_MODULES is a node_modules
// directory holding it (e.g. a set-up copy of the Mastra anchor's); it
// skips without. Node opens connections, so run the test inside a
// loopback-only namespace:
//
//	go test -c -o /tmp/aisdk.test ./server/aisdk/
//	AISDK_NODE_MODULES=/path/node_modules /work/shared/netns.sh -- /tmp/aisdk.test -test.run TestResumableWithAISDKClient
func TestResumableWithAISDKClient(t *testing.T) {
	modules := os.Getenv("AISDK_NODE_MODULES")
	if modules == "" {
		t.Skip("set AISDK_NODE_MODULES to a node_modules with the ai package")
	}
	dir := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("testdata/resume/resume.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "resume.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	m, release := gatedApp(t, sqliteStore(t))
	srv := server.New(m, server.Options{Routes: ChatRoutes(m, ChatRouteOptions{Resumable: true})})
	var once sync.Once
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w = &releaseOnWrite{ResponseWriter: w, release: func() { once.Do(func() { close(release) }) }}
		}
		srv.ServeHTTP(w, r)
	}))
	defer func() { ts.Close(); _ = srv.Shutdown(context.Background()) }()
	defer once.Do(func() { close(release) })

	cmd := exec.Command("node", "resume.mjs", ts.URL)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Before, AfterEnd bool
		Sent             []string
		Message          UIMessage
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node said %s: %v", out, err)
	}
	text := ""
	for _, p := range got.Message.Parts {
		if p.Type == "text" {
			text += p.Text
		}
	}
	if !got.Before || !got.AfterEnd || text != gatedAnswer || got.Message.Role != "assistant" {
		t.Errorf("the AI SDK client saw %s", out)
	}
}

// releaseOnWrite calls release once a GET's answer begins (the
// reconnect has found the run): the run may then go on.
type releaseOnWrite struct {
	http.ResponseWriter
	release func()
}

func (w *releaseOnWrite) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.release()
	return n, err
}

func (w *releaseOnWrite) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *releaseOnWrite) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// approvalApp is gatedApp's agent with its tool behind an approval:
// "approving-agent". started gets a value when the tool begins, and
// opened is closed when it returns after the gate opened.
func approvalApp(t *testing.T) (m *mastra.Mastra, release, opened chan struct{}, started chan struct{}) {
	t.Helper()
	release, opened, started = make(chan struct{}), make(chan struct{}), make(chan struct{}, 1)
	wait := tools.New(tools.Config[struct{}, string]{ID: "wait", Description: "waits for the gate", RequireApproval: true,
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			started <- struct{}{}
			select {
			case <-release:
				close(opened)
				return "opened", nil
			case <-ctx.Done():
				return "", context.Cause(ctx)
			}
		}})
	a, err := agent.New(agent.Config{ID: "approving-agent", Storage: sqliteStore(t), Tools: tools.Set{"wait": wait},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			if hasToolResult(req) {
				return mock.Step{Text: gatedAnswer}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-wait", Name: "wait", Args: `{}`}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	return mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"approving": a}}), release, opened, started
}

// TestResumableChatResumeOutlivesItsRequest: on a resumable route an
// approval's continuation is detached too: its client goes away while
// the approved tool runs, and the tool still finishes (its context is
// not cancelled).
func TestResumableChatResumeOutlivesItsRequest(t *testing.T) {
	m, release, opened, started := approvalApp(t)
	ts, client := startServer(t, m, server.Options{Routes: ChatRoutes(m, ChatRouteOptions{Resumable: true})})
	url := ts.URL + "/chat/approving-agent"
	_, body, frames := post(t, client, url, userChat("wait", ""))
	ap := ofType(frames, PartToolCallApproval)
	if len(ap) != 1 {
		t.Fatalf("approval parts in %s", body)
	}
	runID := ap[0]["data"].(map[string]any)["runId"].(string)

	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(userChat("ok", `,"runId":"`+runID+`","resumeData":{"approved":true}`)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if res, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the approved tool did not start")
	}
	cancel() // the client goes away while the tool runs
	<-done
	close(release)
	select {
	case <-opened:
	case <-time.After(10 * time.Second):
		t.Fatal("the approved tool did not finish after its client went away")
	}
}
