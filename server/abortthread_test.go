package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/tools"
)

// TestAbortThreadAsCaptured replays the captured thread aborts: another
// expected run id does not abort; the run's own does, and so does a
// second abort while the run finishes; the in-flight tool's result is
// kept and the stream ends with step-finish then finish "abort" (the
// observe of the run shows the same, no iteration-complete). Then the
// captured answers for an idle thread, an unknown thread, another
// resource, no threadId and an unknown agent, byte for byte.
func TestAbortThreadAsCaptured(t *testing.T) {
	g := newGateTool()
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": g.tool()} }))
	resp, br := f.openStream(t, context.Background(), `{"messages":"add slowly","runId":"run-abort-1","memory":{"thread":"thread-abort","resource":"user-1"}}`)
	defer resp.Body.Close()
	g.waitStarted(t)
	captured := readObserveCaptures(t, "16-abort-running.jsonl")
	for _, c := range captured[1:4] {
		r, got := f.do(t, "POST", "/api/agents/calc-agent/threads/abort", c.ReqBody)
		if r.StatusCode != c.Status || string(got) != c.ResBody {
			t.Errorf("%s: %d %s, want %d %s", c.ReqBody, r.StatusCode, got, c.Status, c.ResBody)
		}
	}
	g.release <- struct{}{}
	if cause := <-g.causes; !errors.Is(cause, agent.ErrRunAborted) {
		t.Errorf("the tool's context cause: %v", cause)
	}
	rest, _ := io.ReadAll(br)
	frames := sseFrames(string(rest))
	var types []string
	for _, fr := range frames {
		if fr == "[DONE]" {
			types = append(types, fr)
			continue
		}
		var c struct{ Type string }
		_ = jsonUnmarshal(fr, &c)
		types = append(types, c.Type)
	}
	if got := strings.Join(types, " "); !strings.HasSuffix(got, "tool-result step-finish finish [DONE]") || strings.Count(got, "step-start") != 0 {
		t.Errorf("the aborted stream's tail: %s", got)
	}
	_, observed := f.do(t, "POST", "/api/agents/calc-agent/observe", `{"runId":"run-abort-1"}`)
	if last := lastEvent(t, observed); last["type"] != "finish" || finishReason(last) != "abort" || strings.Contains(string(observed), "iteration-complete") {
		t.Errorf("observed abort: %s", observed)
	}
	for _, name := range []string{"18-abort-idle.jsonl", "19-abort-unknown-thread.jsonl", "20-abort-wrong-resource.jsonl", "21-abort-no-threadid.jsonl", "22-abort-unknown-agent.jsonl"} {
		c := readObserveCaptures(t, name)[0]
		path := strings.NewReplacer("durable-calc", "calc-agent", "durable-slow", "calc-agent").Replace(c.URL)
		r, got := f.do(t, "POST", path, strings.Replace(c.ReqBody, "thread-calc", "thread-abort", 1))
		if r.StatusCode != c.Status || string(got) != c.ResBody {
			t.Errorf("%s: %d %s, want %d %s", name, r.StatusCode, got, c.Status, c.ResBody)
		}
	}
}

// TestAbortThreadWithoutTheResourceDoesNotAbort: the active run is keyed
// by thread and resource, as captured: {threadId} alone finds nothing,
// and the run completes.
func TestAbortThreadWithoutTheResourceDoesNotAbort(t *testing.T) {
	g := newGateTool()
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": g.tool()} }))
	resp, br := f.openStream(t, context.Background(), `{"messages":"add slowly","runId":"run-abort-2","memory":{"thread":"thread-abort-2","resource":"user-1"}}`)
	defer resp.Body.Close()
	g.waitStarted(t)
	c := readObserveCaptures(t, "17-abort-running-no-resource.jsonl")[1]
	if r, got := f.do(t, "POST", "/api/agents/calc-agent/threads/abort", c.ReqBody); r.StatusCode != c.Status || string(got) != c.ResBody {
		t.Errorf("%d %s, want %d %s", r.StatusCode, got, c.Status, c.ResBody)
	}
	g.release <- struct{}{}
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), `"text":"The sum is 5."`) {
		t.Errorf("the run did not complete: %s", rest)
	}
}

// TestObserveAndAbortOnlyOwnRuns: with Options.Auth, a caller observes
// and aborts only runs of its own resource (403 otherwise), as threads.
func TestObserveAndAbortOnlyOwnRuns(t *testing.T) {
	g := newGateTool()
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Tools = tools.Set{"add": g.tool()} }),
		withOptions(Options{Auth: func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }}))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, br := f.openStream(t, ctx, `{"messages":"add","runId":"alice-run","memory":{"thread":"alice-thread"}}`, "X-User", "alice")
	defer resp.Body.Close()
	g.waitStarted(t)
	for _, c := range []struct{ path, body, answer string }{
		{"/api/agents/calc-agent/observe", `{"runId":"alice-run"}`, `{"error":"Access denied: run belongs to a different resource"}`},
		{"/api/agents/calc-agent/threads/abort", `{"threadId":"alice-thread","resourceId":"alice"}`, `{"error":"Access denied: thread belongs to a different resource"}`},
	} {
		if r, got := f.do(t, "POST", c.path, c.body, "X-User", "bob"); r.StatusCode != 403 || string(got) != c.answer {
			t.Errorf("bob on %s: %d %s", c.path, r.StatusCode, got)
		}
	}
	if r, got := f.do(t, "POST", "/api/agents/calc-agent/threads/abort", `{"threadId":"alice-thread"}`, "X-User", "alice"); r.StatusCode != 200 || string(got) != `{"aborted":true}` {
		t.Errorf("alice's abort: %d %s", r.StatusCode, got)
	}
	g.release <- struct{}{}
	_, _ = io.ReadAll(br)
	if r, got := f.do(t, "POST", "/api/agents/calc-agent/observe", `{"runId":"alice-run"}`, "X-User", "alice"); r.StatusCode != 200 || finishReason(lastEvent(t, got)) != "abort" {
		t.Errorf("alice's observe: %d %s", r.StatusCode, got)
	}
}
