package studio

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gomastra/mastra/server"
)

func TestBrowserCatalogToolsAndWorkflows(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{Title: "Test <Studio>"})})
	p := newPage(t, app.ts.URL)
	p.open("/")

	// The page lists the registry (and the title went in as text).
	p.waitText("#nav-agents", "Assistant")
	p.waitText("#nav-tools", "plan-trip")
	p.waitText("#nav-tools", "get-weather")
	p.waitText("#nav-workflows", "greeting")
	p.waitText(".home", "Checks the weather and asks questions")
	if got := p.text("#app-title"); got != "Test <Studio>" {
		t.Errorf("title = %q", got)
	}

	// A tool, reached through the navigation (no page load).
	p.click(`#nav-tools a[href="/tools/plan-trip"]`)
	p.waitText(".view.tool h1", "plan-trip")
	if got := p.text(`#nav-tools a[aria-current="page"]`); got != "plan-trip" {
		t.Errorf("current nav item = %q", got)
	}
	p.fill(`[name="city"]`, "Rome")
	p.fill(`[name="days"]`, "3")
	p.fill(`[name="budget"]`, "120.5")
	p.do("choose unit", chromedp.SetValue(chromedp.CSS(`[name="unit"]`), `"celsius"`))
	p.do("choose withHotel", chromedp.SetValue(chromedp.CSS(`[name="withHotel"]`), `true`))
	p.fill(`[name="traveller.name"]`, "Ada")
	p.fill(`[name="traveller.age"]`, "36")
	p.fill(`[name="tags"]`, `["food", "art"]`)
	p.click(`.view.tool form button[type="submit"]`)
	p.waitText(`[data-answer="ok"]`, "3 days in Rome for 120.5 EUR in celsius with a hotel for Ada (36) tagged food,art")

	// Invalid input: the tool's ValidationError, by the field and in the
	// answer.
	p.fill(`[name="days"]`, "0")
	p.click(`.view.tool form button[type="submit"]`)
	p.waitText(`[data-answer="validation-error"]`, "Input validation failed")
	p.waitText(`[data-answer="validation-error"] .issues`, "days: Too small: expected number to be >=1")
	p.waitText(`.view.tool .field-error:not([hidden])`, "Too small: expected number to be >=1")
	if inv := evalJS[string](p, `document.querySelector('[name="days"]').getAttribute('aria-invalid') || ''`); inv != "true" {
		t.Errorf(`days aria-invalid = %q, want "true"`, inv)
	}

	// JSON the page cannot send is reported before any request.
	p.fill(`[name="days"]`, "2")
	p.fill(`[name="tags"]`, `["food",`)
	p.click(`.view.tool form button[type="submit"]`)
	p.waitText(`.view.tool .form-errors`, "Not valid JSON")
	if got := p.text(`[data-answer]`); !strings.Contains(got, "Input validation failed") {
		t.Errorf("the answer changed without a request: %q", got)
	}

	// Mastra's 400 body ({error, issues}) reads as text: the JSON box
	// left empty sends no data.
	p.click(`.view.tool .schema-form button[aria-pressed]`)
	p.waitJS("the JSON box", `!document.querySelector('.view.tool textarea[aria-label="Input as JSON"]').closest('.field').hidden`)
	p.fill(`.view.tool textarea[aria-label="Input as JSON"]`, " ")
	p.click(`.view.tool form button[type="submit"]`)
	p.waitText(`[data-answer="error"]`, "400 Invalid request body: data: data is required")

	// A workflow run.
	p.click(`#nav-workflows a[href="/workflows/greeting"]`)
	p.waitText(".view.workflow h1", "greeting")
	p.waitText(".view.workflow .steps", "greet — Greets someone")
	p.fill(`[name="name"]`, "Bo")
	p.click(`.view.workflow form button[type="submit"]`)
	p.waitText(`[data-answer="ok"] [data-run-status]`, "success")
	p.waitText(`[data-answer="ok"] .result`, "Hello, Bo!")

	// Deep links load the page; unknown ones say so.
	p.open("/tools/get-weather")
	p.waitText(".view.tool", "needs approval")
	p.open("/tools/no-such-tool")
	p.waitText(".view h1", "Not found")
	p.checkConsole()
}

func TestBrowserChat(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)
	p.open("/agents/assistant")
	p.waitText(".view.chat h1", "Assistant")
	p.waitText(".view.chat .badges", "weather · approval")

	// A streamed answer, seen in the middle: the text first, then the
	// tool call with half its arguments.
	p.say("Check the weather slowly")
	p.waitText(".msg.assistant .msg-text", "Checking ")
	if got := p.text(".msg.assistant .msg-text"); strings.Contains(got, "slowly.") {
		t.Fatalf("the text was complete before the model went on: %q", got)
	}
	p.release(app)
	p.waitText(".msg.assistant .msg-text", "Checking the weather slowly.")
	p.waitJS("partial arguments", `(() => { const a = document.querySelector('.tool-card[data-tool-name="weather"] .tool-args'); return !!a && a.dataset.state === 'repaired-parse' && a.textContent === '{"city":"Pa"}'; })()`)
	p.release(app)

	// The call waits for approval; approving runs it and the answer
	// follows.
	card := `.tool-card[data-tool-call-id="call-1"]`
	p.waitJS("the approval request", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'approval'`, js(card)))
	if got := p.text(card + " .tool-args"); got != `{"city":"Paris"}` {
		t.Errorf("arguments = %q", got)
	}
	p.waitIdle()
	p.click(card + ` [data-action="approve"]`)
	p.waitJS("the tool result", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'done'`, js(card)))
	p.waitText(card+" .tool-result", `"conditions":"sunny"`)
	p.waitText(".msg.assistant .msg-text", "It is 21°C and sunny in Paris.")

	// A second turn: ask_user suspends; a choice answers it.
	p.say("What is my favourite colour?")
	ask := `.tool-card[data-tool-call-id="call-2"]`
	p.waitJS("the question", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'suspended'`, js(ask)))
	p.waitText(ask+" .question", "Which colour do you like?")
	p.waitText(ask+` [data-option="Red"]`, "warm")
	p.waitIdle()
	p.click(ask + ` [data-option="Blue"]`)
	p.waitText(ask+" .tool-result", "User answered: Blue")
	p.waitText(".msg.assistant .msg-text", "Noted: Blue.")

	// A typed answer.
	p.say("And another colour?")
	ask = `.tool-card[data-tool-call-id="call-3"]`
	p.waitJS("the second question", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'suspended'`, js(ask)))
	p.waitIdle()
	p.fill(ask+" .answer-input", "Green\n")
	p.waitText(ask+" .answered", "You answered: Green")
	p.waitText(".msg.assistant .msg-text", "Noted: Green.")

	// Declining: the run goes on without the tool.
	p.say("The weather again?")
	card = `.tool-card[data-tool-call-id="call-4"]`
	p.waitJS("the second approval request", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'approval'`, js(card)))
	p.waitIdle()
	p.fill(card+" input.reason", "not now")
	p.click(card + ` [data-action="decline"]`)
	p.waitText(".msg.assistant .msg-text", "The weather call was declined.")
	p.waitJS("the declined card", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'declined'`, js(card)))

	// The thread kept every turn.
	p.say("How many messages so far?")
	p.waitText(".msg.assistant .msg-text", "You have sent 5 messages in this thread.")

	// A call left waiting survives a reload: the thread's history shows it
	// in its message, with its decision.
	p.say("weather, then reload")
	p.waitJS("the third approval request", `document.querySelector('.tool-card[data-tool-call-id="call-5"]')?.dataset.status === 'approval'`)
	p.waitIdle()
	p.open("/agents/assistant")
	card = `.tool-card[data-tool-call-id="call-5"]`
	p.waitJS("the waiting call after the reload", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'approval'`, js(card)))
	if n := evalJS[int](p, fmt.Sprintf(`document.querySelectorAll('.msg.assistant[data-history="true"] ' + %s).length`, js(card))); n != 1 {
		t.Errorf("the waiting call is in %d history messages, want 1", n)
	}
	p.click(card + ` [data-action="approve"]`)
	p.waitText(".msg.assistant .msg-text", "It is 21°C and sunny in Paris.")

	// A new conversation is a new thread.
	thread := p.text(".thread-id")
	p.waitIdle()
	p.click(`.thread button`)
	if got := p.text(".thread-id"); got == thread || got == "" {
		t.Errorf("new thread id = %q (was %q)", got, thread)
	}
	p.say("how many now?")
	p.waitText(".msg.assistant .msg-text", "You have sent 1 messages in this thread.")

	// Stop ends a stream in the middle; the call it left is marked.
	p.say("weather, slowly, then stop")
	p.waitText(".msg.assistant .msg-text", "Checking ")
	p.release(app)
	p.waitJS("partial arguments", `document.querySelector('.tool-card[data-tool-call-id="call-6"] .tool-args')?.dataset.state === 'repaired-parse'`)
	p.click(".composer button:not([type=submit])")
	p.waitText(".msg.assistant .msg-note", "Stopped.")
	p.waitJS("the unfinished call", `document.querySelector('.tool-card[data-tool-call-id="call-6"]')?.dataset.status === 'unfinished'`)
	p.say("still there?")
	p.waitText(".msg.assistant .msg-text", "You said: still there?")
	p.checkConsole()
}

func TestBrowserBearerToken(t *testing.T) {
	app := newTestApp(t, server.Options{BearerToken: "s3cret", Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)

	// The page itself is public; the API refuses it until the token is set.
	p.open("/")
	p.waitText("#nav-agents", "401 Unauthorized (set the bearer token in Settings)")
	p.waitText("#connection", "refused")

	p.click("#settings-button")
	p.fill("#settings-token", "s3cret")
	p.click(`#settings-form button[value="save"]`)
	p.waitText("#nav-agents", "Assistant")
	p.waitText("#connection", "Token set")
	if got := evalJS[string](p, `localStorage.getItem('gomastra.studio.token')`); got != "s3cret" {
		t.Errorf("stored token = %q", got)
	}

	// It is kept across loads and sent with streams too.
	p.open("/agents/assistant")
	p.say("hello there")
	p.waitText(".msg.assistant .msg-text", "You said: hello there")

	// Clearing it takes the API away again.
	p.click("#settings-button")
	p.click(`#settings-form button[value="clear"]`)
	p.waitText("#nav-agents", "401")
	if got := evalJS[bool](p, `localStorage.getItem('gomastra.studio.token') === null`); !got {
		t.Error("the token is still stored after Clear")
	}
	p.checkConsole()
}

// TestBrowserSuspendedAndFailingTools answers a tool that suspends with
// its own payload (not a question): the page makes a form from the call's
// resume schema, and a tool that suspends again gets a fresh form. Then a
// tool fails, and its error is shown on its card.
func TestBrowserSuspendedAndFailingTools(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)
	p.open("/agents/assistant")
	p.say("Book two seats")
	card := `.tool-card[data-tool-name="book"]`
	p.waitJS("the suspended call", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'suspended'`, js(card)))
	p.waitText(card+" .decision", "book is waiting for data to continue.")
	p.waitText(card+" .decision .json", `"held": 2`)

	// Not confirmed: the tool asks again, and the form is a new one.
	p.waitIdle()
	p.click(card + ` .decision button[type="submit"]`)
	p.waitText(card+" .decision .json", `"asked": 2`)
	p.waitIdle()
	if n := evalJS[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, js(card+" .answered"))); n != 0 {
		t.Errorf("the first answer's note replaced the second question (%d notes)", n)
	}
	if got := p.text(card + " .tool-status"); got != "Waiting for your answer" {
		t.Errorf("status %q after the second suspension", got)
	}

	// Confirmed, with a note: the call completes.
	p.do("confirm", chromedp.Click(chromedp.CSS(card+` [name="confirm"]`), chromedp.NodeVisible))
	p.fill(card+` [name="note"]`, "window")
	p.click(card + ` .decision button[type="submit"]`)
	p.waitText(card+" .tool-result", `{"booked":true,"note":"window"}`)
	p.waitText(".msg.assistant .msg-text", `Booked: {"booked":true,"note":"window"}.`)

	p.say("explode, please")
	card = `.tool-card[data-tool-name="explode"]`
	p.waitJS("the failed call", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'error'`, js(card)))
	p.waitText(card+" .tool-error", "the fuse blew")
	p.waitText(".msg.assistant .msg-text", "The explode call failed.")
	p.checkConsole()
}
