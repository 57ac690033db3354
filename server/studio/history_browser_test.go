package studio

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gomastra/mastra/server"
)

// After a reload the chat shows its thread's earlier messages from the
// memory API: the user's messages, the answers' text, a tool call with
// its arguments and result, and a call still waiting, whose question is
// answered in place. The thread list switches between the chat's
// threads.
func TestBrowserChatHistoryAfterReload(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)
	p.open("/agents/assistant")
	p.waitText(".view.chat h1", "Assistant")

	p.say("Check the weather")
	card := `.tool-card[data-tool-call-id="call-1"]`
	p.waitJS("the approval request", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'approval'`, js(card)))
	p.waitIdle()
	p.click(card + ` [data-action="approve"]`)
	p.waitText(".msg.assistant .msg-text", "It is 21°C and sunny in Paris.")
	p.say("What is my favourite colour?")
	ask := `.tool-card[data-tool-call-id="call-2"]`
	p.waitJS("the question", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'suspended'`, js(ask)))
	p.waitIdle()
	firstThread := p.text(".thread-id")

	p.open("/agents/assistant")
	p.waitJS("the thread loaded", `document.querySelector('.view.chat')?.dataset.loaded === 'true'`)
	if got := p.text(".thread-id"); got != firstThread {
		t.Fatalf("the reload opened thread %q, want %q", got, firstThread)
	}
	users := evalJS[[]string](p, `[...document.querySelectorAll('.msg.user .msg-text')].map((e) => e.textContent)`)
	if fmt.Sprint(users) != "[Check the weather What is my favourite colour?]" {
		t.Errorf("user messages after the reload: %q", users)
	}
	texts := evalJS[[]string](p, `[...document.querySelectorAll('.msg.assistant .msg-text')].map((e) => e.textContent)`)
	if fmt.Sprint(texts) != "[Let me check.  It is 21°C and sunny in Paris.]" {
		t.Errorf("the answers' text after the reload: %q", texts)
	}
	p.waitJS("the finished call", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'done'`, js(card)))
	if got := p.text(card + " .tool-args"); got != `{"city":"Paris"}` {
		t.Errorf("arguments after the reload = %q", got)
	}
	p.waitText(card+" .tool-result", `"conditions":"sunny"`)
	if n := evalJS[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, js(ask))); n != 1 {
		t.Errorf("the waiting call is shown %d times, want once (in its place)", n)
	}
	p.waitJS("the waiting question", fmt.Sprintf(`document.querySelector(%s)?.dataset.status === 'suspended'`, js(ask)))
	p.waitText(ask+" .question", "Which colour do you like?")
	if got := evalJS[string](p, fmt.Sprintf(`JSON.stringify(JSON.parse(document.querySelector(%s).textContent))`, js(ask+" .tool-args"))); got != `{"question":"Which colour do you like?","options":[{"label":"Red","description":"warm"},{"label":"Blue"}]}` {
		t.Errorf("the waiting call's arguments = %q", got)
	}
	p.click(ask + ` [data-option="Blue"]`)
	p.waitText(ask+" .tool-result", "User answered: Blue")
	p.waitText(".msg.assistant:last-of-type .msg-text", "Noted: Blue.")

	// A second thread, then back to the first through the list.
	p.waitIdle()
	p.click(`.thread button.button`) // New conversation
	p.say("Hello there")
	p.waitText(".msg.assistant .msg-text", "You said: hello there")
	p.waitIdle()
	p.click(".threads summary")
	p.waitJS("two threads listed", `document.querySelectorAll('.thread-list .thread-pick').length === 2`)
	p.click(fmt.Sprintf(`.thread-pick[data-thread-id=%q]`, firstThread))
	p.waitJS("the first thread loaded", `document.querySelector('.view.chat')?.dataset.loaded === 'true'`)
	p.waitText(".msg.assistant", "Noted: Blue.")
	if got := p.text(".chat-log"); got == "" || strings.Contains(got, "hello there") {
		t.Errorf("the first thread shows the second's messages: %q", got)
	}
	p.checkConsole()
}
