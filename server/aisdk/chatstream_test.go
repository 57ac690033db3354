package aisdk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
)

// TestChatRouteCancelsOnDisconnect: a client that goes away mid-stream
// cancels the run (the model call sees its context end) and leaves no
// goroutine behind.
func TestChatRouteCancelsOnDisconnect(t *testing.T) {
	for _, heartbeat := range []time.Duration{0, 5 * time.Millisecond} {
		t.Run(fmt.Sprint("heartbeat ", heartbeat), func(t *testing.T) {
			cancelled := make(chan struct{})
			var once atomic.Bool
			slow := &cancelWatcher{done: cancelled, once: &once}
			a, err := agent.New(agent.Config{ID: "slow", Model: slow})
			if err != nil {
				t.Fatal(err)
			}
			m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"slow": a}})
			ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{Heartbeat: heartbeat})}})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/chat/slow", strings.NewReader(userChat("hi", "")))
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(res.Body)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("stream ended before the first text: %v", err)
				}
				if strings.Contains(line, `"text-delta"`) {
					break
				}
			}
			cancel()
			_ = res.Body.Close()
			select {
			case <-cancelled:
			case <-time.After(5 * time.Second):
				t.Fatal("the run was not cancelled when the client went away")
			}
		})
	}
}

// cancelWatcher is a model that streams one text delta, then waits for
// its context to end and reports it.
type cancelWatcher struct {
	done chan struct{}
	once *atomic.Bool
}

func (*cancelWatcher) Provider() string { return "mock-provider" }
func (*cancelWatcher) ModelID() string  { return "slow" }
func (w *cancelWatcher) Stream(ctx context.Context, _ *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		for _, p := range []model.StreamPart{{Type: model.PartStreamStart}, {Type: model.PartTextStart, ID: "t"}, {Type: model.PartTextDelta, ID: "t", Delta: "Hel"}} {
			if !yield(p, nil) {
				return
			}
		}
		<-ctx.Done()
		if w.once.CompareAndSwap(false, true) {
			close(w.done)
		}
		yield(model.StreamPart{}, ctx.Err())
	}
}

// TestChatRouteHeartbeat: an idle stream sends SSE comments.
func TestChatRouteHeartbeat(t *testing.T) {
	a, err := agent.New(agent.Config{ID: "pause", Model: mock.New(mock.Step{Text: "late", Delay: 120 * time.Millisecond})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"pause": a}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{Heartbeat: 20 * time.Millisecond})}})
	status, body, frames := post(t, client, ts.URL+"/chat/pause", userChat("hi", ""))
	if status != 200 || !strings.Contains(body, ": heartbeat\n\n") || !strings.HasSuffix(body, "data: [DONE]\n\n") {
		t.Errorf("%d %q", status, body)
	}
	if d := ofType(frames, PartTextDelta); len(d) != 1 || d[0]["delta"] != "late" {
		t.Errorf("text parts %v", d)
	}
}

func TestChatRouteStreamErrorAfterStart(t *testing.T) {
	// A run whose model fails mid-answer: the failure is a stream part.
	a, err := agent.New(agent.Config{ID: "flaky", Model: mock.New(mock.Step{Text: "Half ", ErrorPart: errors.New("connection reset")})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"flaky": a}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{
		Chat: ChatOptions{Stream: StreamOptions{OnError: func(any) string { return "Something went wrong." }}},
	})}})
	status, body, frames := post(t, client, ts.URL+"/chat/flaky", userChat("hi", ""))
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	e := ofType(frames, PartError)
	if len(e) != 1 || e[0]["errorText"] != "Something went wrong." {
		t.Errorf("error parts %v", e)
	}
	if f := ofType(frames, PartFinish); len(f) != 1 || f[0]["finishReason"] != "error" {
		t.Errorf("finish %v", f)
	}
	if !bytes.HasSuffix([]byte(body), []byte("data: [DONE]\n\n")) {
		t.Errorf("no [DONE]: %q", body)
	}
}
