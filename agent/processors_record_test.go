package agent

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// effectProcessor runs an effect per step through StepInput.Record and
// puts its result in the prompt; effects counts the effect's runs, and
// readOnly notes what the steps were told of memory writes.
type effectProcessor struct {
	effects  int
	readOnly []bool
}

func (p *effectProcessor) ID() string { return "effect" }

func (p *effectProcessor) ProcessStep(ctx context.Context, s *StepInput) error {
	p.readOnly = append(p.readOnly, s.ReadOnly)
	got, err := s.Record(ctx, func(context.Context) ([]byte, error) {
		p.effects++
		return []byte("effect " + strconv.Itoa(p.effects)), nil // differs each time it runs
	})
	if err != nil {
		return err
	}
	s.Messages = append(s.Messages, model.UserText(string(got)))
	return nil
}

// A processor's recorded effect runs once across a replay, and the
// replayed step is given what the first run's was.
func TestStepInputRecordRunsOnceAcrossAReplay(t *testing.T) {
	p := &effectProcessor{}
	script := func() *mock.Model { return mock.New(mock.Step{Text: "Done."}) }
	first := script()
	a, err := New(Config{ID: "p", Instructions: "Help.", Model: first, Processors: []StepProcessor{p},
		Storage: memoryStore(t), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	e := &replayingEngine{}
	chunksOf(t, a, "Hi.", WithEngine(e), WithRunID("r1"))
	e.replay = true
	second := script()
	a.cfg.Model = second
	chunksOf(t, a, "Hi.", WithEngine(e), WithRunID("r1"))
	if p.effects != 1 {
		t.Errorf("the effect ran %d times across a replay, want 1", p.effects)
	}
	if got, want := lastUserText(second.Calls()[0].Messages), lastUserText(first.Calls()[0].Messages); got != want || want != "effect 1" {
		t.Errorf("the replayed step was given %q, the first %q (want %q)", got, want, "effect 1")
	}
}

// On an engine that does not replay, Record just runs read each time.
func TestStepInputRecordRunsReadOnALocalEngine(t *testing.T) {
	p := &effectProcessor{}
	a, err := New(Config{ID: "p", Instructions: "Help.", Model: mock.New(mock.Step{Text: "A."}, mock.Step{Text: "B."}), Logger: slog.New(slog.DiscardHandler),
		Processors: []StepProcessor{p}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := a.Generate(context.Background(), "Hi."); err != nil {
			t.Fatal(err)
		}
	}
	if p.effects != 2 {
		t.Errorf("the effect ran %d times in two runs, want 2", p.effects)
	}
}

// StepInput.ReadOnly is set for a read-only run (WithMemoryReadOnly or
// MemoryOptions.ReadOnly) and clear otherwise.
func TestStepInputReadOnly(t *testing.T) {
	for _, c := range []struct {
		name      string
		agentRO   bool
		opts      []Option
		wantSteps string
	}{
		{"writable", false, nil, "false"},
		{"WithMemoryReadOnly", false, []Option{WithMemoryReadOnly()}, "true"},
		{"MemoryOptions.ReadOnly", true, nil, "true"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &effectProcessor{}
			a, err := New(Config{ID: "p", Instructions: "Help.", Model: mock.New(mock.Step{Text: "A."}),
				Storage: memoryStore(t), Logger: slog.New(slog.DiscardHandler), Memory: &MemoryOptions{ReadOnly: c.agentRO}, Processors: []StepProcessor{p}})
			if err != nil {
				t.Fatal(err)
			}
			opts := append([]Option{WithMemory("t1", "u1")}, c.opts...)
			if _, err := a.Generate(context.Background(), "Hi.", opts...); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ro := range p.readOnly {
				got = append(got, strconv.FormatBool(ro))
			}
			if strings.Join(got, " ") != c.wantSteps {
				t.Errorf("ReadOnly per step = %v, want %s", got, c.wantSteps)
			}
		})
	}
}
