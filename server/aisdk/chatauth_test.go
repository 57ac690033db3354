package aisdk

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

// recordingTool records the request context and memory a run's tool
// sees.
type seen struct {
	resource, thread any
	custom           any
}

func contextAgent(t *testing.T, got *atomic.Pointer[seen]) *agent.Agent {
	t.Helper()
	tool := tools.New(tools.Config[struct{}, struct{}]{ID: "peek", Description: "peeks",
		Execute: func(ctx tools.Context, _ struct{}) (struct{}, error) {
			rc := ctx.RequestContext()
			s := &seen{}
			s.resource, _ = rc.Get(tools.ResourceIDKey)
			s.thread, _ = rc.Get(tools.ThreadIDKey)
			s.custom, _ = rc.Get("plan")
			got.Store(s)
			return struct{}{}, nil
		}})
	a, err := agent.New(agent.Config{ID: "peeker", Tools: tools.Set{"peek": tool},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			if hasToolResult(req) {
				return mock.Step{Text: "done"}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "peek", Args: `{}`}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestChatRouteUsesTheAuthenticatedResource: the caller's resource
// (server.AuthResource) is the run's, whatever the body says; the client
// cannot set the reserved request-context keys.
func TestChatRouteUsesTheAuthenticatedResource(t *testing.T) {
	var got atomic.Pointer[seen]
	a := contextAgent(t, &got)
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"peeker": a}})
	auth := func(r *http.Request) (string, error) {
		if r.Header.Get("X-User") == "" {
			return "", errors.New("no user")
		}
		return r.Header.Get("X-User"), nil
	}
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{})}, Auth: auth})
	body := userChat("peek", `,"memory":{"thread":"t1","resource":"mallory"},"requestContext":{"plan":"pro","mastra__resourceId":"mallory","mastra__threadId":"t9"}`)
	if status, b, _ := post(t, client, ts.URL+"/chat/peeker", body); status != http.StatusUnauthorized {
		t.Fatalf("without a user: %d %s", status, b)
	}
	status, b, _ := post(t, client, ts.URL+"/chat/peeker", body, "X-User", "alice")
	if status != http.StatusOK {
		t.Fatalf("%d %s", status, b)
	}
	s := got.Load()
	if s == nil {
		t.Fatal("the tool did not run")
	}
	if s.resource != "alice" || s.thread != "t1" || s.custom != "pro" {
		t.Errorf("the tool saw resource %v thread %v plan %v; want alice, t1, pro", s.resource, s.thread, s.custom)
	}
}

// TestChatRouteRefusesOtherResources: with memory and authentication, a
// thread or a suspended run of another resource is refused (403).
func TestChatRouteRefusesOtherResources(t *testing.T) {
	m := newTestApp(t)
	auth := func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }
	ts, client := startServer(t, m, server.Options{Routes: testRoutes(m), Auth: auth})
	fa, _ := m.GetAgent("fileAgent")
	ctx := context.Background()
	// A thread of bob's.
	if err := fa.Storage().SaveThread(ctx, storageThread("bob-thread", "bob")); err != nil {
		t.Fatal(err)
	}
	status, b, _ := post(t, client, ts.URL+"/chat/text-agent", userChat("hi", `,"memory":{"thread":"bob-thread"}`), "X-User", "alice")
	if status != http.StatusForbidden || !strings.Contains(b, "thread belongs to a different resource") {
		t.Errorf("bob's thread for alice: %d %s", status, b)
	}
	// A run of bob's waiting for approval.
	_, _, frames := post(t, client, ts.URL+"/chat/file-agent", userChat("Delete /tmp/a.txt", ""), "X-User", "bob")
	ap := ofType(frames, PartToolCallApproval)
	if len(ap) != 1 {
		t.Fatalf("approval parts %v", ap)
	}
	runID := ap[0]["data"].(map[string]any)["runId"].(string)
	resume := userChat("ok", `,"runId":"`+runID+`","resumeData":{"approved":true}`)
	status, b, _ = post(t, client, ts.URL+"/chat/file-agent", resume, "X-User", "alice")
	if status != http.StatusForbidden || !strings.Contains(b, "run belongs to a different resource") {
		t.Errorf("bob's run resumed by alice: %d %s", status, b)
	}
	status, _, frames = post(t, client, ts.URL+"/chat/file-agent", resume, "X-User", "bob")
	if status != http.StatusOK || len(ofType(frames, PartToolOutputAvailable)) != 1 {
		t.Errorf("bob's own resume: %d %v", status, frames)
	}
	// Resumed once: a second resume finds no waiting run.
	if status, b, _ = post(t, client, ts.URL+"/chat/file-agent", resume, "X-User", "bob"); status != http.StatusNotFound {
		t.Errorf("second resume: %d %s", status, b)
	}
}

// A resume of a run that is running (not waiting) is a conflict: the
// route never takes a live run over.
func TestChatRouteRefusesToResumeARunningRun(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	block := tools.New(tools.Config[struct{}, struct{}]{ID: "block", Description: "waits",
		Execute: func(ctx tools.Context, _ struct{}) (struct{}, error) {
			close(entered)
			select {
			case <-release:
			case <-ctx.Done():
			}
			return struct{}{}, nil
		}})
	app := newTestApp(t)
	fa, _ := app.GetAgent("fileAgent")
	a, err := agent.New(agent.Config{ID: "busy", Storage: fa.Storage(), Tools: tools.Set{"block": block},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			if hasToolResult(req) {
				return mock.Step{Text: "done"}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "block", Args: `{}`}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"busy": a}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{})}})
	done := make(chan int, 1)
	go func() {
		res, err := client.Post(ts.URL+"/chat/busy", "application/json", strings.NewReader(userChat("go", `,"runId":"run-busy"`)))
		if err != nil {
			done <- 0
			return
		}
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		done <- res.StatusCode
	}()
	<-entered
	status, body, _ := post(t, client, ts.URL+"/chat/busy", userChat("go", `,"runId":"run-busy","resumeData":{"approved":true}`))
	close(release)
	if status != http.StatusConflict || !strings.Contains(body, `cannot resume run \"run-busy\"`) {
		t.Errorf("resume of a running run: %d %s", status, body)
	}
	if s := <-done; s != http.StatusOK {
		t.Errorf("the running request ended %d", s)
	}
}
