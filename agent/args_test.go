package agent

import "testing"

func TestParseArgsFallbackChain(t *testing.T) {
	tests := map[string]string{
		``:                                   `{}`,
		`  {"a":1} `:                         `{"a":1}`,
		`<|tool_call|>{"a":1}<|end|>`:        `{"a":1}`,
		`{a: 1, b: 'two',}`:                  `{"a": 1, "b": "two"}`,
		`{"when": 2025-01-02, "n": [1,2,],}`: `{"when": "2025-01-02", "n": [1,2]}`,
		`{"at": 2025-01-02T10:00:00Z}`:       `{"at": "2025-01-02T10:00:00Z"}`,
		`{'it\'s': 'ok'}`:                    `{"it's": "ok"}`,
	}
	for in, want := range tests {
		if got := string(parseArgs(in)); got != want {
			t.Errorf("parseArgs(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{`{"a":`, `nope`, `{"a" 1}`} {
		if got := parseArgs(bad); got != nil {
			t.Errorf("parseArgs(%q) = %s, want nil", bad, got)
		}
	}
	if got := SanitizeToolName("weatherTool"); got != "weatherTool" {
		t.Errorf("valid names are kept: %q", got)
	}
	if got := SanitizeToolName("1st.tool"); got != "_1st_tool" {
		t.Errorf("SanitizeToolName(1st.tool) = %q", got)
	}
}
