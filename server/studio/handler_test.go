package studio

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/server"
)

func get(t *testing.T, h http.Handler, method, target string, hdr ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHandlerServes(t *testing.T) {
	h := Handler(Options{})
	index := get(t, h, "GET", "/")
	indexETag := index.Header.Get("ETag")
	indexBody := body(t, index)
	cases := []struct {
		method, path string
		status       int
		contentType  string
		isIndex      bool
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", true},
		{"GET", "/index.html", 200, "text/html; charset=utf-8", true},
		{"GET", "/agents/weather-agent", 200, "text/html; charset=utf-8", true},
		{"GET", "/tools/weather-tool", 200, "text/html; charset=utf-8", true},
		{"GET", "/workflows/a/b/c", 200, "text/html; charset=utf-8", true},
		{"GET", "/agents/agent.v2", 200, "text/html; charset=utf-8", true},
		{"GET", "/agents/x?tab=1", 200, "text/html; charset=utf-8", true},
		{"GET", "/assets/studio.css", 200, "text/css; charset=utf-8", false},
		{"GET", "/assets/js/main.js", 200, "text/javascript; charset=utf-8", false},
		{"GET", "/assets/js/views/chat.js", 200, "text/javascript; charset=utf-8", false},
		{"GET", "/assets/favicon.svg", 200, "image/svg+xml", false},
		{"GET", "/assets/js/../studio.css", 200, "text/css; charset=utf-8", false},
		{"HEAD", "/", 200, "text/html; charset=utf-8", true},
		{"HEAD", "/assets/js/api.js", 200, "text/javascript; charset=utf-8", false},
		{"GET", "/assets/nope.js", 404, "text/plain; charset=utf-8", false},
		{"GET", "/assets/js/nope", 404, "text/plain; charset=utf-8", false},
		{"GET", "/assets/", 404, "text/plain; charset=utf-8", false},
		{"GET", "/assets", 404, "text/plain; charset=utf-8", false},
		{"GET", "/assets/index.html", 404, "text/plain; charset=utf-8", false},
		{"GET", "/favicon.ico", 404, "text/plain; charset=utf-8", false},
		{"GET", "/robots.txt", 404, "text/plain; charset=utf-8", false},
		{"GET", "/agents/x/main.JS", 404, "text/plain; charset=utf-8", false},
		{"POST", "/", 405, "text/plain; charset=utf-8", false},
		{"DELETE", "/assets/studio.css", 405, "text/plain; charset=utf-8", false},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			resp := get(t, h, c.method, c.path)
			b := body(t, resp)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, c.status, b)
			}
			if got := resp.Header.Get("Content-Type"); got != c.contentType {
				t.Errorf("Content-Type %q, want %q", got, c.contentType)
			}
			for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"} {
				if got := resp.Header.Get(k); got != want {
					t.Errorf("%s %q, want %q", k, got, want)
				}
			}
			if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("Content-Security-Policy %q", resp.Header.Get("Content-Security-Policy"))
			}
			if c.status == 405 && resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow %q", resp.Header.Get("Allow"))
			}
			if c.status != 200 {
				return
			}
			if resp.Header.Get("ETag") == "" {
				t.Error("no ETag")
			}
			if c.method == "HEAD" {
				if b != "" {
					t.Errorf("HEAD has a body of %d bytes", len(b))
				}
				if resp.Header.Get("Content-Length") == "" || resp.Header.Get("Content-Length") == "0" {
					t.Errorf("HEAD Content-Length %q", resp.Header.Get("Content-Length"))
				}
			} else if len(b) == 0 {
				t.Error("empty body")
			}
			if c.isIndex {
				if resp.Header.Get("ETag") != indexETag {
					t.Errorf("ETag %q, want the page's %q", resp.Header.Get("ETag"), indexETag)
				}
				if c.method == "GET" && b != indexBody {
					t.Error("not the page")
				}
			} else if resp.Header.Get("ETag") == indexETag {
				t.Error("an asset has the page's ETag")
			}
		})
	}
}

func TestHandlerConditionalAndRange(t *testing.T) {
	h := Handler(Options{})
	first := get(t, h, "GET", "/assets/js/main.js")
	full := body(t, first)
	etag := first.Header.Get("ETag")
	if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(etag) {
		t.Fatalf("ETag %q is not a strong hash", etag)
	}
	resp := get(t, h, "GET", "/assets/js/main.js", "If-None-Match", etag)
	if resp.StatusCode != http.StatusNotModified || body(t, resp) != "" {
		t.Errorf("If-None-Match: status %d, want 304 with no body", resp.StatusCode)
	}
	resp = get(t, h, "GET", "/assets/js/main.js", "If-None-Match", `"other"`)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("If-None-Match another tag: status %d, want 200", resp.StatusCode)
	}
	resp = get(t, h, "GET", "/assets/js/main.js", "Range", "bytes=0-9")
	if got := body(t, resp); resp.StatusCode != http.StatusPartialContent || got != full[:10] {
		t.Errorf("Range: status %d body %q, want 206 %q", resp.StatusCode, got, full[:10])
	}
	page := get(t, h, "GET", "/somewhere")
	resp = get(t, h, "GET", "/elsewhere", "If-None-Match", page.Header.Get("ETag"))
	if resp.StatusCode != http.StatusNotModified {
		t.Errorf("the page revalidated: status %d, want 304", resp.StatusCode)
	}
}

func TestHandlerOptions(t *testing.T) {
	cases := []struct {
		opts          Options
		prefix, title string
	}{
		{Options{}, "/api", "Mastra Studio"},
		{Options{APIPrefix: "v1/", Title: "  "}, "/v1", "Mastra Studio"},
		{Options{APIPrefix: "/custom/api/"}, "/custom/api", "Mastra Studio"},
		{Options{APIPrefix: "/"}, "", "Mastra Studio"},
		{Options{Title: `My <b>"studio"</b> & co`}, "/api", "My &lt;b&gt;&#34;studio&#34;&lt;/b&gt; &amp; co"},
	}
	for _, c := range cases {
		page := body(t, get(t, Handler(c.opts), "GET", "/"))
		if want := `<meta name="mastra-api-prefix" content="` + c.prefix + `">`; !strings.Contains(page, want) {
			t.Errorf("%+v: page lacks %s", c.opts, want)
		}
		if want := "<title>" + c.title + "</title>"; !strings.Contains(page, want) {
			t.Errorf("%+v: page lacks %s", c.opts, want)
		}
		if strings.Contains(page, "{{") {
			t.Errorf("%+v: a placeholder is left in the page", c.opts)
		}
	}
}

// TestAssetsResolve checks, without a browser, that everything the page
// and its modules load is served: the page's src/href attributes and
// every module's static and dynamic imports.
func TestAssetsResolve(t *testing.T) {
	h := Handler(Options{})
	page := body(t, get(t, h, "GET", "/"))
	refs := regexp.MustCompile(`(?:src|href)="(/[^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 3 {
		t.Fatalf("the page references only %d files", len(refs))
	}
	for _, r := range refs {
		if r[1] == "/" {
			continue
		}
		if resp := get(t, h, "GET", r[1]); resp.StatusCode != 200 || strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("the page loads %s: status %d, %s", r[1], resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	importRE := regexp.MustCompile(`(?m)(?:^import\s[^'"]*from\s+|^import\s+|import\()'(\.{1,2}/[^']+)'`)
	modules := 0
	err := fs.WalkDir(files, "assets/js", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		modules++
		src, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		for _, m := range importRE.FindAllStringSubmatch(string(src), -1) {
			target := "/" + path.Join(path.Dir(name), m[1])
			if resp := get(t, h, "GET", target); resp.StatusCode != 200 {
				t.Errorf("%s imports %s: status %d", name, target, resp.StatusCode)
			}
		}
		// No network beyond the page's own origin, no HTML from strings.
		for _, bad := range []string{"http://", "https://", ".innerHTML", "eval(", "new Function"} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if modules < 8 {
		t.Errorf("only %d modules found", modules)
	}
}

// TestMountedOnServer serves the studio beside the API: the page
// outside the prefix, the API and /health unchanged.
func TestMountedOnServer(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	cases := []struct {
		method, path string
		status       int
		contentType  string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8"},
		{"GET", "/agents/assistant", 200, "text/html; charset=utf-8"},
		{"HEAD", "/tools/plan-trip", 200, "text/html; charset=utf-8"},
		{"GET", "/assets/js/main.js", 200, "text/javascript; charset=utf-8"},
		{"GET", "/assets/missing.css", 404, "text/plain; charset=utf-8"},
		{"GET", "/api/tools", 200, "application/json"},
		{"GET", "/api/agents/assistant", 200, "application/json"},
		{"GET", "/health", 200, "application/json"},
		{"POST", "/", 404, "text/plain; charset=UTF-8"},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, app.ts.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := app.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != c.contentType {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.status, c.contentType)
		}
	}
}

func TestHandlerConcurrent(t *testing.T) {
	h := Handler(Options{})
	paths := []string{"/", "/assets/studio.css", "/assets/js/main.js", "/agents/a", "/assets/none.js"}
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			p := paths[i%len(paths)]
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
			if rec.Code != 200 && rec.Code != 404 {
				t.Errorf("GET %s: %d", p, rec.Code)
			}
		})
	}
	wg.Wait()
}
