//lint:file-ignore SA1019 the tests exercise MCP logging and roots, deprecated by SEP-2577 but served.

package mcpserver

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// reporterServer has a tool that reports what RequestFrom gives it, logs
// and reports progress.
func reporterServer(t testing.TB, seen chan<- *Request) *Server {
	t.Helper()
	s, err := New(Config{ID: "rep", Name: "Reporter", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: tools.Set{
		"report": tools.New(tools.Config[struct{}, string]{ID: "report", Description: "Reports",
			Execute: func(ctx tools.Context, _ struct{}) (string, error) {
				r, ok := RequestFrom(ctx)
				if !ok {
					seen <- nil
					return "no request", nil
				}
				if err := r.Log(ctx, "info", "working", map[string]any{"step": 1}); err != nil {
					return "", err
				}
				if err := r.Log(ctx, "debug", "too quiet", nil); err != nil {
					return "", err
				}
				if err := r.Progress(ctx, 1, 2, "half way"); err != nil {
					return "", err
				}
				seen <- r
				return "done", nil
			}}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// A tool reaches the MCP request: who calls, over which protocol, and can
// log to the client (at the level it asked for) and report progress when
// asked to.
func TestRequestFrom(t *testing.T) {
	seen := make(chan *Request, 4)
	s := reporterServer(t, seen)
	var mu sync.Mutex
	var logs []any
	var progress []float64
	gotProgress, gotLog := make(chan struct{}, 4), make(chan struct{}, 4)
	client := mcp.NewClient(&mcp.Implementation{Name: "reporter-client", Version: "2.0"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, req.Params.Data)
			mu.Unlock()
			gotLog <- struct{}{}
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, req.Params.Progress, req.Params.Total)
			mu.Unlock()
			gotProgress <- struct{}{}
		},
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCPServer().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "report"}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	r := <-seen
	if r == nil || r.ServerID != "rep" || r.ServerName != "Reporter" || r.ProtocolVersion != "2025-11-25" ||
		r.Client == nil || r.Client.Name != "reporter-client" || r.Meta["progressToken"] != "tok-1" {
		t.Errorf("request %+v", r)
	}
	for _, ch := range []chan struct{}{gotProgress, gotLog} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatal("a notification did not arrive")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) != 2 || progress[0] != 1 || progress[1] != 2 {
		t.Errorf("progress %v", progress)
	}
	if len(logs) != 1 {
		t.Fatalf("logs %v", logs)
	}
	if m, _ := logs[0].(map[string]any); m["message"] != "working" || m["step"] != float64(1) {
		t.Errorf("log %v", logs[0])
	}
	// Without a progress token, Progress does nothing; a direct run has no
	// request at all.
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "report"}); err != nil || res.IsError {
		t.Fatal(err, res)
	}
	<-seen
	if _, err := s.ExecuteTool(context.Background(), "report", nil, nil); err != nil {
		t.Fatal(err)
	}
	if r := <-seen; r != nil {
		t.Errorf("a direct run saw %+v", r)
	}
}
