package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeTaskServer is an MCP server speaking the tasks extension the way the
// specification's wire format has it: a call of "job" from a client that
// declared the extension is answered with a task ("job-1"), whose state
// the test sets; tasks/get reports it, tasks/cancel records the id.
type fakeTaskServer struct {
	mu        sync.Mutex
	status    string          // what tasks/get reports
	result    json.RawMessage // the completed task's result
	failure   *jsonrpc.Error  // the failed task's error
	unknown   bool            // tasks/get answers -32602
	gets      int
	pollMs    int64
	cancelled chan string
	polled    chan struct{} // a tasks/get arrived
}

type fakeCreateTask struct {
	mcp.ResultBase
	ResultType     string `json:"resultType"`
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	CreatedAt      string `json:"createdAt"`
	LastUpdatedAt  string `json:"lastUpdatedAt"`
	TTLMs          int64  `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
}

type fakeDetailed struct {
	fakeCreateTask
	Result json.RawMessage `json:"result,omitempty"`
	Error  *jsonrpc.Error  `json:"error,omitempty"`
}

func newFakeTaskServer() *fakeTaskServer {
	return &fakeTaskServer{status: "working", pollMs: 5, cancelled: make(chan string, 4), polled: make(chan struct{}, 100)}
}

func (f *fakeTaskServer) set(fn func(f *fakeTaskServer)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func (f *fakeTaskServer) envelope() fakeCreateTask {
	now := time.Now().UTC().Format(time.RFC3339)
	return fakeCreateTask{ResultType: "task", TaskID: "job-1", Status: f.status, CreatedAt: now, LastUpdatedAt: now, TTLMs: 60000, PollIntervalMs: f.pollMs}
}

func (f *fakeTaskServer) server(t *testing.T) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "job", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("ran synchronously"), nil
		})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok {
				return next(ctx, method, req)
			}
			caps := call.ClientCapabilities()
			if caps == nil || caps.Extensions[TasksExtension] == nil {
				return next(ctx, method, req)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			env := f.envelope()
			env.Status = "working"
			return &env, nil
		}
	})
	if err := mcp.AddReceivingCustomMethod(srv, "tasks/get", func(_ context.Context, _ *mcp.ServerSession, p *taskIDParams) (*fakeDetailed, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.gets++
		select {
		case f.polled <- struct{}{}:
		default:
		}
		if f.unknown || p.TaskID != "job-1" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown task: " + p.TaskID}
		}
		d := &fakeDetailed{fakeCreateTask: f.envelope()}
		d.ResultType = "complete"
		switch f.status {
		case "completed":
			d.Result = f.result
		case "failed":
			d.Error = f.failure
		}
		return d, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := mcp.AddReceivingCustomMethod(srv, "tasks/cancel", func(_ context.Context, _ *mcp.ServerSession, p *taskIDParams) (*taskAck, error) {
		f.cancelled <- p.TaskID
		f.set(func(f *fakeTaskServer) { f.status = "cancelled" })
		return &taskAck{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	return srv
}

func taskClient(t *testing.T, f *fakeTaskServer, tasks *TasksConfig) *Client {
	sc := inMemory(f.server(t))
	sc.Tasks = tasks
	return newClient(t, Config{Servers: map[string]ServerConfig{"srv": sc}})
}

func TestTaskResultIsTheCallResult(t *testing.T) {
	f := newFakeTaskServer()
	c := taskClient(t, f, &TasksConfig{})
	set := c.ListTools(ctxT(t))
	go func() {
		<-f.polled
		<-f.polled
		f.set(func(f *fakeTaskServer) {
			f.status = "completed"
			f.result = json.RawMessage(`{"content":[{"type":"text","text":"done after a while"}]}`)
		})
	}()
	res, err := executeJSON(t, set["srv_job"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	env, ok := res.Output.(*mcp.CallToolResult)
	if !ok || contentText(env.Content) != "done after a while" {
		t.Fatalf("output = %#v, want the task's result", res.Output)
	}
	if env.Meta[taskMetaKey] != nil {
		t.Errorf("the task envelope leaked into the result: %v", env.Meta)
	}
	f.set(func(f *fakeTaskServer) {
		if f.gets < 3 {
			t.Errorf("tasks/get was called %d times, want at least 3", f.gets)
		}
	})
}

func TestTaskToolErrorIsAToolError(t *testing.T) {
	f := newFakeTaskServer()
	f.status = "completed"
	f.result = json.RawMessage(`{"content":[{"type":"text","text":"disk full"}],"isError":true}`)
	c := taskClient(t, f, &TasksConfig{})
	_, err := executeJSON(t, c.ListTools(ctxT(t))["srv_job"], `{}`)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v, want the tool's error text", err)
	}
}

func TestWithoutTasksConfigTheCallIsSynchronous(t *testing.T) {
	f := newFakeTaskServer()
	c := taskClient(t, f, nil)
	res, err := executeJSON(t, c.ListTools(ctxT(t))["srv_job"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := contentText(res.Output.(*mcp.CallToolResult).Content); got != "ran synchronously" {
		t.Fatalf("result %q, want the synchronous one", got)
	}
}

func TestTaskEndsBadly(t *testing.T) {
	for name, tc := range map[string]struct {
		setup func(f *fakeTaskServer)
		kind  error
		text  string
	}{
		"failed": {func(f *fakeTaskServer) {
			f.status, f.failure = "failed", &jsonrpc.Error{Code: -32603, Message: "worker crashed"}
		}, ErrTaskFailed, `mcpclient: MCP task failed: tool "job" on server "srv" (task job-1): worker crashed (code -32603)`},
		"cancelled":      {func(f *fakeTaskServer) { f.status = "cancelled" }, ErrTaskCancelled, "MCP task was cancelled"},
		"expired":        {func(f *fakeTaskServer) { f.unknown = true }, ErrTaskExpired, "unknown task: job-1"},
		"input_required": {func(f *fakeTaskServer) { f.status = "input_required" }, ErrTaskNeedsInput, "MCP task needs input"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFakeTaskServer()
			f.set(tc.setup)
			c := taskClient(t, f, &TasksConfig{})
			_, err := executeJSON(t, c.ListTools(ctxT(t))["srv_job"], `{}`)
			var te *TaskError
			if !errors.Is(err, tc.kind) || !errors.As(err, &te) || te.TaskID != "job-1" {
				t.Fatalf("err = %v, want a TaskError of %v", err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.text) {
				t.Errorf("err = %q, want it to contain %q", err, tc.text)
			}
		})
	}
}

func TestTaskIsCancelledWithTheCall(t *testing.T) {
	f := newFakeTaskServer()
	c := taskClient(t, f, &TasksConfig{})
	tool := c.ListTools(ctxT(t))["srv_job"]
	ctx, cancel := context.WithCancel(ctxT(t))
	go func() {
		<-f.polled
		cancel()
	}()
	_, err := tool.Execute(ctx, json.RawMessage(`{}`), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	f.wantCancelled(t, "job-1")
}

func TestTaskTimeoutCancelsTheTask(t *testing.T) {
	f := newFakeTaskServer()
	c := taskClient(t, f, &TasksConfig{Timeout: 100 * time.Millisecond})
	_, err := executeJSON(t, c.ListTools(ctxT(t))["srv_job"], `{}`)
	if !errors.Is(err, ErrTaskTimeout) {
		t.Fatalf("err = %v, want ErrTaskTimeout", err)
	}
	f.wantCancelled(t, "job-1")
}

func TestTaskPollInterval(t *testing.T) {
	c := &TasksConfig{PollInterval: 3 * time.Second}
	for _, tc := range []struct {
		serverMs int64
		want     time.Duration
	}{{0, 3 * time.Second}, {250, 250 * time.Millisecond}, {1, minTaskPollInterval}} {
		if got := c.pollInterval(tc.serverMs); got != tc.want {
			t.Errorf("pollInterval(%d) = %v, want %v", tc.serverMs, got, tc.want)
		}
	}
	if got := (&TasksConfig{}).pollInterval(0); got != DefaultTaskPollInterval {
		t.Errorf("default = %v", got)
	}
}

func TestMoveTaskToMetaLeavesOtherResults(t *testing.T) {
	for _, raw := range []string{`{"content":[]}`, `{"resultType":"complete","content":[]}`, `not json`} {
		if got := string(moveTaskToMeta(json.RawMessage(raw))); got != raw {
			t.Errorf("moveTaskToMeta(%s) = %s", raw, got)
		}
	}
	got := moveTaskToMeta(json.RawMessage(`{"resultType":"task","taskId":"t1","status":"working","_meta":{"k":"v"}}`))
	var res mcp.CallToolResult
	if err := json.Unmarshal(got, &res); err != nil {
		t.Fatal(err)
	}
	if task := createdTask(&res); task == nil || task.TaskID != "t1" || res.Meta["k"] != "v" {
		t.Fatalf("rewritten = %s", got)
	}
}

// Over streamable HTTP (event-stream and JSON answers) the call follows
// its task as over other transports.
func TestTaskOverHTTP(t *testing.T) {
	for name, jsonResponse := range map[string]bool{"sse": false, "json": true} {
		t.Run(name, func(t *testing.T) {
			f := newFakeTaskServer()
			srv := f.server(t)
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
				&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
			ts := httptest.NewServer(h)
			t.Cleanup(ts.Close) // after the client's cleanup
			c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {URL: ts.URL, Tasks: &TasksConfig{}}}})
			go func() {
				<-f.polled
				f.set(func(f *fakeTaskServer) {
					f.status = "completed"
					f.result = json.RawMessage(`{"content":[{"type":"text","text":"over http"}]}`)
				})
			}()
			res, err := executeJSON(t, c.ListTools(ctxT(t))["srv_job"], `{}`)
			if err != nil {
				t.Fatal(err)
			}
			if got := contentText(res.Output.(*mcp.CallToolResult).Content); got != "over http" {
				t.Fatalf("result %q, want the task's", got)
			}
		})
	}
}

func TestRewriteEvent(t *testing.T) {
	plain := []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n")
	if got := rewriteEvent(plain, 1<<20); !bytes.Equal(got, plain) {
		t.Errorf("plain event changed: %q", got)
	}
	task := []byte("id: 7\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\n" +
		"data: \"result\":{\"resultType\":\"task\",\"taskId\":\"t9\",\"status\":\"working\"}}\n\n")
	got := rewriteEvent(task, 1<<20)
	if !bytes.HasPrefix(got, []byte("id: 7\nevent: message\ndata: ")) || !bytes.HasSuffix(got, []byte("\n\n")) {
		t.Fatalf("rewritten event %q", got)
	}
	data := bytes.TrimSuffix(bytes.TrimPrefix(got, []byte("id: 7\nevent: message\ndata: ")), []byte("\n\n"))
	var msg struct {
		Result mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		t.Fatal(err)
	}
	if tk := createdTask(&msg.Result); tk == nil || tk.TaskID != "t9" {
		t.Fatalf("rewritten data %s", data)
	}
	if got := rewriteEvent(task, 10); !bytes.Equal(got, task) {
		t.Errorf("an event over the limit was rewritten")
	}
}

// wantCancelled waits for the client's tasks/cancel and checks its task id.
func (f *fakeTaskServer) wantCancelled(t *testing.T, id string) {
	t.Helper()
	select {
	case got := <-f.cancelled:
		if got != id {
			t.Errorf("cancelled %q, want %s", got, id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tasks/cancel was never sent")
	}
}
