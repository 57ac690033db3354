package aisdk

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/stream"
)

// BenchmarkConvertTextDelta is the hot path of every chat answer: one
// text-delta chunk to one SSE frame.
func BenchmarkConvertTextDelta(b *testing.B) {
	c := NewConverter(StreamOptions{})
	c.Convert(chunk(stream.TypeStart, stream.StartPayload{MessageID: "m"}))
	c.Convert(chunk(stream.TypeStepStart, stream.StepStartPayload{MessageID: "m"}))
	delta := chunk(stream.TypeTextDelta, stream.TextPayload{ID: "t1", Text: "a few words of text "})
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range c.Convert(delta) {
			var err error
			if buf, err = p.AppendJSON(append(buf[:0], "data: "...)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkConvertToolResult converts a tool result carrying a JSON
// object (re-rendered with JavaScript's rules).
func BenchmarkConvertToolResult(b *testing.B) {
	c := NewConverter(StreamOptions{OmitStart: true})
	res := chunk(stream.TypeToolResult, stream.ToolResultPayload{ToolCallID: "c1", ToolName: "weatherTool",
		Args: json.RawMessage(`{"location":"Paris"}`), Result: json.RawMessage(`{"location":"Paris","temperatureCelsius":18.5,"conditions":"Sunny"}`)})
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range c.Convert(res) {
			var err error
			if buf, err = p.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSubAgentSnapshot: with sub-agent metadata every chunk of a
// sub-agent run re-sends the run's snapshot, as Mastra does, so a long
// answer costs quadratically; this is one sub-agent run of 100 text
// deltas, converted and encoded.
func BenchmarkSubAgentSnapshot(b *testing.B) {
	wrap := func(inner stream.Chunk) stream.Chunk {
		inner.RunID, inner.From = "sub-run", stream.FromAgent
		return chunk(stream.TypeToolOutput, stream.ToolOutputPayload{Output: inner, ToolCallID: "c1", ToolName: "agent-writer"})
	}
	start := wrap(chunk(stream.TypeStart, stream.StartPayload{ID: "writer"}))
	delta := wrap(chunk(stream.TypeTextDelta, stream.TextPayload{ID: "t1", Text: "word "}))
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		c := NewConverter(StreamOptions{OmitStart: true, IncludeSubAgentMetadata: true})
		c.Convert(start)
		for range 100 {
			for _, p := range c.Convert(delta) {
				var err error
				if buf, err = p.AppendJSON(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkChatRoute is one chat request over HTTP on loopback: body
// parsing, the agent run on a scripted model (a tool call, then a
// 7-delta answer) and the UI message stream.
func BenchmarkChatRoute(b *testing.B) {
	m := newTestApp(b)
	ts, client := startServer(b, m, server.Options{Routes: testRoutes(m)})
	body := userChat("What is the weather in Paris?", "")
	b.ReportAllocs()
	for b.Loop() {
		res, err := client.Post(ts.URL+"/chat/weather-agent", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			b.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatal(res.Status)
		}
	}
}

// BenchmarkChatRouteResumable is BenchmarkChatRoute on a resumable
// route: the run detached from the request, recorded as the chat's
// active stream (the agent's SQLite thread state) while it runs, and
// read back from its event log.
func BenchmarkChatRouteResumable(b *testing.B) {
	m := newTestApp(b)
	ts, client := startServer(b, m, server.Options{Routes: ChatRoutes(m, ChatRouteOptions{Resumable: true})})
	body := userChat("What is the weather in Paris?", "")
	b.ReportAllocs()
	for b.Loop() {
		res, err := client.Post(ts.URL+"/chat/weather-agent", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			b.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatal(res.Status)
		}
	}
}
