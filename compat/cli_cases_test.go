package compat

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	got := splitCommand(`api --url http://127.0.0.1:4000 agent run calc-agent {"messages":"What is 2+3?"}`)
	want := []string{"api", "--url", "http://127.0.0.1:4000", "agent", "run", "calc-agent", `{"messages":"What is 2+3?"}`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
}

func TestReadTranscript(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, text     string
		stdout, stderr string
		code           int
		bad            bool
	}{
		{name: "ok", text: "$ mastra api tool list\n{\"data\":[]}\n[exit 0]\n", stdout: "{\"data\":[]}\n"},
		{name: "fail", text: "$ mastra api tool get nope\n{\"error\":{}}\n[exit 1]\n", stderr: "{\"error\":{}}\n", code: 1},
		{name: "split", text: "$ mastra api x\n[stdout]\nout\n[stderr]\nerr\n[exit 0]\n", stdout: "out\n", stderr: "err\n"},
		{name: "noexit", text: "$ mastra api x\nout\n", bad: true},
		{name: "nocommand", text: "mastra api x\n[exit 0]\n", bad: true},
		{name: "nostderr", text: "$ mastra api x\n[stdout]\nout\n[exit 0]\n", bad: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := readTranscript(write(c.name, c.text))
			if c.bad {
				if err == nil {
					t.Errorf("accepted %q", c.text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr.stdout != c.stdout || tr.stderr != c.stderr || tr.code != c.code {
				t.Errorf("got %+v", tr)
			}
		})
	}
}

// TestTranscriptsParse reads every transcript the CLI tests replay, so a
// malformed one fails here even where Node is not installed.
func TestTranscriptsParse(t *testing.T) {
	recorded, err := recordedTranscripts()
	if err != nil {
		t.Fatal(err)
	}
	captured, err := capturedCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(recorded) < 10 || len(captured) < 40 {
		t.Errorf("%d recorded and %d captured transcripts", len(recorded), len(captured))
	}
	for _, tr := range append(recorded, captured...) {
		if !usesServer(tr.args, recordedHost) {
			t.Errorf("%s does not talk to the recorded server: %q", tr.name, tr.args)
		}
	}
	broken, err := capturedCasesAt(toolErrorHost)
	if err != nil || len(broken) < 2 {
		t.Errorf("%d captured transcripts against %s (%v)", len(broken), toolErrorHost, err)
	}
	memory, err := capturedCasesAt(memoryHost)
	if err != nil || len(memory) < 40 {
		t.Errorf("%d captured transcripts against %s (%v)", len(memory), memoryHost, err)
	}
	for name := range memoryCLIDifferences {
		if !slices.ContainsFunc(memory, func(tr transcript) bool { return tr.name == name }) {
			t.Errorf("memoryCLIDifferences names %s, which is no captured case against %s", name, memoryHost)
		}
	}
}
