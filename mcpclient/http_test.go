package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mastra "github.com/gomastra/mastra"
)

func TestHTTPHeadersAreSent(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newTestServer() }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("X-Tenant") != "acme" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)

	headers := http.Header{}
	headers.Set("Authorization", "Bearer s3cret")
	headers.Set("x-tenant", "acme")
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"ok":     {URL: ts.URL, Headers: headers, HTTPClient: &http.Client{}},
		"denied": {URL: ts.URL},
	}})
	set, errs := c.ListToolsWithErrors(ctxT(t))
	if errs["ok"] != nil || set["ok_add"] == nil {
		t.Fatalf("with headers: %v", errs["ok"])
	}
	if _, err := executeJSON(t, set["ok_add"], `{"a":1,"b":2}`); err != nil {
		t.Fatal(err)
	}
	err := errs["denied"]
	if err == nil || !strings.Contains(err.Error(), "HTTP+SSE fallback") {
		t.Fatalf("without headers: %v, want a failed connection that tried SSE too", err)
	}
}

func TestHTTPFallsBackToSSE(t *testing.T) {
	var posts, gets atomic.Int32
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return newTestServer() }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			gets.Add(1)
		case http.MethodPost:
			posts.Add(1)
		}
		sse.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	rec := &logRecorder{}
	c := newClient(t, Config{Logger: rec.logger(), Servers: map[string]ServerConfig{"legacy": {URL: ts.URL}}})
	set, errs := c.ListToolsWithErrors(ctxT(t))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	res, err := executeJSON(t, set["legacy_add"], `{"a":40,"b":2}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text; got != "The sum of 40 and 2 is 42." {
		t.Errorf("result = %q", got)
	}
	if gets.Load() == 0 || posts.Load() < 2 {
		t.Errorf("GETs %d, POSTs %d: the SSE transport was not used", gets.Load(), posts.Load())
	}
	if !rec.contains("falling back to HTTP+SSE") {
		t.Error("the fallback was not logged")
	}
}

// swappableHandler serves MCP through a handler that can be replaced: a
// server restart that forgets every session.
type swappableHandler struct {
	mu      sync.Mutex
	h       http.Handler
	servers []*mcp.Server
}

func (s *swappableHandler) restart() {
	s.mu.Lock()
	defer s.mu.Unlock()
	srv := newTestServer()
	s.servers = append(s.servers, srv)
	s.h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

func (s *swappableHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	h.ServeHTTP(w, r)
}

// close ends the server sessions the restarts orphaned.
func (s *swappableHandler) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, srv := range s.servers {
		closeSessions(srv)
	}
}

func closeSessions(srv *mcp.Server) {
	for ss := range srv.Sessions() {
		ss.Close()
	}
}

func TestHTTPLostSessionReconnects(t *testing.T) {
	sh := &swappableHandler{}
	sh.restart()
	ts := httptest.NewServer(sh)
	t.Cleanup(sh.close)
	t.Cleanup(ts.Close)
	rec := &logRecorder{}
	c := newClient(t, Config{Logger: rec.logger(), Servers: map[string]ServerConfig{"srv": {URL: ts.URL}}})
	set := c.ListTools(ctxT(t))
	if _, err := executeJSON(t, set["srv_add"], `{"a":1,"b":2}`); err != nil {
		t.Fatal(err)
	}
	sh.restart()
	res, err := executeJSON(t, set["srv_add"], `{"a":2,"b":2}`)
	if err != nil {
		t.Fatalf("call after the server lost the session: %v", err)
	}
	if got := res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text; got != "The sum of 2 and 2 is 4." {
		t.Errorf("result = %q", got)
	}
	if !rec.contains("reconnecting") {
		t.Error("no reconnection was logged")
	}
}

func TestHTTPServerGone(t *testing.T) {
	srv := newTestServer()
	ts := httpServer(t, srv)
	t.Cleanup(func() { closeSessions(srv) }) // a real crash would take them along
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {URL: ts.URL}}})
	set := c.ListTools(ctxT(t))
	ts.CloseClientConnections()
	ts.Close()
	_, err := executeJSON(t, set["srv_add"], `{"a":1,"b":2}`)
	var me *mastra.Error
	if !errors.As(err, &me) || me.ID != IDConnectFailed || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("err = %v, want the failed reconnection", err)
	}
}

func TestHTTPBrokenServers(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"html page", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>hello</html>"))
		}, "unsupported content type"},
		{"garbage json", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc": nonsense`))
		}, "failed to decode"},
		{"garbage events", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("data: {not json}\n\n"))
		}, ""},
		{"internal error", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "kaboom", http.StatusInternalServerError)
		}, "Internal Server Error"},
		{"hangs", func(_ http.ResponseWriter, r *http.Request) {
			// Reading the body lets the server notice the client leaving.
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		}, "request timed out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(tt.handler)
			t.Cleanup(ts.Close)
			c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {URL: ts.URL, ConnectTimeout: 300 * time.Millisecond}}})
			err := c.Connect(ctxT(t))
			var me *mastra.Error
			if !errors.As(err, &me) || me.ID != IDConnectFailed || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Connect = %v, want %s containing %q", err, IDConnectFailed, tt.want)
			}
		})
	}
}

// hugeAnswers answers calls of the "huge" tool itself, streaming a text
// result of size bytes (as one JSON body or one event) without holding it,
// so what the test process allocates is the client's doing.
func hugeAnswers(next http.Handler, size int, sse bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" || msg.Params.Name != "huge" {
			r.Body = io.NopCloser(bytes.NewReader(body))
			next.ServeHTTP(w, r)
			return
		}
		head := `{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"content":[{"type":"text","text":"`
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			head = "event: message\ndata: " + head
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.Write([]byte(head))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for n := 0; n < size; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		w.Write([]byte(`"}]}}`))
		if sse {
			w.Write([]byte("\n\n"))
		}
	})
}

func TestHTTPHugeResultFailsCleanly(t *testing.T) {
	const limit = 1 << 20
	for _, sse := range []bool{true, false} {
		name := "event stream"
		if !sse {
			name = "json body"
		}
		t.Run(name, func(t *testing.T) {
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newTestServer() },
				&mcp.StreamableHTTPOptions{JSONResponse: !sse})
			ts := httptest.NewServer(hugeAnswers(h, 64<<20, sse))
			t.Cleanup(ts.Close)
			c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {URL: ts.URL, MaxMessageBytes: limit}}})
			set := c.ListTools(ctxT(t))
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := executeJSON(t, set["srv_huge"], `{"bytes":1}`)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrMessageTooLarge) {
				t.Fatalf("err = %v, want ErrMessageTooLarge", err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16*limit {
				t.Errorf("a 64 MiB answer made the process allocate %d MiB; the limit is 1 MiB", grew>>20)
			}
			if _, err := executeJSON(t, set["srv_add"], `{"a":1,"b":1}`); err != nil {
				t.Fatalf("call after the huge result: %v", err)
			}
		})
	}
}
