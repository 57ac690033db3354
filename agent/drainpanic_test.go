package agent

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/model/mock"
)

// panicking is a step processor that panics.
type panicking struct{}

func (panicking) ID() string { return "panicking" }

func (panicking) ProcessStep(context.Context, *StepInput) error { panic("processor bug") }

// TestAGenerateThatPanicsIsNoLongerActive: a Generate whose run panics
// leaves no active run behind (AbortRun finds nothing to stop), as a
// Stream that panics does not.
func TestAGenerateThatPanicsIsNoLongerActive(t *testing.T) {
	a := newAgent(t, mock.New(mock.Step{Text: "hi"}), nil, func(c *Config) { c.Processors = []StepProcessor{panicking{}} })
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("Generate did not panic")
			}
		}()
		_, _ = a.Generate(context.Background(), "hi", WithRunID("run-panic"))
	}()
	if aborted, err := a.AbortRun(context.Background(), "run-panic"); aborted || err != nil {
		t.Errorf("AbortRun after the panic: %v, %v", aborted, err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("Stream did not panic")
			}
		}()
		for range a.Stream(context.Background(), "hi", WithRunID("run-panic-stream")) {
		}
	}()
	if aborted, err := a.AbortRun(context.Background(), "run-panic-stream"); aborted || err != nil {
		t.Errorf("AbortRun after the stream's panic: %v, %v", aborted, err)
	}
}
