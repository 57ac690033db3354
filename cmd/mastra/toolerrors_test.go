package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// brokenAddError is the toolErrors entry --show-tool-errors adds for the
// run recorded in testdata/captured/agent-run-toolerror (broken-add threw
// "adder offline: cannot add 2 and 3"; the Mastra CLI printed
// "toolResults":[] and nothing of the error).
const brokenAddError = `{"type":"tool-error","toolCallId":"call-1","toolName":"broken-add",` +
	`"input":{"a":2,"b":3},"error":"adder offline: cannot add 2 and 3"}`

// runToolErrorCase replays the recorded tool-error run with extra
// arguments and returns what the CLI printed, after checking the exit
// code, the empty stderr and that the recorded request was made.
func runToolErrorCase(t *testing.T, name string, extra ...string) (got string, want transcript) {
	t.Helper()
	base := filepath.Join("testdata", "captured", name)
	want = loadTranscript(t, base+".txt")
	srv, rep := newReplayServer(t, loadJSONL(t, base+".jsonl"), true)
	args := splitRecordedCommand(strings.Replace(want.command, toolErrorHost, srv.URL, 1))
	stdout, stderr, code := runCLI(t, testConfig(t, "", nil), append(args, extra...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit code %d, stderr %q", code, stderr)
	}
	if left := rep.unused(); len(left) > 0 {
		t.Errorf("recorded request not made: %s %s", left[0].method, left[0].url)
	}
	return stdout, want
}

// TestShowToolErrors: with --show-tool-errors, `agent run` prints Mastra's
// digest plus "toolErrors", the failed calls (tool name, call id, input,
// error text) found in the response's steps, right after "toolResults".
func TestShowToolErrors(t *testing.T) {
	got, want := runToolErrorCase(t, "agent-run-toolerror", "--show-tool-errors")
	const results = `"toolResults":[]`
	if !strings.Contains(want.stdout, results) {
		t.Fatalf("recording has no %s: %s", results, want.stdout)
	}
	expected := strings.Replace(want.stdout, results, results+`,"toolErrors":[`+brokenAddError+`]`, 1)
	diffText(t, "stdout", got, expected)
}

// TestShowToolErrorsPretty: the flag before the positionals, with --pretty.
func TestShowToolErrorsPretty(t *testing.T) {
	got, want := runToolErrorCase(t, "agent-run-toolerror-pretty")
	diffText(t, "stdout without the flag", got, want.stdout)
	base := filepath.Join("testdata", "captured", "agent-run-toolerror-pretty")
	srv, _ := newReplayServer(t, loadJSONL(t, base+".jsonl"), true)
	args := []string{"api", "--url", srv.URL, "--pretty", "agent", "run", "--show-tool-errors",
		"broken-agent", `{"messages":"What is 2+3?"}`}
	stdout, _, code := runCLI(t, testConfig(t, "", nil), args...)
	const results = "    \"toolResults\": [],\n"
	entry := results + "    \"toolErrors\": [\n      {\n        \"type\": \"tool-error\",\n" +
		"        \"toolCallId\": \"call-1\",\n        \"toolName\": \"broken-add\",\n" +
		"        \"input\": {\n          \"a\": 2,\n          \"b\": 3\n        },\n" +
		"        \"error\": \"adder offline: cannot add 2 and 3\"\n      }\n    ],\n"
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	diffText(t, "stdout", stdout, strings.Replace(want.stdout, results, entry, 1))
}

// TestToolErrors: the failed calls found in a generate response's steps,
// in both shapes a step's content reports them, each call once.
func TestToolErrors(t *testing.T) {
	for _, c := range []struct{ name, response, want string }{
		{"error-text result",
			`{"steps":[{"content":[{"type":"tool-call","toolCallId":"c1","toolName":"t","input":{}},` +
				`{"type":"tool-result","input":{"x":1},"output":{"type":"error-text","value":"boom"},"toolCallId":"c1","toolName":"t"}]}]}`,
			`[{"type":"tool-error","toolCallId":"c1","toolName":"t","input":{"x":1},"error":"boom"}]`},
		{"error-json result",
			`{"steps":[{"content":[{"type":"tool-result","toolCallId":"c2","toolName":"t","output":{"type":"error-json","value":{"code":7}}}]}]}`,
			`[{"type":"tool-error","toolCallId":"c2","toolName":"t","error":{"code":7}}]`},
		{"tool-error part",
			`{"steps":[{"content":[{"type":"tool-error","toolCallId":"c3","toolName":"t","input":{"a":1},"error":{"message":"m"},"dynamic":true}]}]}`,
			`[{"type":"tool-error","toolCallId":"c3","toolName":"t","input":{"a":1},"error":{"message":"m"}}]`},
		{"successes and denials are not errors",
			`{"steps":[{"content":[{"type":"tool-result","toolCallId":"c4","toolName":"t","output":{"type":"json","value":1}},` +
				`{"type":"tool-result","toolCallId":"c5","toolName":"t","output":{"type":"execution-denied"}}]}]}`,
			`[]`},
		{"one entry per call",
			`{"steps":[{"content":[{"type":"tool-error","toolCallId":"c6","toolName":"t","error":"e"}]},` +
				`{"content":[{"type":"tool-result","toolCallId":"c6","toolName":"t","output":{"type":"error-text","value":"e"}}]}]}`,
			`[{"type":"tool-error","toolCallId":"c6","toolName":"t","error":"e"}]`},
		{"no steps", `{"text":"hi"}`, `[]`},
		{"odd steps", `{"steps":[1,{"content":"x"},{"content":[null,2]}]}`, `[]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := parseJSON(c.response)
			if err != nil {
				t.Fatal(err)
			}
			if got := stringify(toolErrors(v), false); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestWithToolErrors: "toolErrors" goes right after "toolResults" (at the
// end when the digest has none); a digest that is not an object is kept.
func TestWithToolErrors(t *testing.T) {
	resp, _ := parseJSON(`{"steps":[{"content":[{"type":"tool-error","toolCallId":"c","toolName":"t","error":"e"}]}]}`)
	for _, c := range []struct {
		digest any
		want   string
	}{
		{objectOf("text", "x", "toolResults", []any{}, "runId", "r"),
			`{"text":"x","toolResults":[],"toolErrors":[{"type":"tool-error","toolCallId":"c","toolName":"t","error":"e"}],"runId":"r"}`},
		{objectOf("text", "x"), `{"text":"x","toolErrors":[{"type":"tool-error","toolCallId":"c","toolName":"t","error":"e"}]}`},
		{"plain", `"plain"`},
	} {
		if got := stringify(withToolErrors(c.digest, resp), false); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
