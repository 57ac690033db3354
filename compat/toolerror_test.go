package compat

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The runs of the mastra CLI against server-toolerror.mjs (an agent whose
// tool always fails) were recorded with this --url; brokenApp is that
// server's Go twin.
const toolErrorHost = "http://127.0.0.1:4600"

// recordedExchange is one line of a captured case's .jsonl: a request the
// CLI made and what real Mastra answered.
type recordedExchange struct {
	Method  string `json:"method"`
	URL     string `json:"url"`
	ReqBody string `json:"reqBody"`
	Status  int    `json:"status"`
	ResBody string `json:"resBody"`
}

func readExchanges(t *testing.T, path string) []recordedExchange {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []recordedExchange
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e recordedExchange
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("%s: %d exchanges (%v)", path, len(out), err)
	}
	return out
}

// TestGenerateToolErrorMatchesMastra sends the recorded generate request
// of agent-run-toolerror to the Go server and requires real Mastra's
// answer, ids, times and the allowances aside: in particular the failed
// call as a "tool-result" part with an "error-text" output in
// steps[0].content and in the steps' and the run's response messages.
// It needs no Node toolchain.
func TestGenerateToolErrorMatchesMastra(t *testing.T) {
	t.Parallel()
	url := serve(t, brokenApp(t))
	for _, ex := range readExchanges(t, filepath.Join(capturedDir, "agent-run-toolerror.jsonl")) {
		req, err := http.NewRequest(ex.Method, url+ex.URL, strings.NewReader(ex.ReqBody))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != ex.Status {
			t.Fatalf("%s %s: status %d, real Mastra %d: %s", ex.Method, ex.URL, res.StatusCode, ex.Status, clip(string(body)))
		}
		d, err := compareAnswers(ex.ResBody, string(body))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range append(d.values, d.order...) {
			t.Errorf("%s %s: %s", ex.Method, ex.URL, line)
		}
		if !strings.Contains(string(body), `"output":{"type":"error-text","value":"adder offline: cannot add 2 and 3"}`) {
			t.Errorf("no error-text tool output in %s", clip(string(body)))
		}
	}
}

// TestCLIToolErrors replays the captured runs against server-toolerror.mjs
// with the real CLI against the Go twin.
func TestCLIToolErrors(t *testing.T) {
	t.Parallel()
	tc := needToolchain(t)
	cases, err := capturedCasesAt(toolErrorHost)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no captured case uses %s", toolErrorHost)
	}
	url := serve(t, brokenApp(t))
	for _, tr := range cases {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			runTranscriptAt(t, tc, url, toolErrorHost, tr)
		})
	}
}
