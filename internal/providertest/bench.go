package providertest

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/model"
)

// The providers' step benchmarks (BenchmarkStep…) each stream
// BenchRequest through the provider's model from a Server replaying the
// provider's bench_step.sse fixture: text deltas, then one tool call with
// streamed arguments, then usage. Beside each, BenchmarkBareLoop… does
// the same HTTP exchange by hand (net/http and encoding/json only), with
// the same client setup (BenchClient): the floor the model's step is
// measured against.

// BenchText is the text of every bench_step.sse fixture, and BenchInput
// the arguments of its tool call (get_weather), as streamed.
const (
	BenchText  = "I'll check the current weather in Paris for you before we decide on the umbrella."
	BenchInput = `{"city":"Paris","unit":"c","days": 3}`
)

// BenchRequest is the request of the step benchmarks: a system message, a
// short conversation with an earlier tool call and its result, two
// function tools with JSON schemas, and sampling settings.
func BenchRequest() *model.Request {
	weather := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"city": {Type: "string", Description: "City name, e.g. Paris"},
			"unit": {Type: "string", Enum: []any{"c", "f"}, Description: "Temperature unit"},
			"days": {Type: "integer", Description: "Days of forecast, 1 to 7"},
		},
		Required:             []string{"city"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	flights := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"from":       {Type: "string", Description: "IATA code of the departure airport"},
			"to":         {Type: "string", Description: "IATA code of the arrival airport"},
			"date":       {Type: "string", Format: "date", Description: "Departure date, YYYY-MM-DD"},
			"passengers": {Type: "integer", Description: "Number of passengers"},
			"cabin":      {Type: "string", Enum: []any{"economy", "premium", "business", "first"}},
		},
		Required:             []string{"from", "to", "date"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	temperature, maxTokens := 0.2, 1024
	return &model.Request{
		Messages: []model.Message{
			model.System("You are a concise travel assistant. Use the tools to look up weather and flights; never invent figures. Answer in one or two sentences."),
			model.UserText("I'm flying to Lyon tomorrow. What's the weather there?"),
			model.Assistant(model.Text("Let me check."), model.ToolCall("call_prev1", "get_weather", json.RawMessage(`{"city":"Lyon","unit":"c"}`))),
			model.ToolMessage(model.ToolResultPart{ToolCallID: "call_prev1", ToolName: "get_weather",
				Output: model.JSONOutput(map[string]any{"city": "Lyon", "temp": 21, "conditions": "sunny", "wind_kph": 12})}),
			model.Assistant(model.Text("Lyon will be sunny, 21 °C with a light wind.")),
			model.UserText("Great. And Paris on Friday: do I need an umbrella?"),
		},
		Tools: []model.ToolDefinition{
			{Type: model.ToolTypeFunction, Name: "get_weather", Description: "Get the current weather and forecast for a city", InputSchema: weather},
			{Type: model.ToolTypeFunction, Name: "search_flights", Description: "Search flights between two airports", InputSchema: flights},
		},
		Settings: model.CallSettings{Temperature: &temperature, MaxOutputTokens: &maxTokens},
	}
}

// BenchClient is the HTTP client of a step benchmark and of its bare
// loop: its own keep-alive transport, so that every request after the
// first reuses a connection.
func BenchClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: 16, MaxIdleConnsPerHost: 16, IdleConnTimeout: time.Minute}}
}

// CPUPerOp starts measuring the process's CPU time; the function it
// returns, called after b's loop, reports it per iteration as cpu-ns/op:
// the client's and the local server's work, which a busy machine inflates
// less than the wall time of ns/op.
func CPUPerOp(b *testing.B) (stop func()) {
	start := processCPU()
	return func() {
		if used := processCPU() - start; used > 0 && b.N > 0 {
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// DrainStep runs one step through m and collects its text and its tool
// call's input as a consumer would; it fails b unless they are text and
// input and the stream finished.
func DrainStep(b *testing.B, m model.LanguageModel, req *model.Request, text, input string) {
	var gotText, gotInput strings.Builder
	var finished bool
	for p, err := range m.Stream(context.Background(), req) {
		if err != nil {
			b.Fatal(err)
		}
		switch p.Type {
		case model.PartTextDelta:
			gotText.WriteString(p.Delta)
		case model.PartToolInputDelta:
			gotInput.WriteString(p.Delta)
		case model.PartFinish:
			finished = true
		case model.PartError:
			b.Fatal(p.Err)
		}
	}
	if gotText.String() != text || gotInput.String() != input || !finished {
		b.Fatalf("text %q, input %q, finished %v", gotText.String(), gotInput.String(), finished)
	}
}

// SameRequest checks that srv's requests 0 (a model's) and 1 (a bare
// loop's) carry the same JSON body and the same headers (but for
// Content-Length).
func SameRequest(t *testing.T, srv *Server) {
	t.Helper()
	if d := cmp.Diff(srv.JSONBody(t, 0), srv.JSONBody(t, 1)); d != "" {
		t.Errorf("body (-model +bare):\n%s", d)
	}
	reqs := srv.Requests()
	want, got := reqs[0].Header, reqs[1].Header
	if d := cmp.Diff(slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got))); d != "" {
		t.Errorf("header names (-model +bare):\n%s", d)
	}
	for k := range want {
		if k != "Content-Length" && got.Get(k) != want.Get(k) {
			t.Errorf("header %s: bare %q, model %q", k, got.Get(k), want.Get(k))
		}
	}
}

// Bare is a bare loop's step: the request sent by hand to url through
// client, the answer read back into its text and its tool call's input.
type Bare func(ctx context.Context, client *http.Client, url string, req *model.Request) (text, input string, err error)

// BenchStep benchmarks one model step of the model newModel makes for
// the local server of fixture: the request converted and sent, the answer
// decoded into stream parts, all of them consumed (its text must be
// BenchText and its tool call's input input).
func BenchStep(b *testing.B, fixture, input string, newModel func(fs *Server, client *http.Client) model.LanguageModel) {
	fs := New(b, Reply{Fixture: fixture})
	fs.Discard()
	m := newModel(fs, BenchClient())
	req := BenchRequest()
	b.ReportAllocs()
	defer CPUPerOp(b)()
	for b.Loop() {
		DrainStep(b, m, req, BenchText, input)
	}
}

// BenchBareLoop benchmarks the same exchange as BenchStep done by a bare
// loop against path of the local server of fixture, with the same client
// setup.
func BenchBareLoop(b *testing.B, fixture, path, input string, bare Bare) {
	fs := New(b, Reply{Fixture: fixture})
	fs.Discard()
	client := BenchClient()
	req := BenchRequest()
	b.ReportAllocs()
	defer CPUPerOp(b)()
	for b.Loop() {
		text, got, err := bare(context.Background(), client, fs.URL+path, req)
		if err != nil {
			b.Fatal(err)
		}
		if text != BenchText || got != input {
			b.Fatalf("text %q, input %q", text, got)
		}
	}
}
