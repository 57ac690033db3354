package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// cancelServer has one tool, "wait", that blocks until its request is
// cancelled and then reports it on cancelled.
func cancelServer(cancelled chan<- string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "cancel"}, nil)
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			cancelled <- context.Cause(ctx).Error()
			return nil, ctx.Err()
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return textResult("pong"), nil, nil
	})
	return srv
}

func TestHangingToolTimesOut(t *testing.T) {
	for name, mk := range map[string]func() ServerConfig{
		"stdio": func() ServerConfig { return stdioChild(t, "plain", nil) },
		"http":  func() ServerConfig { return ServerConfig{URL: httpServer(t, newTestServer()).URL} },
	} {
		t.Run(name, func(t *testing.T) {
			sc := mk()
			sc.Timeout = 300 * time.Millisecond
			c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": sc}})
			set := c.ListTools(ctxT(t))
			start := time.Now()
			_, err := executeJSON(t, set["srv_hang"], `{}`)
			if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want a timeout", err)
			}
			want := `mcpclient: calling tool "hang" on server "srv" (after 300ms): request timed out`
			if err.Error() != want {
				t.Errorf("err = %q, want %q", err, want)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("timed out after %v (retried?)", d)
			}
			// The connection survives a timed-out call.
			if _, err := executeJSON(t, set["srv_add"], `{"a":1,"b":2}`); err != nil {
				t.Fatalf("call after the timeout: %v", err)
			}
		})
	}
}

func TestCancellationReachesTheServer(t *testing.T) {
	cancelled := make(chan string, 1)
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": inMemory(cancelServer(cancelled))}})
	set := c.ListTools(ctxT(t))
	ctx, cancel := context.WithCancel(ctxT(t))
	errc := make(chan error, 1)
	go func() {
		_, err := set["srv_wait"].Execute(ctx, nil, nil)
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	select {
	case why := <-cancelled:
		if why == "" {
			t.Error("empty cancellation cause")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server never saw the cancellation")
	}
	if _, err := executeJSON(t, set["srv_ping"], `{}`); err != nil {
		t.Fatalf("call after a cancellation: %v", err)
	}
}

func TestProgressNotifications(t *testing.T) {
	for name, mk := range map[string]func() ServerConfig{
		"stdio":     func() ServerConfig { return stdioChild(t, "plain", nil) },
		"in-memory": func() ServerConfig { return inMemory(newTestServer()) },
		"http":      func() ServerConfig { return ServerConfig{URL: httpServer(t, newTestServer()).URL} },
	} {
		t.Run(name, func(t *testing.T) { testProgress(t, mk, name != "in-memory") })
	}
}

func testProgress(t *testing.T, mk func() ServerConfig, ordered bool) {
	var (
		mu     sync.Mutex
		global []Progress
		all    = make(chan struct{})
	)
	tracked := mk()
	tracked.EnableProgressTracking = true
	tracked.OnProgress = func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		global = append(global, p)
		if len(global) == 3 {
			close(all)
		}
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"tracked": tracked, "untracked": mk()}})
	set := c.ListTools(ctxT(t))

	var written []Progress
	inv := &tools.Invocation{Writer: tools.WriterFunc{OnWrite: func(v any) error {
		written = append(written, v.(Progress))
		return nil
	}}}
	res, err := set["tracked_progress"].Execute(ctxT(t), json.RawMessage(`{"steps":3}`), inv)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text; got != "done after 3 steps (token sent: true)" {
		t.Errorf("result = %q", got)
	}
	select {
	case <-all:
	case <-time.After(10 * time.Second):
		t.Fatal("OnProgress did not get the three notifications")
	}
	mu.Lock()
	defer mu.Unlock()
	for i, p := range global {
		if p.Server != "tracked" || p.Progress != float64(i+1) || p.Total != 3 || p.Message != fmt.Sprintf("step %d", i+1) || p.Token == nil {
			t.Errorf("progress %d = %+v", i, p)
		}
	}
	if ordered && len(written) != 3 {
		t.Fatalf("writer got %d progress values before the call returned, want 3: %v", len(written), written)
	}
	if len(written) > 3 || !cmp.Equal(written, global[:len(written)], cmpopts.EquateEmpty()) {
		t.Errorf("writer got %v, OnProgress %v", written, global)
	}
	for _, p := range written {
		if p.Tool != "progress" {
			t.Errorf("written progress names tool %q", p.Tool)
		}
	}
	raw, _ := json.Marshal(global[2])
	if !strings.Contains(string(raw), `"progress":3,"total":3,"message":"step 3"`) || strings.Contains(string(raw), "tracked") {
		t.Errorf("progress JSON = %s", raw)
	}

	res, err = set["untracked_progress"].Execute(ctxT(t), json.RawMessage(`{"steps":3}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text; got != "done after 3 steps (token sent: false)" {
		t.Errorf("untracked result = %q", got)
	}
}
