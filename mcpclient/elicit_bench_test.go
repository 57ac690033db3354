package mcpclient

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gomastra/mastra/tools"
)

// The cost of a call that can suspend on an elicitation (an agent's call:
// it has a tool call id) next to BenchmarkCallToolInMemory's direct call:
// the detached request goroutine and its bookkeeping.
func BenchmarkCallToolSuspendable(b *testing.B) {
	c := newClient(b, Config{Servers: map[string]ServerConfig{"srv": inMemory(newTestServer())}})
	add := c.ListTools(context.Background())["srv_add"]
	args := json.RawMessage(`{"a":1,"b":2}`)
	inv := &tools.Invocation{RunID: "run", ToolCallID: "call"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := add.Execute(context.Background(), args, inv); err != nil {
			b.Fatal(err)
		}
	}
}

// A suspend→resume round trip of an elicitation, in process.
func BenchmarkElicitationSuspendResume(b *testing.B) {
	c := newClient(b, Config{Servers: map[string]ServerConfig{"s": inMemory(elicitingServer(classicVersions))}})
	set, err := c.ServerTools(context.Background(), "s")
	if err != nil {
		b.Fatal(err)
	}
	book := set["book"]
	answer := json.RawMessage(`{"action":"accept","content":{"seat":"7C"}}`)
	b.ReportAllocs()
	for b.Loop() {
		inv := &tools.Invocation{RunID: "run", ToolCallID: "call"}
		res, err := book.Execute(context.Background(), nil, inv)
		if err != nil || !res.Suspended() {
			b.Fatal(err, res)
		}
		inv.ResumeData, inv.SuspendPayload = answer, res.Suspension.Payload
		if res, err = book.Execute(context.Background(), nil, inv); err != nil || res.Suspended() {
			b.Fatal(err, res)
		}
	}
}
