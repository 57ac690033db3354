package observational_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model/mock"
)

// replayingEngine is an agent.ReplayingEngine in this process: Record
// keeps what it recorded and, once replay is set, gives it back in
// order instead of running read; groups run their functions in turn.
type replayingEngine struct {
	agent.LocalEngine
	records [][]byte
	replay  bool
	next    int
}

func (e *replayingEngine) Record(ctx context.Context, read func(context.Context) ([]byte, error)) ([]byte, error) {
	if e.replay {
		e.next++
		return e.records[e.next-1], nil
	}
	v, err := read(ctx)
	if err == nil {
		e.records = append(e.records, v)
	}
	return v, err
}

func (e *replayingEngine) NewGroup(ctx context.Context, limit int) agent.Group { return &seqGroup{} }
func (e *replayingEngine) Aborts(func())                                       {}

// seqGroup runs each function as Go is called.
type seqGroup struct{ msgs []any }

func (g *seqGroup) Go(fn func(send func(any) bool)) {
	fn(func(m any) bool { g.msgs = append(g.msgs, m); return true })
}

func (g *seqGroup) Next(bool) (any, bool) {
	if len(g.msgs) == 0 {
		return nil, false
	}
	m := g.msgs[0]
	g.msgs = g.msgs[1:]
	return m, true
}

func (g *seqGroup) Close() {}

// A replayed step does not call the observer again and gives the model
// the prompt the first execution gave it, though the clock has moved.
func TestReplayedStepDoesNotObserveAgain(t *testing.T) {
	st := openStore(t)
	observer := mock.New(mock.Step{Text: observed})
	day := 0
	clock := func() time.Time { day++; return time.Date(2026, 1, 1+day, 9, 0, 0, 0, time.UTC) }
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, Storage: st, Now: clock})
	first := mock.New(mock.Step{Text: "Lovely garden."})
	a := newAgent(t, st, first, om)
	e := &replayingEngine{}
	opts := []agent.Option{agent.WithMemory("thread-1", "user-1"), agent.WithEngine(e), agent.WithRunID("r1")}
	if _, err := a.Generate(context.Background(), long, opts...); err != nil {
		t.Fatal(err)
	}
	e.replay = true
	second := mock.New(mock.Step{Text: "Lovely garden."})
	b := newAgent(t, st, second, om)
	if _, err := b.Generate(context.Background(), long, opts...); err != nil {
		t.Fatal(err)
	}
	if n := len(observer.Calls()); n != 1 {
		t.Errorf("the observer was called %d times across a replay, want 1", n)
	}
	got, want := texts(second.Calls()[0].Messages), texts(first.Calls()[0].Messages)
	if !slices.Equal(got, want) || !hasText(first.Calls()[0].Messages, "User likes green tea") {
		t.Errorf("the replayed step was given\n%q\nthe first\n%q", got, want)
	}
}
