package server

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/agent"
)

// panickingProcessor panics in every step.
type panickingProcessor struct{}

func (panickingProcessor) ID() string { return "panics" }

func (panickingProcessor) ProcessStep(context.Context, *agent.StepInput) error {
	panic("a processor bug")
}

// TestDetachedRunThatPanicsKeepsTheServerUp: a detached stream's run
// runs on a goroutine of its own, outside the request's recover guard; a
// panic there is logged and ends the stream, and the server serves on.
func TestDetachedRunThatPanicsKeepsTheServerUp(t *testing.T) {
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Processors = []agent.StepProcessor{panickingProcessor{}} }))
	r, _ := f.do(t, "POST", "/api/agents/calc-agent/stream", `{"messages":"hi"}`)
	r.Body.Close()
	if r, _ := f.do(t, "GET", "/api/agents", ""); r.StatusCode != 200 {
		t.Errorf("after the panic: %d", r.StatusCode)
	}
}
