// Package providertest is the local stand-in for a model provider's API in
// provider tests: an httptest server on 127.0.0.1 that answers with canned
// replies (testdata fixtures in the provider's real wire format) and
// records every request.
package providertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Reply is one canned answer.
type Reply struct {
	// Status defaults to 200.
	Status int
	// Fixture names a file in testdata/: one ending in ".sse" is sent as
	// an event stream, one event ("...\n\n") at a time, flushed as a
	// server streams; any other as a JSON body.
	Fixture string
	// Body is sent when Fixture is empty.
	Body string
	// Headers are set on the response (after the content type).
	Headers map[string]string
}

// Request is one request the server received.
type Request struct {
	Method, Path, Query string
	Header              http.Header
	Body                []byte
}

// Server answers requests with its replies in order, the last one
// repeating, and records them. It is closed when the test ends.
type Server struct {
	*httptest.Server
	replies []Reply

	mu       sync.Mutex
	reqs     []Request
	calls    int
	discard  bool
	fixtures map[string][]byte // fixture contents, read once
}

// New starts a server with replies (at least one).
func New(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	if len(replies) == 0 {
		t.Fatal("providertest: no replies")
	}
	s := &Server{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := s.calls
		s.calls++
		if !s.discard {
			s.reqs = append(s.reqs, Request{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
		}
		s.mu.Unlock()
		s.reply(t, w, replies[min(n, len(replies)-1)])
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *Server) reply(t testing.TB, w http.ResponseWriter, rep Reply) {
	data := []byte(rep.Body)
	if rep.Fixture != "" {
		var err error
		if data, err = s.fixture(rep.Fixture); err != nil {
			t.Errorf("providertest: %v", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	stream := strings.HasSuffix(rep.Fixture, ".sse")
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	for k, v := range rep.Headers {
		w.Header().Set(k, v)
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if !stream {
		_, _ = w.Write(data)
		return
	}
	for ev := range bytes.SplitAfterSeq(data, []byte("\n\n")) {
		_, _ = w.Write(ev)
		w.(http.Flusher).Flush()
	}
}

// fixture returns the contents of testdata/name, read on first use.
func (s *Server) fixture(name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if data, ok := s.fixtures[name]; ok {
		return data, nil
	}
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		return nil, err
	}
	if s.fixtures == nil {
		s.fixtures = map[string][]byte{}
	}
	s.fixtures[name] = data
	return data, nil
}

// Discard stops recording requests (Calls still counts them): for
// benchmarks, whose requests would otherwise pile up.
func (s *Server) Discard() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.discard = true
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Calls returns how many requests arrived.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// JSONBody returns request i's body, decoded.
func (s *Server) JSONBody(t testing.TB, i int) map[string]any {
	t.Helper()
	reqs := s.Requests()
	if i >= len(reqs) {
		t.Fatalf("providertest: request %d of %d", i, len(reqs))
	}
	var v map[string]any
	if err := json.Unmarshal(reqs[i].Body, &v); err != nil {
		t.Fatalf("providertest: request body %q: %v", reqs[i].Body, err)
	}
	return v
}
