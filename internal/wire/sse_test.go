package wire

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// flushCounter is an http.ResponseWriter that counts its flushes.
type flushCounter struct {
	*httptest.ResponseRecorder
	flushes int
}

func (f *flushCounter) Flush() { f.flushes++ }

func TestFramerFrames(t *testing.T) {
	w := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
	f := NewFramer(w)
	steps := []func() error{
		func() error { return f.Data([]byte(`{"a":1}`)) },
		func() error { return f.Comment("heartbeat") },
		func() error {
			_, err := f.AppendData(func(b []byte) ([]byte, error) { return append(b, `{"b":2}`...), nil })
			return err
		},
		func() error { return f.Record([]byte(`{"c":3}`)) },
		func() error { return f.Done() },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	ok, err := f.AppendData(func(b []byte) ([]byte, error) { return nil, errors.New("cannot encode") })
	if ok || err == nil {
		t.Errorf("a failed body: ok %v err %v", ok, err)
	}
	want := "data: {\"a\":1}\n\n: heartbeat\n\ndata: {\"b\":2}\n\n{\"c\":3}\x1edata: [DONE]\n\n"
	if got := w.Body.String(); got != want {
		t.Errorf("frames %q\nwant   %q", got, want)
	}
	if w.flushes != len(steps) {
		t.Errorf("%d flushes for %d frames", w.flushes, len(steps))
	}
	var plain strings.Builder
	if err := NewFramer(&plain).Done(); err != nil || plain.String() != "data: [DONE]\n\n" {
		t.Errorf("a writer that cannot flush: %q %v", plain.String(), err)
	}
}

func TestStartHeaders(t *testing.T) {
	for _, tt := range []struct {
		name  string
		start func(http.ResponseWriter, *http.Request) *Framer
		want  map[string]string
	}{
		{"sse", func(w http.ResponseWriter, r *http.Request) *Framer { return StartSSE(w, r) },
			map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}},
		{"sse extra", func(w http.ResponseWriter, r *http.Request) *Framer {
			return StartSSE(w, r, "X-Vercel-Ai-Ui-Message-Stream", "v1")
		},
			map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no", "X-Vercel-Ai-Ui-Message-Stream": "v1"}},
		{"records", func(w http.ResponseWriter, r *http.Request) *Framer { return StartRecords(w) },
			map[string]string{"Content-Type": "text/plain", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}},
	} {
		w := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
		tt.start(w, httptest.NewRequest("GET", "/", nil))
		if w.Code != http.StatusOK || w.flushes != 1 || len(w.Header()) != len(tt.want) {
			t.Errorf("%s: status %d, %d flushes, headers %v", tt.name, w.Code, w.flushes, w.Header())
		}
		for k, v := range tt.want {
			if got := w.Header().Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", tt.name, k, got, v)
			}
		}
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.ProtoMajor = 2
	w := httptest.NewRecorder()
	StartSSE(w, r)
	if _, has := w.Header()["Connection"]; has {
		t.Error("HTTP/2 answer with a Connection header")
	}
}
