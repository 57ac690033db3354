package server

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
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

// drainSSE posts body to url and reads the event stream to its end
// (data: [DONE]) without keeping it, returning its size.
func drainSSE(b *testing.B, client *http.Client, url, body string) int64 {
	b.Helper()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 64<<10)
	var n int64
	var tail []byte
	for {
		m, err := resp.Body.Read(buf)
		n += int64(m)
		tail = append(tail, buf[:m]...)
		if len(tail) > 64 {
			tail = tail[len(tail)-64:]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if resp.StatusCode != 200 || !bytes.HasSuffix(tail, []byte("data: [DONE]\n\n")) {
		b.Fatalf("%d …%s", resp.StatusCode, tail)
	}
	return n
}

// BenchmarkAgentStreamSteps: a K-step run streamed over HTTP (K tool
// steps, then the answer; no storage), SSE drained. Each step-finish
// repeats the conversation so far, as Mastra's does, so the bytes grow
// with K²; ns/step is the cost per step of producing them.
func BenchmarkAgentStreamSteps(b *testing.B) {
	for _, k := range []int{10, 100} {
		b.Run("K="+strconv.Itoa(k), func(b *testing.B) {
			answer := mock.ToolSteps(k, mock.ToolCall{Name: "add", Args: `{"a":2,"b":3}`}, mock.Step{Text: "The sum is 5."})
			f := newFixture(b, withAgent(func(c *agent.Config) {
				noStorage(c)
				c.Model, c.MaxSteps = mock.NewFunc(answer), k+1
			}))
			client := f.ts.Client()
			url := f.ts.URL + "/api/agents/calc-agent/stream"
			var bytesOut int64
			b.ReportAllocs()
			for b.Loop() {
				bytesOut = drainSSE(b, client, url, `{"messages":"hi"}`)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(k+1)), "ns/step")
			b.ReportMetric(float64(bytesOut), "stream-B")
		})
	}
}
