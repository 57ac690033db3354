package mcpserver

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The REST routes list the server's resources and read them through
// Resources.Read, in Mastra's shapes and with its errors.
func TestRESTResources(t *testing.T) {
	d := &docStore{docs: map[string]string{"doc://readme": "# Hello"}}
	res := d.resources()
	var asked []string // what Read was asked for (the test's requests are sequential)
	read := res.Read
	res.Read = func(ctx context.Context, uri string) ([]*mcp.ResourceContents, error) {
		asked = append(asked, uri)
		return read(ctx, uri)
	}
	s, err := New(Config{Name: "Docs", Version: "1.0.0", Resources: res, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ts := apiServer(t, Routes(s), "")
	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", "/api/mcp/" + s.ID() + "/resources", "", 200,
			`{"resources":[{"uri":"doc://readme","name":"readme","mimeType":"text/markdown"}]}`},
		{"POST", "/api/mcp/" + s.ID() + "/resources/read", `{"uri":"doc://readme"}`, 200,
			`{"contents":[{"uri":"doc://readme","mimeType":"text/markdown","text":"# Hello"}]}`},
		// Matches the template doc://{name}.
		{"POST", "/api/mcp/" + s.ID() + "/resources/read", `{"uri":"doc://logo"}`, 200,
			`{"contents":[{"uri":"doc://logo","mimeType":"image/png","blob":"iVBORw=="}]}`},
		{"POST", "/api/mcp/" + s.ID() + "/resources/read", `{"uri":"doc://gone"}`, 404,
			`{"error":"Resource 'doc://gone' not found on server '` + s.ID() + `'"}`},
		// Neither listed nor matching a template: Read is not asked.
		{"POST", "/api/mcp/" + s.ID() + "/resources/read", `{"uri":"file:///etc/passwd"}`, 404,
			`{"error":"Resource 'file:///etc/passwd' not found on server '` + s.ID() + `'"}`},
		{"POST", "/api/mcp/" + s.ID() + "/resources/read", `{"uri":"doc://broken"}`, 500,
			`{"error":"disk on fire"}`},
	} {
		status, body := do(t, ts, tc.method, tc.path, tc.body, "")
		if status != tc.status || body != tc.want {
			t.Errorf("%s %s %s:\n got  %d %s\n want %d %s", tc.method, tc.path, tc.body, status, body, tc.status, tc.want)
		}
	}
	if want := "[doc://readme doc://logo doc://gone doc://broken]"; fmt.Sprint(asked) != want {
		t.Errorf("Read was asked for %v, want %s", asked, want)
	}
}
