package mcpserver

import "testing"

// Every id of the capture slugifies as Mastra slugified it.
func TestSlugifyMatchesMastra(t *testing.T) {
	c := loadCapture(t)
	if len(c.Slugify) < 20 {
		t.Fatalf("capture has %d slugify cases", len(c.Slugify))
	}
	for in, want := range c.Slugify {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, Mastra: %q", in, got, want)
		}
	}
}

func TestSlugifyEdgeCases(t *testing.T) {
	for in, want := range map[string]string{
		"":                "",
		"---":             "",
		"e\u0301te":       "ete",
		"日本":              "",
		"server 日本 two":   "server-two",
		"MCP_Server-v1.2": "mcp-server-v1-2",
	} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}
