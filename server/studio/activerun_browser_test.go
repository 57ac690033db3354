package studio

import (
	"testing"

	"github.com/gomastra/mastra/server"
	"github.com/google/go-cmp/cmp"
)

// TestBrowserActiveRunModule checks activerun.js in the browser: the
// record of a chat's active run, and observe events turned back into
// the chunks /stream sends.
func TestBrowserActiveRunModule(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)
	p.open("/")

	records := runModule[[]any](p, "activerun.js", `
		const out = [m.activeRun('a')];
		m.rememberRun('a', {runId: 'r1', threadId: 't1', text: 'hi'});
		out.push(m.activeRun('a'));
		m.forgetRun('a', 'other');
		out.push(m.activeRun('a'));
		m.forgetRun('a', 'r1');
		out.push(m.activeRun('a'));
		localStorage.setItem('gomastra.studio.activeRun.a', '{not json');
		out.push(m.activeRun('a'));
		localStorage.removeItem('gomastra.studio.activeRun.a');
		return out;`)
	r1 := map[string]any{"runId": "r1", "threadId": "t1", "text": "hi"}
	if diff := cmp.Diff([]any{nil, r1, r1, nil, nil}, records); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}

	chunks := runModule[[]any](p, "activerun.js", `return [
		{type: 'chunk', runId: 'r', index: 0, data: {type: 'text-delta', runId: 'r', payload: {text: 'Hi'}}},
		{type: 'step-start', runId: 'r', index: 1, data: {type: 'step-start', runId: 'r', payload: {}}},
		{type: 'iteration-complete', runId: 'r', index: 2, data: {iteration: 1}},
		{type: 'finish', runId: 'r', index: 3, data: {output: {text: 'Hi'}, stepResult: {reason: 'stop'}}},
		{type: 'finish', runId: 'r', index: 3, data: {type: 'finish', payload: {stepResult: {reason: 'stop'}}}},
		{type: 'error', runId: 'r', index: 4, data: {error: {message: 'boom'}}},
		null,
	].map((e) => m.eventChunk(e));`)
	want := []any{
		map[string]any{"type": "text-delta", "runId": "r", "payload": map[string]any{"text": "Hi"}},
		map[string]any{"type": "step-start", "runId": "r", "payload": map[string]any{}},
		nil,
		map[string]any{"type": "finish", "runId": "r", "payload": map[string]any{"output": map[string]any{"text": "Hi"}, "stepResult": map[string]any{"reason": "stop"}}},
		map[string]any{"type": "finish", "payload": map[string]any{"stepResult": map[string]any{"reason": "stop"}}},
		map[string]any{"type": "error", "runId": "r", "payload": map[string]any{"error": map[string]any{"message": "boom"}}},
		nil,
	}
	if diff := cmp.Diff(want, chunks); diff != "" {
		t.Errorf("eventChunk (-want +got):\n%s", diff)
	}
	p.checkConsole()
}
