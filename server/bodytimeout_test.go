package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
)

// dripBody sends a request's headers to addr, then one byte of its body
// every interval until ctx ends, and returns what the server answered:
// its status line, or "" when it closed the connection without one. An
// error means the server neither answered nor closed before ctx ended.
func dripBody(ctx context.Context, addr, path string, interval time.Duration) (string, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	head := "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
	if _, err := io.WriteString(conn, head); err != nil {
		return "", err
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if _, err := io.WriteString(conn, " "); err != nil {
					return
				}
			}
		}
	}()
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err == io.EOF || (err != nil && ctx.Err() == nil && !isTimeout(err)) {
		return "", nil // closed (or reset) without an answer: cut
	}
	if err != nil {
		return "", fmt.Errorf("no answer and not closed: %w", err)
	}
	return strings.TrimSpace(line), nil
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestSlowBodyIsCut: a client that sends its headers, then a body byte
// every 50 ms, is answered 408 (or cut) once the body timeout (here
// 300 ms) is over, on the API's routes and an app's own.
func TestSlowBodyIsCut(t *testing.T) {
	f := newFixture(t, withOptions(Options{BodyReadTimeout: 300 * time.Millisecond, Routes: []Route{{Method: http.MethodPost, Path: "/echo",
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := io.ReadAll(r.Body); err != nil {
				http.Error(w, "read: "+err.Error(), http.StatusBadRequest)
			}
		})}}}))
	addr := strings.TrimPrefix(f.ts.URL, "http://")
	for _, path := range []string{"/echo", "/api/agents/calc-agent/generate", "/api/tools/add/execute"} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		status, err := dripBody(ctx, addr, path, 50*time.Millisecond)
		cancel()
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if status != "" && !strings.Contains(status, " 408 ") && path != "/echo" {
			t.Errorf("%s: answered %q", path, status)
		}
	}
}

// TestBodyTimeoutSparesLongStreams: a response that goes on for longer
// than the body timeout, once the body is read, is not cut.
func TestBodyTimeoutSparesLongStreams(t *testing.T) {
	const frames, gap = 8, 100 * time.Millisecond
	long := Route{Method: http.MethodPost, Path: "/slow-stream", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range frames {
			if r.Context().Err() != nil {
				return
			}
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
			time.Sleep(gap)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	})}
	m := mastra.New(mastra.Config{Logger: quiet})
	ts := httptest.NewServer(New(m, Options{BodyReadTimeout: 200 * time.Millisecond, Routes: []Route{long}, Logger: quiet}))
	defer ts.Close()
	res, err := ts.Client().Post(ts.URL+"/slow-stream", "application/json", strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || !strings.HasSuffix(string(b), "data: 7\n\ndata: [DONE]\n\n") {
		t.Errorf("stream cut: %q %v", b, err)
	}
}
