package studio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's Chromium, which the browser tests drive.
const chromiumPath = "/usr/bin/chromium"

// browserTimeout bounds a whole browser test; waitTimeout one wait for
// the page. Both are generous: the tests run on loaded 2-core machines.
const (
	browserTimeout = 4 * time.Minute
	waitTimeout    = 90 * time.Second
)

// page is a browser tab on the test app, with the console messages it
// has logged.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string
}

// newPage starts Chromium (headless, no network beyond 127.0.0.1, and a
// fresh profile: without a user-data-dir option the allocator makes a
// temporary one and removes it, after Chromium's last child process, when
// the test ends) and opens a tab. It skips the test when Chromium is not
// installed, unless GOMASTRA_REQUIRE_BROWSER=1.
func newPage(t *testing.T, base string) *page {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("GOMASTRA_REQUIRE_BROWSER") == "1" {
			t.Fatalf("GOMASTRA_REQUIRE_BROWSER=1 but Chromium is not installed at %s: %v", chromiumPath, err)
		}
		t.Skipf("Chromium is not installed at %s (set GOMASTRA_REQUIRE_BROWSER=1 to fail instead)", chromiumPath)
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("the browser may only visit 127.0.0.1, not %s", base)
	}
	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	t.Cleanup(cancel)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1280, 860),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("safebrowsing-disable-auto-update", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
		// Nothing beyond loopback: every host name fails to resolve but
		// 127.0.0.1, and every connection goes through a proxy that does
		// not exist (port 9, discard) unless it is to 127.0.0.1.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.ProxyServer("127.0.0.1:9"),
		chromedp.Flag("proxy-bypass-list", "127.0.0.1"),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	p := &page{t: t, ctx: tabCtx, base: base}
	console := chromedp.Console(tabCtx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range console {
			if err != nil {
				return
			}
			p.record(m)
		}
	}()
	t.Cleanup(func() {
		cancelTab()
		<-done
	})
	return p
}

// record notes what the page must not log: an uncaught exception, a
// console.error, a blocked resource (Content-Security-Policy). Failed
// requests the test provokes (4xx answers) are only logged.
func (p *page) record(m chromedp.ConsoleMessage) {
	text := fmt.Sprintf("%s [%s] %s (%s:%d)", m.Type, m.Source, m.Text, m.URL, m.Line)
	if m.Stack != nil && len(m.Stack.CallFrames) > 0 {
		f := m.Stack.CallFrames[0]
		text += fmt.Sprintf(" at %s (%s:%d)", f.FunctionName, f.URL, f.LineNumber)
	}
	p.t.Log("console:", text)
	if m.IsException() || (m.Type == chromedp.ConsoleError && m.Source != "network") {
		p.mu.Lock()
		p.problems = append(p.problems, text)
		p.mu.Unlock()
	}
}

// checkConsole fails the test if the page logged a problem.
func (p *page) checkConsole() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.problems {
		p.t.Errorf("the page logged: %s", pr)
	}
}

// do runs actions, failing the test (with a screenshot's worth of
// context: the page's text) when one fails.
func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.fatalf("%s: %v", what, err)
	}
}

func (p *page) fatalf(format string, args ...any) {
	p.t.Helper()
	p.checkConsole()
	body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector('main') ? document.querySelector('main').innerText : document.body.innerText`))
	p.t.Fatalf(format+"\n--- the page shows:\n%s", append(args, body)...)
}

// open loads a studio path and waits until the page is ready.
func (p *page) open(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.base+path))
	p.waitJS("the page to be ready", `document.body.dataset.ready === 'true'`)
}

// waitJS waits until the JavaScript expression is truthy.
func (p *page) waitJS(what, expr string) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(40*time.Millisecond), chromedp.WithPollingTimeout(waitTimeout)))
	if err != nil {
		p.fatalf("waiting for %s: %v", what, err)
	}
}

// js renders a Go value as a JavaScript literal.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // test helper: only called with plain values
	}
	return string(b)
}

// waitText waits until the element sel matches (the last one, when
// several do) contains text.
func (p *page) waitText(sel, text string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf("%q in %s", text, sel), fmt.Sprintf(
		`(() => { const all = document.querySelectorAll(%s); const el = all[all.length - 1]; return !!el && el.textContent.includes(%s); })()`,
		js(sel), js(text)))
}

// text returns the text of the last element sel matches.
func (p *page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`(() => { const all = document.querySelectorAll(%s); return all.length ? all[all.length - 1].textContent : ''; })()`, js(sel))))
	if err != nil {
		p.fatalf("reading %s: %v", sel, err)
	}
	return s
}

// evalJS evaluates a JavaScript expression (a promise is awaited) into T.
func evalJS[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// click clicks the element sel matches, once it is visible and enabled.
func (p *page) click(sel string) {
	p.t.Helper()
	p.waitJS(sel+" to be enabled", fmt.Sprintf(`(() => { const el = document.querySelector(%s); return !!el && !el.disabled && el.offsetParent !== null; })()`, js(sel)))
	p.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// fill replaces the value of the field sel matches.
func (p *page) fill(sel, value string) {
	p.t.Helper()
	p.do("fill "+sel, chromedp.WaitVisible(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%s).value = ''`, js(sel))),
		chromedp.SendKeys(chromedp.CSS(sel), value))
}

// release lets the app's gated model go on, failing when it is not
// waiting.
func (p *page) release(app *testApp) {
	p.t.Helper()
	select {
	case app.gate <- struct{}{}:
	case <-time.After(waitTimeout):
		p.fatalf("the gated model never waited")
	}
}

// waitIdle waits until the chat has no stream running.
func (p *page) waitIdle() {
	p.t.Helper()
	p.waitJS("the chat to be idle", `(() => { const c = document.querySelector('.view.chat'); return !!c && c.dataset.busy === 'false'; })()`)
}

// say sends a chat message by typing it and pressing Enter.
func (p *page) say(text string) {
	p.t.Helper()
	p.waitIdle()
	p.fill(".chat-input", text+"\n")
}
