package mcpserver

import (
	"encoding/json"
	"os"
	"testing"
)

// capture is what the real Mastra MCPServer answered
// (testdata/mastra/capture.json, made by testdata/mastra/capture.mjs).
type capture struct {
	REST   map[string]restAnswer      `json:"rest"`
	MCP    map[string]json.RawMessage `json:"mcp"`
	Errors map[string]struct {
		Message, ID, Domain, Category string
	} `json:"errors"`
	Slugify map[string]string `json:"slugify"`
}

type restAnswer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// capturedResult is a captured tools/call result.
type capturedResult struct {
	Content []struct {
		Type, Text string
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func loadCapture(t testing.TB) *capture {
	t.Helper()
	raw, err := os.ReadFile("testdata/mastra/capture.json")
	if err != nil {
		t.Fatal(err)
	}
	var c capture
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func (c *capture) result(t testing.TB, key string) capturedResult {
	t.Helper()
	raw, ok := c.MCP[key]
	if !ok {
		t.Fatalf("capture has no mcp.%s", key)
	}
	var r capturedResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("mcp.%s: %v", key, err)
	}
	return r
}

// jsonValue decodes JSON for comparisons (numbers as float64).
func jsonValue(t testing.TB, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}
