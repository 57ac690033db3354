package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// rawClient speaks JSON-RPC to a server over an in-memory transport, so
// that tests see the wire shapes the SDK's client would decode away.
type rawClient struct {
	t    *testing.T
	conn mcp.Connection
	id   int64
}

// rawConnect initializes a session with the given client capabilities.
func rawConnect(t *testing.T, s *Server, caps map[string]any) *rawClient {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCPServer().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	conn, err := ct.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	c := &rawClient{t: t, conn: conn}
	var init struct {
		Capabilities struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"capabilities"`
	}
	c.mustCall("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps,
		"clientInfo": map[string]any{"name": "raw", "version": "1"}}, &init)
	if _, ok := init.Capabilities.Extensions[TasksExtension]; !ok {
		t.Fatalf("server capabilities lack %s: %+v", TasksExtension, init.Capabilities)
	}
	if err := conn.Write(context.Background(), &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	return c
}

var withTasks = map[string]any{"extensions": map[string]any{TasksExtension: map[string]any{}}}

// call sends a request and returns its result or its error.
func (c *rawClient) call(method string, params any) (json.RawMessage, *jsonrpc.Error) {
	c.t.Helper()
	c.id++
	id, _ := jsonrpc.MakeID(float64(c.id))
	raw, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: raw}); err != nil {
		c.t.Fatal(err)
	}
	for {
		msg, err := c.conn.Read(ctx)
		if err != nil {
			c.t.Fatalf("%s: %v", method, err)
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok || resp.ID != id {
			continue
		}
		if resp.Error != nil {
			var wire *jsonrpc.Error
			if errors.As(resp.Error, &wire) {
				return nil, wire
			}
			return nil, &jsonrpc.Error{Message: resp.Error.Error()}
		}
		return resp.Result, nil
	}
}

func (c *rawClient) mustCall(method string, params, out any) {
	c.t.Helper()
	res, werr := c.call(method, params)
	if werr != nil {
		c.t.Fatalf("%s: %v", method, werr)
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			c.t.Fatalf("%s: %v in %s", method, err, res)
		}
	}
}

// wireTask is what tools/call (CreateTaskResult) and tasks/get send.
type wireTask struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          *int64                     `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs"`
	Result         *mcp.CallToolResult        `json:"result"`
	Error          *jsonrpc.Error             `json:"error"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
}

// until polls tasks/get until the task's status is want.
func (c *rawClient) until(id, want string) wireTask {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got wireTask
		c.mustCall("tasks/get", map[string]any{"taskId": id}, &got)
		if got.Status == want {
			return got
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("task %s is %s, want %s", id, got.Status, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// taskServer has a blocking task tool ("slow", released by release), a
// required one ("must"), one that fails with a JSON-RPC error ("broken"),
// one that asks for confirmation ("confirm") and a plain tool ("plain").
func taskServer(t *testing.T, release <-chan struct{}, started chan<- struct{}, opts TasksOptions) *Server {
	return taskServerStopped(t, release, started, nil, opts)
}

// taskServerStopped is taskServer whose waiting tools report on stopped
// when their context ends.
func taskServerStopped(t *testing.T, release <-chan struct{}, started, stopped chan<- struct{}, opts TasksOptions) *Server {
	t.Helper()
	wait := func(ctx tools.Context, _ struct{}) (string, error) {
		if started != nil {
			started <- struct{}{}
		}
		select {
		case <-release:
			return "finished", nil
		case <-ctx.Done():
			if stopped != nil {
				stopped <- struct{}{}
			}
			return "", ctx.Err()
		}
	}
	opts.Tools = map[string]TaskSupport{"slow": TaskOptional, "must": TaskRequired, "broken": TaskOptional, "confirm": TaskOptional}
	s, err := New(Config{Name: "tasks", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tasks: opts, Tools: tools.Set{
		"slow": tools.New(tools.Config[struct{}, string]{ID: "slow", Description: "Waits", Execute: wait}),
		"must": tools.New(tools.Config[struct{}, string]{ID: "must", Description: "Waits", Execute: wait}),
		"broken": tools.New(tools.Config[struct{}, string]{ID: "broken", Description: "Fails",
			Execute: func(tools.Context, struct{}) (string, error) {
				return "", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "backend down"}
			}}),
		"confirm": fixtureTools()["confirm"],
		"plain": tools.New(tools.Config[struct{}, string]{ID: "plain", Description: "Answers",
			Execute: func(tools.Context, struct{}) (string, error) { return "plain answer", nil }}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestTaskToolCallIsAnsweredWithATask(t *testing.T) {
	release := make(chan struct{})
	s := taskServer(t, release, nil, TasksOptions{TTL: time.Minute, PollInterval: 250 * time.Millisecond})
	c := rawConnect(t, s, withTasks)

	var created map[string]any
	c.mustCall("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}}, &created)
	for _, k := range []string{"result", "error", "inputRequests", "task", "ttl", "pollInterval", "requestState"} {
		if _, ok := created[k]; ok {
			t.Errorf("CreateTaskResult carries %q: %v", k, created)
		}
	}
	raw, _ := json.Marshal(created)
	var task wireTask
	_ = json.Unmarshal(raw, &task)
	if task.ResultType != "task" || task.TaskID == "" || task.Status != "working" || task.TTLMs == nil || *task.TTLMs != 60000 ||
		task.PollIntervalMs != 250 || !strings.HasSuffix(task.CreatedAt, "Z") || task.LastUpdatedAt == "" {
		t.Fatalf("CreateTaskResult = %s", raw)
	}
	got := c.until(task.TaskID, "working")
	if got.Result != nil || got.ResultType != "complete" {
		t.Fatalf("working task = %+v", got)
	}
	close(release)
	done := c.until(task.TaskID, "completed")
	if done.Result == nil || len(done.Result.Content) != 1 || done.Result.Content[0].(*mcp.TextContent).Text != "finished" {
		t.Fatalf("completed task = %+v", done)
	}
	// A plain tool is not a task.
	var plain map[string]any
	c.mustCall("tools/call", map[string]any{"name": "plain", "arguments": map[string]any{}}, &plain)
	if plain["resultType"] == "task" || plain["taskId"] != nil {
		t.Errorf("plain tool answered %v", plain)
	}
}

func TestTaskCancel(t *testing.T) {
	started, stopped := make(chan struct{}, 1), make(chan struct{}, 1)
	s := taskServerStopped(t, make(chan struct{}), started, stopped, TasksOptions{})
	c := rawConnect(t, s, withTasks)
	var task wireTask
	c.mustCall("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}}, &task)
	<-started
	var ack map[string]any
	c.mustCall("tasks/cancel", map[string]any{"taskId": task.TaskID}, &ack)
	if len(ack) != 1 || ack["resultType"] != "complete" {
		t.Fatalf("cancel ack = %v", ack)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled task's tool kept running")
	}
	c.until(task.TaskID, "cancelled")
	c.mustCall("tasks/cancel", map[string]any{"taskId": task.TaskID}, &ack) // idempotent
	if _, werr := c.call("tasks/cancel", map[string]any{"taskId": "nope"}); werr == nil || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("cancel of an unknown task: %v", werr)
	}
}

func TestTaskFailsWithAJSONRPCError(t *testing.T) {
	s := taskServer(t, nil, nil, TasksOptions{})
	c := rawConnect(t, s, withTasks)
	var task wireTask
	c.mustCall("tools/call", map[string]any{"name": "broken", "arguments": map[string]any{}}, &task)
	failed := c.until(task.TaskID, "failed")
	if failed.Error == nil || failed.Error.Code != jsonrpc.CodeInternalError || failed.Error.Message != "backend down" || failed.Result != nil {
		t.Fatalf("failed task = %+v", failed)
	}
}

func TestTaskAsksForInput(t *testing.T) {
	s := taskServer(t, nil, nil, TasksOptions{})
	c := rawConnect(t, s, withTasks)
	var task wireTask
	c.mustCall("tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{"action": "delete"}}, &task)
	asked := c.until(task.TaskID, "input_required")
	var req struct {
		Method string           `json:"method"`
		Params mcp.ElicitParams `json:"params"`
	}
	if err := json.Unmarshal(asked.InputRequests["input-1"], &req); err != nil || req.Method != "elicitation/create" || req.Params.RequestedSchema == nil {
		t.Fatalf("input requests = %v (%v)", asked.InputRequests, err)
	}
	var ack map[string]any
	c.mustCall("tasks/update", map[string]any{"taskId": task.TaskID, "inputResponses": map[string]any{"stray": map[string]any{}}}, &ack)
	c.until(task.TaskID, "input_required")
	c.mustCall("tasks/update", map[string]any{"taskId": task.TaskID, "inputResponses": map[string]any{
		"input-1": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}}, &ack)
	if len(ack) != 1 || ack["resultType"] != "complete" {
		t.Fatalf("update ack = %v", ack)
	}
	done := c.until(task.TaskID, "completed")
	if done.Result == nil || done.Result.IsError || len(done.Result.Content) != 1 ||
		!strings.Contains(done.Result.Content[0].(*mcp.TextContent).Text, `"approved":true`) {
		t.Fatalf("completed task = %+v", done.Result)
	}
}

func TestTasksNeedTheExtension(t *testing.T) {
	s := taskServer(t, nil, nil, TasksOptions{})
	c := rawConnect(t, s, map[string]any{})
	_, werr := c.call("tools/call", map[string]any{"name": "must", "arguments": map[string]any{}})
	if werr == nil || werr.Code != mcp.CodeMissingRequiredClientCapabilities || !strings.Contains(string(werr.Data), TasksExtension) {
		t.Fatalf("required task tool without the extension: %v", werr)
	}
	var res map[string]any
	c.mustCall("tools/call", map[string]any{"name": "broken", "arguments": map[string]any{}}, &res)
	if res["taskId"] != nil || res["isError"] != true {
		t.Fatalf("optional task tool without the extension ran as %v, want a synchronous error result", res)
	}
	for _, m := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
		if _, werr := c.call(m, map[string]any{"taskId": "x"}); werr == nil || werr.Code != mcp.CodeMissingRequiredClientCapabilities {
			t.Errorf("%s without the extension: %v", m, werr)
		}
	}
}

func TestTaskMethodsErrors(t *testing.T) {
	s := taskServer(t, nil, nil, TasksOptions{})
	c := rawConnect(t, s, withTasks)
	if _, werr := c.call("tasks/get", map[string]any{"taskId": "nope"}); werr == nil || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("tasks/get of an unknown task: %v", werr)
	}
	for _, m := range []string{"tasks/list", "tasks/result"} {
		if _, werr := c.call(m, map[string]any{"taskId": "nope"}); werr == nil || werr.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s: %v, want method not found", m, werr)
		}
	}
}

func TestMaxTasks(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	defer close(release)
	s := taskServer(t, release, started, TasksOptions{MaxTasks: 1})
	c := rawConnect(t, s, withTasks)
	var task wireTask
	c.mustCall("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}}, &task)
	<-started
	if _, werr := c.call("tools/call", map[string]any{"name": "must", "arguments": map[string]any{}}); werr == nil || werr.Code != jsonrpc.CodeInternalError {
		t.Fatalf("required task over the bound: %v", werr)
	}
	var res map[string]any
	c.mustCall("tools/call", map[string]any{"name": "broken", "arguments": map[string]any{}}, &res)
	if res["taskId"] != nil {
		t.Fatalf("optional task over the bound became a task: %v", res)
	}
}

func TestTaskStoreTTLAndPrincipals(t *testing.T) {
	now := time.Unix(1000, 0)
	st := newTaskStore(TasksOptions{TTL: time.Minute, MaxTasks: 2})
	st.now = func() time.Time { return now }
	cancelled := 0
	done := st.create("user:a", func() { cancelled++ })
	waiting := st.create("user:a", func() { cancelled++ })
	if st.create("user:a", func() {}) != nil {
		t.Fatal("a third unfinished task was accepted over MaxTasks 2")
	}
	if _, ok := st.get(done.id, "user:b"); ok {
		t.Fatal("another principal reads the task")
	}
	if st.cancel(done.id, "user:b") || st.update(done.id, "user:b", nil) {
		t.Fatal("another principal changes the task")
	}
	st.finish(done, taskCompleted, json.RawMessage(`{}`), nil)
	st.askInput(waiting, map[string]json.RawMessage{"k": json.RawMessage(`{}`)}, "")
	if extra := st.create("user:a", func() {}); extra == nil {
		t.Fatal("a finished task was not dropped for a new one")
	} else if _, ok := st.get(done.id, "user:a"); ok {
		t.Fatal("the dropped task is still readable")
	}
	now = now.Add(59 * time.Second)
	if got, ok := st.get(waiting.id, "user:a"); !ok || got.status != taskInputRequired {
		t.Fatalf("task before its TTL: %+v %v", got.status, ok)
	}
	now = now.Add(2 * time.Second)
	if got, ok := st.get(waiting.id, "user:a"); !ok || got.status != taskCancelled || cancelled != 1 {
		t.Fatalf("task waiting for input past its TTL: %s, cancelled %d", got.status, cancelled)
	}
	now = now.Add(61 * time.Second)
	if _, ok := st.get(waiting.id, "user:a"); ok {
		t.Fatal("an ended task outlived its TTL")
	}
}

func TestTasksConfigErrors(t *testing.T) {
	plain := tools.Set{"plain": tools.New(tools.Config[struct{}, string]{ID: "plain", Description: "d",
		Execute: func(tools.Context, struct{}) (string, error) { return "", nil }})}
	for name, opts := range map[string]TasksOptions{
		"unknown tool": {Tools: map[string]TaskSupport{"nope": TaskOptional}},
		"bad support":  {Tools: map[string]TaskSupport{"plain": "sometimes"}},
	} {
		if _, err := New(Config{Name: "x", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: plain, Tasks: opts}); err == nil {
			t.Errorf("%s: New accepted %+v", name, opts)
		}
	}
}
