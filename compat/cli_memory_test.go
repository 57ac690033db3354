package compat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The runs of the mastra CLI's thread and memory commands against real
// Mastra's memory app (testdata/twin/twin-server.mjs memory, behind a
// logging proxy) were recorded with this --url, in the order of
// cases.json, on one server: later cases see the threads and messages
// earlier ones made (cmd/mastra/testdata/captured/record-memory.sh).
// memoryApp is that app's Go twin.
const memoryHost = "http://127.0.0.1:4700"

// memoryCLIDifferences are the memory cases whose output the Go server
// makes differ from real Mastra's, with the reason (the server's, not the
// CLI's). The gate still runs them, in their place, and fails when one
// comes out the same: then its entry is stale and must go.
var memoryCLIDifferences = map[string]string{}

// caseKind tells what a captured case asked of the server: nothing but
// the route catalogue (none: no request, or only --schema's read of it),
// only reads (GET), or a change.
type caseKind int

const (
	asksNothing caseKind = iota
	onlyReads
	changes
)

func kindOf(t *testing.T, name string) caseKind {
	t.Helper()
	path := filepath.Join(capturedDir, name+".jsonl")
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return asksNothing
	}
	kind := asksNothing
	for _, ex := range readExchanges(t, path) {
		switch {
		case ex.Method != "GET":
			return changes
		case !strings.HasSuffix(ex.URL, "/system/api-schema"):
			kind = onlyReads
		}
	}
	return kind
}

// TestCLIMemory replays the captured thread and memory commands with the
// real CLI against the Go twin of the memory app. The cases that make no
// request, or only read the route catalogue, run in parallel on a server
// of their own. The others run on one server in the recorded order, each
// seeing what the earlier ones changed; only reads that follow one
// another run in parallel.
func TestCLIMemory(t *testing.T) {
	t.Parallel()
	tc := needToolchain(t)
	cases, err := capturedCasesAt(memoryHost)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("only %d captured cases use %s", len(cases), memoryHost)
	}
	replay := func(t *testing.T, url string, tr transcript) {
		why, known := memoryCLIDifferences[tr.name]
		if !known {
			runTranscriptAt(t, tc, url, memoryHost, tr)
			return
		}
		res := cliOutput(t, tc, url, memoryHost, tr)
		if res.code == tr.code && normalize(res.stdout) == normalize(tr.stdout) && normalize(res.stderr) == normalize(tr.stderr) {
			t.Errorf("prints what real Mastra's CLI printed now: take %s out of memoryCLIDifferences", tr.name)
			return
		}
		t.Logf("differs from real Mastra's, as known: %s", why)
	}
	parallel := func(t *testing.T, url string, batch []transcript) {
		for _, tr := range batch {
			t.Run(tr.name, func(t *testing.T) {
				t.Parallel()
				replay(t, url, tr)
			})
		}
	}
	var stateless []transcript
	// steps are the stateful cases in order: a change alone, or a run of
	// reads.
	var steps [][]transcript
	reading := false
	for _, c := range cases {
		switch kindOf(t, c.name) {
		case asksNothing:
			stateless = append(stateless, c)
		case onlyReads:
			if !reading {
				steps = append(steps, nil)
			}
			steps[len(steps)-1] = append(steps[len(steps)-1], c)
			reading = true
		case changes:
			steps = append(steps, []transcript{c})
			reading = false
		}
	}
	t.Run("stateless", func(t *testing.T) {
		t.Parallel()
		url := serve(t, memoryApp(t))
		parallel(t, url, stateless)
	})
	t.Run("threads", func(t *testing.T) {
		t.Parallel()
		url := serve(t, memoryApp(t))
		for i, step := range steps {
			if len(step) == 1 {
				t.Run(step[0].name, func(t *testing.T) { replay(t, url, step[0]) })
				continue
			}
			// t.Run returns once the batch's parallel subtests are done.
			t.Run(fmt.Sprintf("reads-%d", i), func(t *testing.T) { parallel(t, url, step) })
		}
	})
}
