package enginetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

func init() {
	Cases = append(Cases,
		Case{"StepProcessorRecord", stepProcessorRecord},
		Case{"ObservationalMemory", observationalMemory},
	)
}

// recordingProcessor records one effect per step (StepInput.Record) and
// shows the model its result; runs counts the effect's runs.
type recordingProcessor struct {
	mu   sync.Mutex
	runs int
}

func (p *recordingProcessor) ID() string { return "recording" }

func (p *recordingProcessor) ProcessStep(ctx context.Context, s *agent.StepInput) error {
	got, err := s.Record(ctx, func(context.Context) ([]byte, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.runs++
		return fmt.Appendf(nil, "effect %d of step %d", p.runs, s.StepNumber), nil
	})
	if err != nil {
		return err
	}
	s.Messages = append(s.Messages, model.UserText(string(got)))
	return nil
}

// stepProcessorRecord: a step processor's recorded effect runs once per
// step, and the model is given what it returned.
func stepProcessorRecord(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	p := &recordingProcessor{}
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		n := toolMessages(req)
		if !prompted(req, fmt.Sprintf("effect %d of step %d", n+1, n)) {
			return mock.Step{Text: "wrong effect"}
		}
		if n < 2 {
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: fmt.Sprintf("call-%d", n), Name: "add", Args: `{"a":1,"b":2}`}}}
		}
		return mock.Step{Text: "The sum is 3."}
	})
	reg := registry(t, agent.Config{ID: "recorder", Model: m, Tools: tools.Set{"add": addTool(&c)}, Processors: []agent.StepProcessor{p}})
	out := run(t, newRunner(t, reg), "recorder", Input{Prompt: "Add 1 and 2, twice."})
	wantText(t, out, "The sum is 3.")
	c.want(t, "add", 2)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.runs != 3 {
		t.Errorf("the processor's effect ran %d times in 3 steps, want 3", p.runs)
	}
}

// observationalMemory: a thread that outgrows its observation threshold
// is observed once, and the model is given the observations in place of
// the observed messages.
func observationalMemory(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	store, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	observer := mock.New(mock.Step{Text: "<observations>\nDate: Jan 2, 2026\n* 🔴 (10:00) User grows basil\n</observations>"})
	om, err := observational.New(observational.Config{Model: observer, MessageTokens: 200, Storage: store, BufferTokens: observational.BufferingOff})
	if err != nil {
		t.Fatal(err)
	}
	actor := mock.NewFunc(func(req *model.Request) mock.Step {
		if prompted(req, "User grows basil") && !prompted(req, "tomatoes by the fence") {
			return mock.Step{Text: "Observed."}
		}
		return mock.Step{Text: "Not observed."}
	})
	reg := registryOn(t, store, nil, agent.Config{ID: "observed", Model: actor, Memory: &agent.MemoryOptions{LastMessages: 100},
		Processors: []agent.StepProcessor{om}})
	in := Input{Prompt: "My garden: " + strings.Repeat("basil and tomatoes by the fence; ", 40), ThreadID: "thread-om", ResourceID: "user-1"}
	wantText(t, run(t, newRunner(t, reg), "observed", in), "Observed.")
	if n := len(observer.Calls()); n != 1 {
		t.Errorf("the observer was called %d times, want 1", n)
	}
	rec, err := om.Load(context.Background(), "thread-om", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.ActiveObservations, "User grows basil") || len(rec.ObservedMessageIDs) != 1 {
		t.Errorf("stored record: observations %q, observed %v", rec.ActiveObservations, rec.ObservedMessageIDs)
	}
}
