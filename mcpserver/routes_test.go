package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

// apiServer serves routes in the API server, with bearer tokens "alice"
// and "bob" naming their resources.
func apiServer(t testing.TB, routes []server.Route, prefix string) *httptest.Server {
	t.Helper()
	api := server.New(mastra.New(mastra.Config{Logger: discardLogger()}), server.Options{
		APIPrefix: prefix, Routes: routes, Logger: discardLogger(),
		Auth: func(r *http.Request) (string, error) {
			switch r.Header.Get("Authorization") {
			case "Bearer alice", "":
				return "alice", nil
			case "Bearer bob":
				return "bob", nil
			}
			return "", errors.New("unknown token")
		},
	})
	return serveHTTP(t, api)
}

func do(t testing.TB, ts *httptest.Server, method, path, body, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func whoamiServer(t testing.TB, id string) *Server {
	t.Helper()
	s, err := New(Config{ID: id, Name: "Who " + id, Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: tools.Set{
		"whoami": tools.New(tools.Config[struct{}, string]{ID: "whoami", Description: "Names the caller's resource",
			Execute: func(ctx tools.Context, _ struct{}) (string, error) {
				v, _ := ctx.RequestContext().Get(tools.ResourceIDKey)
				s, _ := v.(string)
				return "resource=" + s, nil
			}}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// The authenticated resource reaches tools as mastra__resourceId, over
// the REST execute route (whatever the body claims) and over the MCP
// transport; a 2025-11-25 session belongs to the user who opened it.
func TestRoutesCarryAuthResource(t *testing.T) {
	s := whoamiServer(t, "who")
	ts := apiServer(t, Routes(s), "")
	status, body := do(t, ts, "POST", "/api/mcp/who/tools/whoami/execute", `{"data":{},"requestContext":{"mastra__resourceId":"mallory"}}`, "bob")
	if status != 200 || body != `{"result":"resource=bob"}` {
		t.Errorf("REST: %d %s", status, body)
	}
	for _, legacy := range []bool{false, true} {
		client := &http.Client{Transport: bearer{"bob", http.DefaultTransport}}
		cs, err := newClient(clientOptions{legacy: legacy}).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: ts.URL + "/api/mcp/who/mcp", HTTPClient: client, MaxRetries: -1}, sessionOptions(clientOptions{legacy: legacy}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
		if err != nil || res.Content[0].(*mcp.TextContent).Text != "resource=bob" {
			t.Errorf("legacy=%v MCP: %v %+v", legacy, err, res)
		}
		if legacy {
			id := cs.ID()
			req, _ := http.NewRequest("POST", ts.URL+"/api/mcp/who/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", id)
			req.Header.Set("Authorization", "Bearer alice")
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("bob's session used by alice: %d", resp.StatusCode)
			}
		}
		_ = cs.Close()
	}
	if status, body := do(t, ts, "POST", "/api/mcp/nope/mcp", `{}`, "bob"); status != 404 || body != `{"error":"MCP server 'nope' not found"}` {
		t.Errorf("unknown server: %d %s", status, body)
	}
	if status, _ := do(t, ts, "GET", "/api/mcp/v0/servers", "", "eve"); status != 401 {
		t.Errorf("bad token: %d", status)
	}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// The server list pages as Mastra's: page/perPage or limit/offset, a next
// link in the same spelling, Zod's messages for bad numbers.
func TestServerListPagination(t *testing.T) {
	a, b, c := whoamiServer(t, "a"), whoamiServer(t, "b"), whoamiServer(t, "c")
	dup := whoamiServer(t, "a")
	ts := apiServer(t, RoutesWith(RouteOptions{Prefix: "/v1"}, a, b, c, dup), "/v1")
	for _, tc := range []struct {
		query      string
		status     int
		ids        string
		next, body string
	}{
		{"", 200, "a,b,c", "null", ""},
		{"?perPage=2", 200, "a,b", `"/v1/mcp/v0/servers?perPage=2&page=1"`, ""},
		{"?perPage=2&page=1", 200, "c", "null", ""},
		{"?limit=1&offset=1", 200, "b", `"/v1/mcp/v0/servers?limit=1&offset=2"`, ""},
		{"?perPage=0", 200, "", `"/v1/mcp/v0/servers?perPage=0&page=1"`, ""},
		{"?page=9&perPage=2", 200, "", "null", ""},
		{"?page=-1", 400, "", "", `{"error":"Invalid query parameters","issues":[{"field":"page","message":"Too small: expected number to be >=0"}]}`},
		{"?perPage=abc&limit=1.5", 400, "", "", `{"error":"Invalid query parameters","issues":[{"field":"perPage","message":"Invalid input: expected number, received NaN"},{"field":"limit","message":"Invalid input: expected int, received number"}]}`},
	} {
		status, body := do(t, ts, "GET", "/v1/mcp/v0/servers"+tc.query, "", "")
		if status != tc.status {
			t.Errorf("%s: %d %s", tc.query, status, body)
			continue
		}
		if tc.body != "" {
			if body != tc.body {
				t.Errorf("%s: %s", tc.query, body)
			}
			continue
		}
		v := jsonValue(t, []byte(body)).(map[string]any)
		var ids []string
		for _, srv := range v["servers"].([]any) {
			ids = append(ids, srv.(map[string]any)["id"].(string))
		}
		next := `null`
		if n, ok := v["next"].(string); ok {
			next = `"` + n + `"`
		}
		if strings.Join(ids, ",") != tc.ids || next != tc.next || v["total_count"] != float64(3) {
			t.Errorf("%s: ids %v next %s total %v", tc.query, ids, next, v["total_count"])
		}
	}
}

// The REST routes refuse bad bodies with Mastra's 400s and answer for
// resources (none) as Mastra's servers without resources do.
func TestRESTBadInput(t *testing.T) {
	s := fixtureServer(t)
	ts := apiServer(t, Routes(s), "")
	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/api/mcp/my-server/tools/adder/execute", `{"data":`, 400,
			`{"error":"Invalid request body","issues":[{"field":"body","message":"Unexpected end of JSON input"}]}`},
		{"POST", "/api/mcp/my-server/tools/adder/execute", `[1]`, 400,
			`{"error":"Invalid request body","issues":[{"field":"root","message":"Invalid input: expected object, received array"}]}`},
		{"POST", "/api/mcp/my-server/tools/adder/execute", `{"data":{"a":1,"b":2},"requestContext":"x"}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"requestContext","message":"Invalid input: expected record, received string"}]}`},
		{"POST", "/api/mcp/my-server/tools/echoText/execute", ``, 400,
			"{\"error\":\"Tool input validation failed for echoText. Please fix the following errors and try again:\\n- text: Invalid input: expected string, received undefined\\n\\nProvided arguments: [Unable to serialize data]\"}"},
		{"GET", "/api/mcp/my-server/resources", "", 200, `{"resources":[]}`},
		{"GET", "/api/mcp/nope/resources", "", 404, `{"error":"MCP server with ID 'nope' not found"}`},
		{"POST", "/api/mcp/my-server/resources/read", `{"uri":"ui://x"}`, 404, `{"error":"Resource 'ui://x' not found on server 'my-server'"}`},
		{"POST", "/api/mcp/my-server/resources/read", `{}`, 400,
			`{"error":"Invalid request body","issues":[{"field":"uri","message":"Invalid input: expected string, received undefined"}]}`},
		{"POST", "/api/mcp/my-server/tools/adder/execute", `{"data":{"a":1,"b":2}}` + strings.Repeat(" ", 5<<20), 413,
			`{"error":"Request body too large"}`},
	} {
		status, body := do(t, ts, tc.method, tc.path, tc.body, "")
		if status != tc.status || body != tc.want {
			t.Errorf("%s %s %.40q:\n got  %d %s\n want %d %s", tc.method, tc.path, tc.body, status, body, tc.status, tc.want)
		}
	}
}

// ToolInfo and the registry views describe the server.
func TestInfo(t *testing.T) {
	s := fixtureServer(t)
	d := s.Detail()
	want := Detail{ID: "my-server", Name: "My Server", Description: "Tools, agents and workflows over MCP",
		VersionDetail: VersionDetail{Version: "1.2.3", ReleaseDate: "2026-01-02T03:04:05.000Z", IsLatest: true}, Transports: []string{"streamable-http"}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if s.Name() != "My Server" || s.Version() != "1.2.3" || len(s.Tools()) != 11 {
		t.Errorf("%s %s %d", s.Name(), s.Version(), len(s.Tools()))
	}
}

// The routes bring Mastra's catalogue entries, which the API server's
// /system/api-schema then lists.
func TestRoutesListThemselvesInTheAPISchema(t *testing.T) {
	routes := Routes()
	described := 0
	for _, rt := range routes {
		if rt.Schema != nil {
			described++
		}
	}
	if described != 7 {
		t.Fatalf("%d of %d routes carry a schema entry, want 7 (all but the transport)", described, len(routes))
	}
	h := server.New(mastra.New(mastra.Config{}), server.Options{Routes: routes})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/system/api-schema", nil))
	var cat struct {
		Routes []struct{ Method, Path string } `json:"routes"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &cat); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, r := range cat.Routes {
		found[r.Method+" "+r.Path] = true
	}
	for _, want := range []string{"GET /tools", "GET /mcp/v0/servers", "GET /mcp/:serverId/tools", "POST /mcp/:serverId/tools/:toolId/execute"} {
		if !found[want] {
			t.Errorf("api-schema lacks %s", want)
		}
	}
}
