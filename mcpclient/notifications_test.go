package mcpclient

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
)

// changingServer has a tool, a resource and a prompt, and lets its
// subscribe handler report each subscription on subscribed. It is slow to
// put subscriptions in place, so that a client that does not wait for them
// misses the notifications sent at once: the SDK's server records a
// subscription after that handler returns, and the handler lingers after
// reporting; a subscriptions/listen request waits before it is handled.
func changingServer(versions []string, subscribed chan<- string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "changing", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: versions,
		SubscribeHandler: func(_ context.Context, req *mcp.SubscribeRequest) error {
			subscribed <- req.Params.URI
			time.Sleep(20 * time.Millisecond)
			return nil
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "subscriptions/listen" {
				time.Sleep(20 * time.Millisecond)
			}
			return next(ctx, method, req)
		}
	})
	mcpAddEcho(srv, "first")
	srv.AddResource(&mcp.Resource{URI: "file:///a.txt", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///a.txt", Text: "a"}}}, nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "p1"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	return srv
}

// List-changed notifications run the registered handlers, on both
// protocol styles (notifications on the session, subscriptions/listen).
func TestListChangedNotifications(t *testing.T) {
	for _, tc := range []struct {
		name     string
		versions []string
	}{{"classic", classicVersions}, {"listen", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := changingServer(tc.versions, make(chan string, 1))
			c := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(srv)}})
			toolsCh, resCh, promptsCh := make(chan struct{}, 4), make(chan struct{}, 4), make(chan struct{}, 4)
			for _, err := range []error{
				c.OnToolListChanged("s", func() { toolsCh <- struct{}{} }),
				c.OnResourceListChanged("s", func() { resCh <- struct{}{} }),
				c.OnPromptListChanged("s", func() { promptsCh <- struct{}{} }),
			} {
				if err != nil {
					t.Fatal(err)
				}
			}
			if err := c.Connect(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			mcpAddEcho(srv, "second")
			waitFor(t, toolsCh, "tools/list_changed")
			srv.AddResource(&mcp.Resource{URI: "file:///b.txt", Name: "b"}, nil)
			waitFor(t, resCh, "resources/list_changed")
			srv.AddPrompt(&mcp.Prompt{Name: "p2"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{}, nil
			})
			waitFor(t, promptsCh, "prompts/list_changed")
		})
	}
}

func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-ctxT(t).Done():
		t.Fatalf("no %s notification", what)
	}
}

// SubscribeResource subscribes; the server's update reaches
// OnResourceUpdated; bad input is refused.
func TestResourceSubscription(t *testing.T) {
	for _, tc := range []struct {
		name     string
		versions []string
	}{{"classic", classicVersions}, {"listen", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			subscribed := make(chan string, 4)
			srv := changingServer(tc.versions, subscribed)
			c := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(srv)}})
			updates := make(chan ResourceUpdate, 1)
			if err := c.OnResourceUpdated("s", func(u ResourceUpdate) { updates <- u }); err != nil {
				t.Fatal(err)
			}
			// SubscribeResource returns once the subscription is in place
			// (on the listen style, once the server acknowledged it), so
			// an update sent at once reaches the client. Subscribing
			// twice is harmless.
			for range 2 {
				if err := c.SubscribeResource(ctxT(t), "s", "file:///a.txt"); err != nil {
					t.Fatal(err)
				}
			}
			if got := <-subscribed; got != "file:///a.txt" {
				t.Errorf("server saw a subscription to %q", got)
			}
			if err := srv.ResourceUpdated(ctxT(t), &mcp.ResourceUpdatedNotificationParams{URI: "file:///a.txt"}); err != nil {
				t.Fatal(err)
			}
			select {
			case u := <-updates:
				if u != (ResourceUpdate{Server: "s", URI: "file:///a.txt"}) {
					t.Errorf("update %+v", u)
				}
			case <-ctxT(t).Done():
				t.Fatal("no update")
			}
			// A new connection renews the subscription (the classic style
			// sent the second subscription too).
			for len(subscribed) > 0 {
				<-subscribed
			}
			if err := c.ReconnectServer(ctxT(t), "s"); err != nil {
				t.Fatal(err)
			}
			select {
			case got := <-subscribed:
				if got != "file:///a.txt" {
					t.Errorf("after reconnecting, the server saw a subscription to %q", got)
				}
			case <-ctxT(t).Done():
				t.Fatal("the subscription was not renewed on the new connection")
			}
			if err := srv.ResourceUpdated(ctxT(t), &mcp.ResourceUpdatedNotificationParams{URI: "file:///a.txt"}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-updates:
			case <-ctxT(t).Done():
				t.Fatal("no update after reconnecting")
			}
			if err := c.UnsubscribeResource(ctxT(t), "s", "file:///a.txt"); err != nil {
				t.Fatal(err)
			}
			if got := c.servers["s"].subs.list(); len(got) != 0 {
				t.Errorf("still subscribed to %v after unsubscribing", got)
			}
			if got := len(c.servers["s"].acks.sessions); got != 0 {
				t.Errorf("subscriptions still awaited on %d sessions after unsubscribing", got)
			}
		})
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(newTestServer())}})
	if err := c.SubscribeResource(ctxT(t), "s", ""); err == nil {
		t.Error("empty URI accepted")
	}
	// A server without subscriptions refuses, on both protocol styles,
	// and nothing is kept to renew.
	for _, versions := range [][]string{classicVersions, nil} {
		plain := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})
		pc := newClient(t, Config{Servers: map[string]ServerConfig{"p": inMemory(plain)}})
		if err := pc.SubscribeResource(ctxT(t), "p", "file:///a"); err == nil {
			t.Errorf("a server (versions %v) without subscriptions accepted one", versions)
		}
		if got := pc.servers["p"].subs.list(); len(got) != 0 {
			t.Errorf("a refused subscription is kept: %v", got)
		}
		if got := len(pc.servers["p"].acks.sessions); got != 0 {
			t.Errorf("a refused subscription is awaited on %d sessions", got)
		}
	}
	if err := c.SubscribeResource(ctxT(t), "nope", "file:///a"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: %v", err)
	}
	if err := c.OnResourceUpdated("s", nil); err == nil {
		t.Error("nil handler accepted")
	}
}

// An agent given ToolsFunc sees a tool the server added once the server
// said its list changed, and reuses the listing until then.
func TestToolsFuncRefreshesAgentTools(t *testing.T) {
	srv := changingServer(classicVersions, make(chan string, 1))
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(srv)}})
	changed := make(chan struct{}, 1)
	if err := c.OnToolListChanged("s", func() { changed <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	m := mock.New(mock.Step{Text: "one"}, mock.Step{Text: "two"}, mock.Step{Text: "three"})
	a, err := agent.New(agent.Config{ID: "a", Name: "A", Instructions: "x", Model: m, ToolsFunc: c.ToolsFunc()})
	if err != nil {
		t.Fatal(err)
	}
	offered := func() map[string]bool {
		if _, err := a.Generate(ctxT(t), "hi"); err != nil {
			t.Fatal(err)
		}
		calls := m.Calls()
		got := map[string]bool{}
		for _, d := range calls[len(calls)-1].Tools {
			got[d.Name] = true
		}
		return got
	}
	if got := offered(); !got["s_first"] || got["s_second"] {
		t.Fatalf("first run offered %v", got)
	}
	s, _ := c.server("s")
	s.events.mu.Lock()
	cached := s.events.cachedTools != nil
	s.events.mu.Unlock()
	if !cached {
		t.Error("the listing was not cached")
	}
	mcpAddEcho(srv, "second")
	waitFor(t, changed, "tools/list_changed")
	if got := offered(); !got["s_first"] || !got["s_second"] {
		t.Fatalf("after the change the agent was offered %v", got)
	}
	srv.RemoveTools("first")
	waitFor(t, changed, "tools/list_changed")
	if got := offered(); got["s_first"] || !got["s_second"] {
		t.Fatalf("after the removal the agent was offered %v", got)
	}
}

// A listening server that never acknowledges the list-changed listen
// stream costs the connection its ConnectTimeout and a warning, not the
// connection.
func TestUnacknowledgedListenStream(t *testing.T) {
	srv := changingServer(nil, make(chan string, 1))
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "subscriptions/listen" {
				<-ctx.Done() // no acknowledgement, ever
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	logs := &logRecorder{}
	sc := inMemory(srv)
	sc.ConnectTimeout = 200 * time.Millisecond
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}, Logger: logs.logger()})
	if err := c.Connect(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if !logs.contains("did not acknowledge the list-changed listen stream") {
		t.Error("no warning about the unacknowledged listen stream")
	}
	tools, errs := c.ListToolsWithErrors(ctxT(t))
	if len(errs) != 0 || len(tools) != 1 {
		t.Errorf("tools %v, errors %v", tools, errs)
	}
}
