package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// exchange is one recorded HTTP request and its response.
type exchange struct {
	method, url string // url: path and query, e.g. /api/tools/add/execute?runId=r
	reqBody     string
	status      int
	contentType string
	resBody     string
}

// loadHTTPFile reads a .http recording of spec/http/cli: request line,
// headers, blank line, body; "### response"; status line, headers, blank
// line, body. JSON bodies there are pretty-printed; the API schema body is
// a reference to a separate file, replaced by testdata/api-schema.json.
func loadHTTPFile(t *testing.T, path string) exchange {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	req, res, ok := strings.Cut(string(raw), "\n### response\n")
	if !ok {
		t.Fatalf("%s: no response section", path)
	}
	reqHead, reqBody, _ := strings.Cut(req, "\n\n")
	resHead, resBody, _ := strings.Cut(res, "\n\n")
	var ex exchange
	line, headers, _ := strings.Cut(reqHead, "\n")
	_ = headers
	parts := strings.Fields(line)
	ex.method, ex.url = parts[0], parts[1]
	ex.reqBody = strings.TrimSpace(reqBody)
	statusLine, resHeaders, _ := strings.Cut(resHead, "\n")
	ex.status, err = strconv.Atoi(strings.Fields(statusLine)[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range strings.Split(resHeaders, "\n") {
		if name, value, ok := strings.Cut(h, ": "); ok && strings.EqualFold(name, "content-type") {
			ex.contentType = value
		}
	}
	ex.resBody = strings.TrimSuffix(resBody, "\n")
	if strings.HasPrefix(ex.resBody, "<<") && strings.Contains(ex.resBody, "system-api-schema.json") {
		ex.resBody = apiSchemaManifest(t)
	}
	return ex
}

// loadJSONL reads the exchanges testdata/captured/<case>.jsonl holds (the
// proxy's log of one CLI run; bodies verbatim).
func loadJSONL(t *testing.T, path string) []exchange {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []exchange
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Method     string            `json:"method"`
			URL        string            `json:"url"`
			ReqBody    string            `json:"reqBody"`
			Status     int               `json:"status"`
			ResHeaders map[string]string `json:"resHeaders"`
			ResBody    string            `json:"resBody"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		ex := exchange{method: rec.Method, url: rec.URL, reqBody: rec.ReqBody, status: rec.Status,
			contentType: rec.ResHeaders["content-type"], resBody: rec.ResBody}
		if ex.resBody == "@api-schema.json" {
			ex.resBody = apiSchemaManifest(t)
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// apiSchemaManifest is the route manifest (GET /api/system/api-schema):
// the routes of the recorded manifest the CLI commands use.
func apiSchemaManifest(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "api-schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameJSON compares a recorded body (maybe pretty-printed) with a sent one,
// as JSON texts rendered by JSON.stringify; other bodies byte for byte.
func sameJSON(recorded, sent string) bool {
	if recorded == sent {
		return true
	}
	a, errA := parseJSON(recorded)
	b, errB := parseJSON(sent)
	if errA != nil || errB != nil {
		return false
	}
	return stringify(a, false) == stringify(b, false) && stringify(b, false) == sent
}

// replayer serves recorded exchanges. In sequence mode every request must
// be the next recorded one; otherwise requests are matched by method, URL
// and body.
type replayer struct {
	t        *testing.T
	sequence bool
	mu       sync.Mutex
	pending  []exchange
	all      []exchange
}

func newReplayServer(t *testing.T, exchanges []exchange, sequence bool) (*httptest.Server, *replayer) {
	t.Helper()
	r := &replayer{t: t, sequence: sequence, pending: exchanges, all: exchanges}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv, r
}

func (r *replayer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	var ex *exchange
	if r.sequence {
		if len(r.pending) > 0 {
			ex = &r.pending[0]
			r.pending = r.pending[1:]
		}
	} else {
		// Same method and URL; among those, the one with this body.
		for i := range r.all {
			if r.all[i].method == req.Method && r.all[i].url == req.URL.RequestURI() {
				if ex == nil || sameJSON(r.all[i].reqBody, string(body)) {
					ex = &r.all[i]
				}
			}
		}
	}
	r.mu.Unlock()
	if ex == nil {
		r.t.Errorf("unexpected request %s %s", req.Method, req.URL.RequestURI())
		http.Error(w, "no recording", http.StatusTeapot)
		return
	}
	if ex.method != req.Method || ex.url != req.URL.RequestURI() {
		r.t.Errorf("request %s %s, recorded %s %s", req.Method, req.URL.RequestURI(), ex.method, ex.url)
	}
	if !sameJSON(ex.reqBody, string(body)) {
		r.t.Errorf("%s %s: body %q, recorded %q", req.Method, req.URL.RequestURI(), body, ex.reqBody)
	}
	if ex.reqBody != "" && req.Header.Get("Content-Type") != "application/json" {
		r.t.Errorf("%s %s: content-type %q", req.Method, req.URL.RequestURI(), req.Header.Get("Content-Type"))
	}
	if ex.contentType != "" {
		w.Header().Set("Content-Type", ex.contentType)
	}
	w.WriteHeader(ex.status)
	_, _ = io.WriteString(w, ex.resBody)
}

// unused reports recorded exchanges a sequence replay did not serve.
func (r *replayer) unused() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pending
}

// transcript is a recorded CLI run.
type transcript struct {
	command        string
	stdout, stderr string
	code           int
}

// loadTranscript reads a .txt recording: "$ mastra ..." then either
// [stdout]/[stderr] sections (testdata/captured) or the output alone
// (spec/http/cli: stdout on success, stderr on failure), then "[exit N]".
func loadTranscript(t *testing.T, path string) transcript {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	first, rest, _ := strings.Cut(s, "\n")
	var tr transcript
	tr.command = strings.TrimPrefix(first, "$ ")
	i := strings.LastIndex(rest, "[exit ")
	if i < 0 {
		t.Fatalf("%s: no exit line", path)
	}
	tr.code, err = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest[i+len("[exit "):]), "]"))
	if err != nil {
		t.Fatal(err)
	}
	out := rest[:i]
	if strings.HasPrefix(out, "[stdout]\n") {
		stdout, stderr, ok := strings.Cut(strings.TrimPrefix(out, "[stdout]\n"), "[stderr]\n")
		if !ok {
			t.Fatalf("%s: no [stderr] section", path)
		}
		tr.stdout, tr.stderr = stdout, stderr
	} else if tr.code == 0 {
		tr.stdout = out
	} else {
		tr.stderr = out
	}
	return tr
}

// runCLI runs the CLI in-process with cfg and returns what it printed.
func runCLI(t *testing.T, cfg *apiConfig, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = runAPI(ctx, cfg, args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// testConfig is an apiConfig whose default server is local (a closed
// port unless the test says otherwise) and whose environment is env.
func testConfig(t *testing.T, localURL string, env map[string]string) *apiConfig {
	t.Helper()
	if localURL == "" {
		localURL = closedURL(t)
	}
	return &apiConfig{
		getenv:       func(k string) string { return env[k] },
		localURL:     localURL,
		probeTimeout: time.Second,
	}
}

// closedURL is the address of a listener on 127.0.0.1 that has been
// closed, so connecting to it is refused.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

func diffText(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s differs\n got: %q\nwant: %q", what, clip(got), clip(want))
	}
}

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}
