package server

import (
	"strings"
	"testing"
)

// Bodies Go cannot decode are described as Zod would, never with Go's
// type names.
func TestDecodeIssuesSpeakJSON(t *testing.T) {
	f := newFixture(t)
	cases := []struct{ body, want string }{
		{`{"messages":"hi","modelSettings":{"maxOutputTokens":"many"}}`, `{"field":"modelSettings.maxOutputTokens","message":"Invalid input: expected number, received string"}`},
		{`{"messages":[{"role":"user","content":[{"type":"text","text":5}]}]}`, `"message":"Invalid input: expected string, received number"`},
	}
	for _, c := range cases {
		resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", c.body)
		if resp.StatusCode != 400 || !strings.Contains(string(body), c.want) || strings.Contains(string(body), "Go ") || strings.Contains(string(body), "model.") {
			t.Errorf("%s: %d %s", c.body, resp.StatusCode, body)
		}
	}
}
