package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawStdio is a client speaking raw lines to ServeStdio.
type rawStdio struct {
	t     testing.TB
	w     *io.PipeWriter
	lines chan string
	done  chan error
}

func newRawStdio(t testing.TB, s *Server) *rawStdio {
	t.Helper()
	cin, sout := io.Pipe()
	sin, cout := io.Pipe()
	r := &rawStdio{t: t, w: cout, lines: make(chan string, 64), done: make(chan error, 1)}
	go func() { r.done <- s.ServeStdio(context.Background(), sin, sout) }()
	go func() {
		defer close(r.lines)
		br := bufio.NewReaderSize(cin, 1<<20)
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				return
			}
			r.lines <- l
		}
	}()
	t.Cleanup(func() {
		_ = cout.Close()
		<-r.done
		_ = sout.Close()
		_ = cin.Close()
		for range r.lines {
		}
	})
	return r
}

func (r *rawStdio) send(line string) {
	r.t.Helper()
	if _, err := fmt.Fprintln(r.w, line); err != nil {
		r.t.Fatal(err)
	}
}

// answer reads the next line as a JSON-RPC response.
func (r *rawStdio) answer() map[string]any {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatal("the server closed the stream")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			r.t.Fatalf("not JSON: %.200s", l)
		}
		return m
	case <-time.After(10 * time.Second):
		r.t.Fatal("no answer")
	}
	return nil
}

func errorOf(m map[string]any) (float64, string) {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	msg, _ := e["message"].(string)
	return code, msg
}

// Garbage on stdio costs one JSON-RPC error each and the session goes on:
// invalid JSON, non-JSON-RPC JSON, empty batches, unknown methods, bad
// params, over-deep nesting, and huge arguments all get answers, then a
// good call still works.
func TestStdioBadInput(t *testing.T) {
	r := newRawStdio(t, fixtureServer(t))
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if res := r.answer(); res["result"] == nil {
		t.Fatalf("initialize: %v", res)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, tc := range []struct {
		line string
		id   any
		code float64
		msg  string
	}{
		{`this is not json`, nil, -32700, "Parse error"},
		{`{"jsonrpc":"2.0","id":2,"method":`, nil, -32700, "Parse error"},
		{`{"id":3,"method":"tools/list"}`, float64(3), -32600, `Invalid Request: invalid message version tag ""; expected "2.0"`},
		{`[]`, nil, -32600, "Invalid Request: empty batch"},
		{`{"jsonrpc":"2.0","id":4,"method":"foo/bar"}`, float64(4), -32601, `method not found: "foo/bar"`},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":5}`, float64(5), -32602, ""},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/call"}`, float64(6), -32600, ""},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"adder","arguments":` + deep + `}}`, nil, -32700, "Parse error"},
	} {
		r.send(tc.line)
		res := r.answer()
		code, msg := errorOf(res)
		if code != tc.code || res["id"] != tc.id || (tc.msg != "" && msg != tc.msg) {
			t.Errorf("%.50s: %v", tc.line, res)
		}
	}
	// Wrong arguments are a tool-level validation error.
	r.send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"adder","arguments":[1,2]}}`)
	if res := r.answer(); !strings.Contains(fmt.Sprint(res["result"]), "expected object, received array") {
		t.Errorf("array arguments: %v", res)
	}
	// 3 MB of arguments are processed.
	big := strings.Repeat("x", 3<<20)
	r.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echoText","arguments":{"text":"` + big + `"}}}`)
	res := r.answer()
	if b, _ := json.Marshal(res["result"]); !bytes.Contains(b, []byte(big)) {
		t.Errorf("3 MB echo: %.200v", res)
	}
	r.send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"adder","arguments":{"a":1,"b":2}}}`)
	if res := r.answer(); !strings.Contains(fmt.Sprint(res["result"]), `{"sum":3}`) {
		t.Errorf("after the garbage: %v", res)
	}
}

// A line over the limit is answered and skipped; the next line is read.
func TestLineGuardLimit(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader(strings.Repeat("x", 5000) + "\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	g := newLineGuard(in, &lockedWriter{w: &out})
	g.max = 1024
	got, err := io.ReadAll(g)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n" {
		t.Errorf("passed on %q", got)
	}
	if out.String() != `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: message longer than the line limit"}}`+"\n" {
		t.Errorf("answered %q", out.String())
	}
}

// Over HTTP the SDK refuses garbage with 4xx answers and bodies over its
// limit with 413; the server keeps serving.
func TestHTTPBadInput(t *testing.T) {
	s := fixtureServer(t)
	ts := serveHTTP(t, s.HTTPHandler())
	post := func(body string, version string) int {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if version != "" {
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		body, version string
		status        int
	}{
		{`this is not json`, "", 400},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"adder","arguments":{"text":"` + strings.Repeat("x", 5<<20) + `"}}}`, "2026-07-28", 413},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "1999-01-01", 400},
	} {
		if got := post(tc.body, tc.version); got != tc.status {
			t.Errorf("%.40s: %d, want %d", tc.body, got, tc.status)
		}
	}
	cs := connectHTTP(t, ts.URL, clientOptions{})
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Errorf("after the garbage: %v", err)
	}
}
