package studio

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gomastra/mastra/server"
)

// TestBrowserReconnectAfterReload: the page is reloaded while an answer
// streams (the model waits on the test's gate after its first word).
// The run goes on without its reader; the reloaded page finds it, shows
// the message that started it and follows the answer from its first
// event, and the answer completes on screen once, not twice. Once over,
// the run is forgotten: a further reload shows nothing to follow.
func TestBrowserReconnectAfterReload(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)
	p.open("/agents/assistant")
	p.say("Count patiently")
	p.waitText(".msg.assistant .msg-text", "One, ")
	if got := p.text(".msg.assistant .msg-text"); strings.Contains(got, "five") {
		t.Fatalf("the answer was complete before the model went on: %q", got)
	}
	runID := evalJS[string](p, `JSON.parse(localStorage.getItem('gomastra.studio.activeRun.assistant') || '{}').runId || ''`)
	if runID == "" {
		t.Fatal("the page did not record the run it started")
	}

	p.open("/agents/assistant")
	p.waitText(".msg.user .msg-text", "Count patiently")
	p.waitText(".msg.assistant .msg-text", "One, ")
	if busy := evalJS[string](p, `document.querySelector('.view.chat').dataset.busy`); busy != "true" {
		t.Errorf("the reconnected answer is not shown as streaming (busy=%s)", busy)
	}
	p.release(app)
	p.waitText(".msg.assistant .msg-text", patientAnswer)
	p.waitIdle()
	if got := p.text(".msg.assistant .msg-text"); got != patientAnswer {
		t.Errorf("answer shown = %q, want it once: %q", got, patientAnswer)
	}
	if n := evalJS[int](p, `document.querySelectorAll('.msg.assistant').length`); n != 1 {
		t.Errorf("%d assistant messages, want 1", n)
	}
	if n := evalJS[int](p, `document.querySelectorAll('.msg.user').length`); n != 1 {
		t.Errorf("%d user messages, want 1 (the history leaves out the run it follows again)", n)
	}
	if got := p.text(".msg.assistant .msg-footer"); !strings.Contains(got, "finished") {
		t.Errorf("footer = %q, want the run's finish", got)
	}
	if left := evalJS[string](p, `localStorage.getItem('gomastra.studio.activeRun.assistant') || ''`); left != "" {
		t.Errorf("the ended run is still recorded: %s", left)
	}

	// Once over, the answer is the thread's history.
	p.open("/agents/assistant")
	p.waitJS("the thread loaded", `document.querySelector('.view.chat')?.dataset.loaded === 'true'`)
	if got := evalJS[string](p, `[...document.querySelectorAll('.msg .msg-text')].map((e) => e.textContent).join(' | ')`); got != "Count patiently | "+patientAnswer {
		t.Errorf("history after the run = %q", got)
	}
	if busy := evalJS[string](p, `document.querySelector('.view.chat').dataset.busy`); busy != "false" {
		t.Errorf("an ended run is followed again (busy=%s)", busy)
	}
	p.checkConsole()
}

// TestBrowserStopAbortsTheRun: a run outlives its reader, so Stop does
// more than drop the connection: it aborts the thread's run, which ends
// with reason "abort" (its event log says so), and a reload has nothing
// to reconnect to.
func TestBrowserStopAbortsTheRun(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)
	p.open("/agents/assistant")
	p.say("Count patiently")
	p.waitText(".msg.assistant .msg-text", "One, ")
	runID := evalJS[string](p, `JSON.parse(localStorage.getItem('gomastra.studio.activeRun.assistant') || '{}').runId || ''`)
	p.click(".composer button:not([type=submit])")
	p.waitText(".msg.assistant .msg-note", "Stopped.")
	p.waitIdle()

	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, app.ts.URL+"/api/agents/assistant/observe", strings.NewReader(`{"runId":`+js(runID)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("observing the stopped run (it did not end): %v", err)
	}
	if !strings.Contains(string(body), `"reason":"abort"`) || !strings.HasSuffix(string(body), "data: [DONE]\n\n") {
		t.Errorf("the stopped run's events do not end in an abort:\n%s", body)
	}

	// A reload shows the question the stopped run left, and follows no run.
	p.open("/agents/assistant")
	p.waitJS("the thread loaded", `document.querySelector('.view.chat')?.dataset.loaded === 'true'`)
	if got := evalJS[string](p, `[...document.querySelectorAll('.msg .msg-text')].map((e) => e.textContent).join(' | ')`); got != "Count patiently" {
		t.Errorf("history after the stopped run = %q", got)
	}
	if busy := evalJS[string](p, `document.querySelector('.view.chat').dataset.busy`); busy != "false" {
		t.Errorf("an ended run is followed again (busy=%s)", busy)
	}
	p.checkConsole()
}
