package server

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
)

// The benchmarks go through a real loopback listener (httptest.Server)
// with keep-alive connections, sequentially, as the anchor's
// bench/http-tool-exec.mjs measures Mastra.

func benchPost(b *testing.B, client *http.Client, url, body string, check func([]byte) bool) {
	b.Helper()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != 200 || (check != nil && !check(out)) {
		b.Fatalf("%d %s", resp.StatusCode, out)
	}
}

// BenchmarkToolExecuteHTTP: POST /api/tools/add/execute.
func BenchmarkToolExecuteHTTP(b *testing.B) {
	f := newFixture(b)
	client := f.ts.Client()
	url := f.ts.URL + "/api/tools/add/execute"
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		want := `{"sum":` + strconv.Itoa(i+1) + `}`
		benchPost(b, client, url, `{"data":{"a":`+strconv.Itoa(i)+`,"b":1}}`, func(out []byte) bool { return string(out) == want })
		i++
	}
}

// BenchmarkToolExecuteHTTPParallel: the same from GOMAXPROCS clients.
func BenchmarkToolExecuteHTTPParallel(b *testing.B) {
	f := newFixture(b)
	client := f.ts.Client()
	url := f.ts.URL + "/api/tools/add/execute"
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			benchPost(b, client, url, `{"data":{"a":2,"b":3}}`, func(out []byte) bool { return string(out) == `{"sum":5}` })
		}
	})
}

// BenchmarkGetToolsHTTP: GET /api/tools.
func BenchmarkGetToolsHTTP(b *testing.B) {
	f := newFixture(b)
	client := f.ts.Client()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := client.Get(f.ts.URL + "/api/tools")
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// noStorage is the anchor's agent: no storage, no memory.
func noStorage(c *agent.Config) { c.Storage, c.Memory = nil, nil }

// BenchmarkAgentGenerateHTTP: POST /api/agents/calc-agent/generate, one
// tool step then the answer (two model calls).
func BenchmarkAgentGenerateHTTP(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  func(*agent.Config)
	}{{"memory-runs", noStorage}, {"sqlite", func(*agent.Config) {}}} {
		b.Run(c.name, func(b *testing.B) {
			f := newFixture(b, withAgent(c.cfg))
			client := f.ts.Client()
			url := f.ts.URL + "/api/agents/calc-agent/generate"
			b.ReportAllocs()
			for b.Loop() {
				benchPost(b, client, url, `{"messages":"hi"}`, func(out []byte) bool { return bytes.Contains(out, []byte(`"text":"The sum is 5."`)) })
			}
		})
	}
}

// BenchmarkAgentStreamHTTP: POST /api/agents/calc-agent/stream, SSE
// drained.
func BenchmarkAgentStreamHTTP(b *testing.B) {
	f := newFixture(b, withAgent(noStorage))
	client := f.ts.Client()
	url := f.ts.URL + "/api/agents/calc-agent/stream"
	b.ReportAllocs()
	for b.Loop() {
		benchPost(b, client, url, `{"messages":"hi"}`, func(out []byte) bool { return bytes.HasSuffix(out, []byte("data: [DONE]\n\n")) })
	}
}
