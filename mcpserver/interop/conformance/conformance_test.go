package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gomastra/mastra/mcpserver/interop/conformance"
	"github.com/gomastra/mastra/mcpserver/interop/peer"
)

// The official conformance suite's server scenarios, for the 2025-11-25
// and 2026-07-28 requirement sets, against the conformance server on
// streamable HTTP (127.0.0.1). The run passes when every failure is one
// ../conformance-baseline.yml expects (and none of those passes); the
// counts are logged (go test -v).
func TestConformanceSuite(t *testing.T) {
	p := peer.Find(t)
	ts := serveConformance(t)
	for _, requirements := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(requirements, func(t *testing.T) {
			out := t.TempDir()
			if dir := os.Getenv("GOMASTRA_MCP_CONFORMANCE_OUT"); dir != "" {
				out = filepath.Join(dir, requirements)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := p.Command(ctx, "node_modules/@modelcontextprotocol/conformance/dist/index.js", "server",
				"--url", ts.URL+"/mcp", "--requirements", requirements,
				"--expected-failures", "conformance-baseline.yml", "-o", out)
			output, err := cmd.CombinedOutput()
			s := summarize(t, out)
			t.Logf("requirements %s: scenarios %d passed, %d failed; checks %d passed, %d failed, %d warnings",
				requirements, s.scenariosPassed, s.scenariosFailed, s.checksPassed, s.checksFailed, s.checksWarned)
			if m := totalLine.Find(output); m != nil {
				t.Logf("suite summary: %s", m)
			}
			if err != nil {
				t.Errorf("the suite failed (%v):\n%s", err, tail(output, 4000))
			}
		})
	}
}

var totalLine = regexp.MustCompile(`Total: \d+ passed, \d+ failed`)

type summary struct {
	scenariosPassed, scenariosFailed         int
	checksPassed, checksFailed, checksWarned int
}

// summarize counts the results the suite saved (one checks.json per
// scenario).
func summarize(t *testing.T, dir string) summary {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	var s summary
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(raw, &checks); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		failed := false
		for _, c := range checks {
			switch c.Status {
			case "SUCCESS":
				s.checksPassed++
			case "FAILURE":
				s.checksFailed++
				failed = true
			case "WARNING":
				s.checksWarned++
			}
		}
		if failed {
			s.scenariosFailed++
		} else {
			s.scenariosPassed++
		}
	}
	return s
}

func tail(b []byte, n int) []byte {
	b = bytes.TrimSpace(b)
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// serveConformance serves the conformance server's streamable HTTP
// transport at /mcp on 127.0.0.1 until the test ends.
func serveConformance(t *testing.T) *httptest.Server {
	t.Helper()
	srv, err := conformance.New(conformance.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}
