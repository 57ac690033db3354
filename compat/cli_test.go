package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The mastra CLI's transcripts this gate replays against the Go server
// (cmd/mastra/testdata/README.md says how they were made):
//
//   - recorded/*.txt: spec/http/cli, made against the anchor's server.mjs;
//     the output is stdout on success, stderr on failure.
//   - captured/*.txt: more runs (cases.json), with [stdout] and [stderr]
//     apart, made against server-wf.mjs (server.mjs plus two workflows).
//     Only the cases that talked to that server (--url
//     http://127.0.0.1:4000) are replayed; the others exercise the CLI
//     alone (help texts, argument errors, an odd server).
//
// The anchor app (app_test.go) is the Go twin of server-wf.mjs, so both
// sets must come out the same, after normalize.
const (
	recordedDir  = "../cmd/mastra/testdata/recorded"
	capturedDir  = "../cmd/mastra/testdata/captured"
	recordedHost = "http://127.0.0.1:4000"
)

// cliTimeout bounds one CLI process (about a second and a half when idle).
const cliTimeout = 90 * time.Second

// transcript is one recorded CLI run.
type transcript struct {
	name           string
	args           []string // after "mastra"
	stdout, stderr string
	code           int
}

// readTranscript parses a .txt transcript: "$ mastra <args>", then either
// "[stdout]\n...[stderr]\n..." or the output alone (stdout when the exit
// code is 0, stderr otherwise), then "[exit N]\n".
func readTranscript(path string) (transcript, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return transcript{}, err
	}
	tr := transcript{name: strings.TrimSuffix(filepath.Base(path), ".txt")}
	first, rest, _ := strings.Cut(string(raw), "\n")
	if !strings.HasPrefix(first, "$ mastra ") {
		return tr, fmt.Errorf("%s: no \"$ mastra\" line", path)
	}
	tr.args = splitCommand(strings.TrimPrefix(first, "$ mastra "))
	i := strings.LastIndex(rest, "[exit ")
	if i < 0 || !strings.HasSuffix(rest, "]\n") {
		return tr, fmt.Errorf("%s: no [exit N] line", path)
	}
	if tr.code, err = strconv.Atoi(rest[i+len("[exit ") : len(rest)-2]); err != nil {
		return tr, fmt.Errorf("%s: exit line: %w", path, err)
	}
	out := rest[:i]
	if body, ok := strings.CutPrefix(out, "[stdout]\n"); ok {
		var found bool
		if tr.stdout, tr.stderr, found = strings.Cut(body, "[stderr]\n"); !found {
			return tr, fmt.Errorf("%s: [stdout] without [stderr]", path)
		}
	} else if tr.code == 0 {
		tr.stdout = out
	} else {
		tr.stderr = out
	}
	return tr, nil
}

// splitCommand rebuilds a recorded command's arguments: words split on
// spaces, except that everything from the first word starting with '{'
// is the one JSON argument it was when recorded.
func splitCommand(line string) []string {
	words := strings.Split(line, " ")
	for i, w := range words {
		if strings.HasPrefix(w, "{") {
			return append(words[:i:i], strings.Join(words[i:], " "))
		}
	}
	return words
}

// capturedCases returns the captured transcripts made against the
// workflow server, in the order they were made, with their exact
// arguments from cases.json.
func capturedCases() ([]transcript, error) { return capturedCasesAt(recordedHost) }

// capturedCasesAt returns the captured transcripts whose --url starts
// with host, in the order they were made.
func capturedCasesAt(host string) ([]transcript, error) {
	raw, err := os.ReadFile(filepath.Join(capturedDir, "cases.json"))
	if err != nil {
		return nil, err
	}
	var cases [][2]json.RawMessage
	if err := json.Unmarshal(raw, &cases); err != nil {
		return nil, fmt.Errorf("cases.json: %w", err)
	}
	var out []transcript
	for _, c := range cases {
		var name string
		var args []string
		if err := json.Unmarshal(c[0], &name); err != nil {
			return nil, fmt.Errorf("cases.json: %w", err)
		}
		if err := json.Unmarshal(c[1], &args); err != nil {
			return nil, fmt.Errorf("cases.json %s: %w", name, err)
		}
		if !usesServer(args, host) {
			continue
		}
		tr, err := readTranscript(filepath.Join(capturedDir, name+".txt"))
		if err != nil {
			return nil, err
		}
		tr.args = args
		out = append(out, tr)
	}
	return out, nil
}

func usesServer(args []string, host string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, host) {
			return true
		}
	}
	return false
}

// isStateful tells the cases whose answers depend on the workflow runs
// earlier cases made: `workflow run ...` commands.
func isStateful(tr transcript) bool {
	for i, a := range tr.args {
		if a == "workflow" && i+1 < len(tr.args) && tr.args[i+1] == "run" {
			return true
		}
	}
	return false
}

// runTranscript runs the real CLI with tr's arguments against the server
// at url and compares what it printed with the transcript.
func runTranscript(t *testing.T, tc toolchain, url string, tr transcript) {
	t.Helper()
	runTranscriptAt(t, tc, url, recordedHost, tr)
}

// runTranscriptAt is runTranscript for a transcript recorded against
// host.
func runTranscriptAt(t *testing.T, tc toolchain, url, host string, tr transcript) {
	t.Helper()
	res := cliOutput(t, tc, url, host, tr)
	compareOutput(t, "stdout", tr.stdout, res.stdout)
	compareOutput(t, "stderr", tr.stderr, res.stderr)
	if res.code != tr.code {
		t.Errorf("exit code %d, real Mastra's CLI %d", res.code, tr.code)
	}
}

// cliOutput runs the real CLI with tr's arguments, recorded against host,
// against the server at url; in what it printed, url is host again.
func cliOutput(t *testing.T, tc toolchain, url, host string, tr transcript) result {
	t.Helper()
	args := make([]string, len(tr.args))
	for i, a := range tr.args {
		args[i] = strings.Replace(a, host, url, 1)
	}
	res := tc.run(t, cliTimeout, t.TempDir(), tc.mastra, args...)
	// Outputs that name the server name the recorded one.
	res.stdout = strings.ReplaceAll(res.stdout, url, host)
	res.stderr = strings.ReplaceAll(res.stderr, url, host)
	return res
}

// compareOutput compares one output stream byte for byte after
// normalize; when they differ and both are JSON it says where.
func compareOutput(t *testing.T, what, want, got string) {
	t.Helper()
	want, got = normalize(want), normalize(got)
	if want == got {
		return
	}
	detail := ""
	if d, err := compareAnswers(want, got); err == nil {
		detail = strings.Join(append(d.values, d.order...), "\n")
	}
	t.Errorf("%s differs from real Mastra's\n real Mastra: %s\n          Go: %s\n%s", what, clip(want), clip(got), detail)
}

// TestCLIRecorded replays the recorded `mastra api` transcripts with the
// real CLI against the Go server.
func TestCLIRecorded(t *testing.T) {
	t.Parallel()
	tc := needToolchain(t)
	recorded, err := recordedTranscripts()
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, anchorApp(t))
	for _, tr := range recorded {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			runTranscript(t, tc, url, tr)
		})
	}
}

func recordedTranscripts() ([]transcript, error) {
	paths, err := filepath.Glob(filepath.Join(recordedDir, "*.txt"))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("no transcripts in %s (%v)", recordedDir, err)
	}
	var out []transcript
	for _, p := range paths {
		tr, err := readTranscript(p)
		if err != nil {
			return nil, err
		}
		out = append(out, tr)
	}
	return out, nil
}

// sameRun tells whether two transcripts are the same command with the
// same outcome, ids and times aside.
func sameRun(a, b transcript) bool {
	return slices.Equal(a.args, b.args) && a.code == b.code &&
		normalize(a.stdout) == normalize(b.stdout) && normalize(a.stderr) == normalize(b.stderr)
}

// TestCLICaptured replays the captured transcripts made against the
// workflow server, except those TestCLIRecorded already replays (same
// command, same outcome). The `workflow run` cases run one after the
// other, in the recorded order, on a server of their own (each sees the
// runs the ones before made); the others run in parallel on another.
func TestCLICaptured(t *testing.T) {
	t.Parallel()
	tc := needToolchain(t)
	cases, err := capturedCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("only %d captured cases use the server", len(cases))
	}
	recorded, err := recordedTranscripts()
	if err != nil {
		t.Fatal(err)
	}
	var stateless, stateful []transcript
	for _, c := range cases {
		switch {
		case slices.ContainsFunc(recorded, func(r transcript) bool { return sameRun(r, c) }):
			// TestCLIRecorded runs it.
		case isStateful(c):
			stateful = append(stateful, c)
		default:
			stateless = append(stateless, c)
		}
	}
	t.Run("stateless", func(t *testing.T) {
		t.Parallel()
		url := serve(t, anchorApp(t))
		for _, tr := range stateless {
			t.Run(tr.name, func(t *testing.T) {
				t.Parallel()
				runTranscript(t, tc, url, tr)
			})
		}
	})
	t.Run("workflow-runs", func(t *testing.T) {
		t.Parallel()
		url := serve(t, anchorApp(t))
		for _, tr := range stateful {
			t.Run(tr.name, func(t *testing.T) { runTranscript(t, tc, url, tr) })
		}
	})
}
