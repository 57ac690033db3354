package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// clientRecording is what client.mjs printed against real Mastra (the
// twin apps of testdata/twin, Mastra 1.71); see testdata/README.md.
const clientRecording = "testdata/mastra-client.json"

// clientTimeout bounds the whole client.mjs run (a few seconds when idle;
// generous for a loaded 2-core machine running the race detector).
const clientTimeout = 3 * time.Minute

// clientOutEnv names a file to write client.mjs's report against the Go
// server to (for studying a failure next to the recording).
const clientOutEnv = "COMPAT_CLIENT_OUT"

// clientReport is client.mjs's output.
type clientReport struct {
	Steps []clientStep `json:"steps"`
}

type clientStep struct {
	Name  string          `json:"name"`
	OK    bool            `json:"ok"`
	Error string          `json:"error"`
	Value json.RawMessage `json:"value"`
	Log   []string        `json:"log"`
}

func decodeReport(b []byte) (clientReport, error) {
	var r clientReport
	err := json.Unmarshal(b, &r)
	return r, err
}

// TestClientJS runs client.mjs, Mastra's @mastra/client-js, against the Go
// server. For each step of the script, three subtests: checks (the
// script's own assertions passed, and the client logged what it logged
// with real Mastra), values (the client observed the values it observed
// with real Mastra, ids and times aside, see normalize, and the documented
// allowances aside), key-order (and in the same member order).
func TestClientJS(t *testing.T) {
	t.Parallel()
	tc := needToolchain(t)
	raw, err := os.ReadFile(clientRecording)
	if err != nil {
		t.Fatal(err)
	}
	want, err := decodeReport(raw)
	if err != nil {
		t.Fatalf("%s: %v", clientRecording, err)
	}
	anchorURL := serve(t, anchorApp(t))
	flowsURL := serve(t, flowsApp(t))
	memoryURL := serve(t, memoryApp(t))

	res := tc.run(t, clientTimeout, t.TempDir(), filepath.Join(tc.bin, "node"), filepath.Join(tc.dir, "client.mjs"), anchorURL, flowsURL, memoryURL)
	if res.code != 0 {
		t.Fatalf("client.mjs exit %d\nstderr: %s", res.code, clip(res.stderr))
	}
	if res.stderr != "" {
		t.Errorf("client.mjs wrote to stderr outside its steps:\n%s", clip(res.stderr))
	}
	if out := os.Getenv(clientOutEnv); out != "" {
		if err := os.WriteFile(out, []byte(res.stdout), 0o644); err != nil {
			t.Errorf("%s: %v", clientOutEnv, err)
		}
	}
	got, err := decodeReport([]byte(res.stdout))
	if err != nil {
		t.Fatalf("client.mjs output: %v\n%s", err, clip(res.stdout))
	}

	names := func(r clientReport) []string {
		var n []string
		for _, s := range r.Steps {
			n = append(n, s.Name)
		}
		return n
	}
	if !slices.Equal(names(got), names(want)) {
		t.Fatalf("client.mjs ran steps %q, the recording has %q (re-record it after changing the script)", names(got), names(want))
	}
	for i, w := range want.Steps {
		g := got.Steps[i]
		t.Run(w.Name, func(t *testing.T) {
			if !w.OK {
				t.Fatalf("the recording's step failed against real Mastra: %s", w.Error)
			}
			t.Run("checks", func(t *testing.T) {
				if !g.OK {
					t.Errorf("client check failed against the Go server:\n%s", g.Error)
				}
				if !slices.Equal(g.Log, w.Log) {
					t.Errorf("the client logged\n%q\nwith real Mastra it logged\n%q", g.Log, w.Log)
				}
			})
			d, err := compareAnswers(string(w.Value), string(g.Value))
			if err != nil {
				t.Fatalf("undecodable step value: %v", err)
			}
			t.Run("values", func(t *testing.T) { reportLines(t, "the client saw other values than with real Mastra", d.values) })
			t.Run("key-order", func(t *testing.T) {
				reportLines(t, "the client saw objects whose members come in another order than real Mastra's", d.order)
			})
		})
	}
}

// reportLines fails t with what and a bounded number of lines, if any.
func reportLines(t *testing.T, what string, lines []string) {
	t.Helper()
	const most = 25
	if len(lines) == 0 {
		return
	}
	if len(lines) > most {
		lines = append(lines[:most:most], fmt.Sprintf("… and %d more", len(lines)-most))
	}
	t.Errorf("%s:\n%s", what, strings.Join(lines, "\n"))
}
