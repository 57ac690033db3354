package observational_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// roles is a model that observes and reflects: its Nth observer answer
// is 20 lines "fact N line i"; its reflector answers "condensed M" for
// its Mth call, after waiting for release when set.
type roles struct {
	*mock.Model
	mu                 sync.Mutex
	observes, reflects int
}

func (r *roles) counts() (observes, reflects int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.observes, r.reflects
}

func newRoles(release <-chan struct{}) *roles {
	r := &roles{}
	r.Model = mock.NewFunc(func(req *model.Request) mock.Step {
		if strings.Contains(req.Messages[len(req.Messages)-1].TextContent(), "OBSERVATIONS TO REFLECT ON") {
			if release != nil {
				<-release
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			r.reflects++
			return mock.Step{Text: fmt.Sprintf("<observations>\n* 🔴 condensed %d\n</observations>", r.reflects)}
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.observes++
		lines := []string{"Date: Jan 2, 2026"}
		for i := 1; i <= 20; i++ {
			lines = append(lines, fmt.Sprintf("* 🟡 (10:%02d) fact %d line %d about the garden", i, r.observes, i))
		}
		return mock.Step{Text: "<observations>\n" + strings.Join(lines, "\n") + "\n</observations>"}
	})
	return r
}

// reflConfig has each run observe synchronously (one long message past
// MessageTokens) into 21 lines of about 286 tokens, so that a first
// observation passes half of ObservationTokens (500) and a second, at
// about 591, reaches it but not ReflectionBlockAfter (1.2×, 600).
func reflConfig(st observational.Config) observational.Config {
	st.MessageTokens, st.BufferTokens, st.ObservationTokens = 200, 0.2, 500
	return st
}

func loadRec(t *testing.T, om *observational.Processor) observational.Record {
	t.Helper()
	rec, err := om.Load(context.Background(), "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// Past ReflectionBufferActivation of ObservationTokens a reflection of
// the observations up to that point is made in the background and kept
// in the record, not shown; at ObservationTokens it is activated,
// followed by the observations it did not cover, as a new generation,
// with no reflector call in the step.
func TestBufferedReflectionActivatesAtTheThreshold(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	release := make(chan struct{})
	r := newRoles(release)
	om := newOM(t, reflConfig(observational.Config{Model: r, Storage: st}))
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	mem := agent.WithMemory("thread-1", "user-1")
	if _, err := a.Generate(ctx, long, mem); err != nil {
		t.Fatal(err)
	}
	if rec := loadRec(t, om); !rec.IsBufferingReflection || rec.BufferedReflection != "" || rec.GenerationCount != 0 {
		t.Fatalf("after the first observation: buffering %v, buffered %q, generation %d", rec.IsBufferingReflection, rec.BufferedReflection, rec.GenerationCount)
	}
	close(release)
	if err := om.WaitForBuffering(ctx, "thread-1", "user-1"); err != nil {
		t.Fatal(err)
	}
	rec := loadRec(t, om)
	if rec.IsBufferingReflection || !strings.Contains(rec.BufferedReflection, "condensed 1") || rec.ReflectedObservationLineCount != 18 ||
		rec.BufferedReflectionInputTokens == 0 || rec.BufferedReflectionTokens == 0 || !strings.Contains(rec.ActiveObservations, "fact 1 line 1 ") {
		t.Fatalf("after buffering: %+v", rec)
	}
	if got := actor.Calls()[0].Messages; hasText(got, "condensed") {
		t.Errorf("the buffered reflection was shown before activation: %q", texts(got))
	}
	if _, err := a.Generate(ctx, long, mem); err != nil {
		t.Fatal(err)
	}
	if _, reflects := r.counts(); reflects != 1 {
		t.Errorf("%d reflector calls, want the buffered one", reflects)
	}
	rec = loadRec(t, om)
	if rec.GenerationCount != 1 || rec.OriginType != observational.OriginReflection || rec.BufferedReflection != "" || rec.ReflectedObservationLineCount != 0 ||
		!strings.HasPrefix(rec.ActiveObservations, "* 🔴 condensed 1\n\n* 🟡 (10:18) fact 1 line 18") ||
		strings.Contains(rec.ActiveObservations, "fact 1 line 17") || !strings.Contains(rec.ActiveObservations, "fact 2 line 20") {
		t.Errorf("after activation: %+v", rec)
	}
	got := actor.Calls()[1].Messages
	if !hasText(got, "condensed 1") || hasText(got, "fact 1 line 2 ") || !hasText(got, "fact 2 line 1 ") {
		t.Errorf("prompt after activation %q", texts(got))
	}
	hist, err := om.History(ctx, "thread-1", "user-1", observational.HistoryQuery{})
	if err != nil || len(hist) != 2 || hist[1].BufferedReflection != "" {
		t.Errorf("history: %d generations, err %v", len(hist), err)
	}
}

// A step reaching ObservationTokens while a buffered reflection is in
// flight waits for it (the model is not called before the reflector
// answers), then activates it.
func TestStepAtReflectionThresholdWaits(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	release := make(chan struct{})
	r := newRoles(release)
	om := newOM(t, reflConfig(observational.Config{Model: r, Storage: st}))
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	mem := agent.WithMemory("thread-1", "user-1")
	if _, err := a.Generate(ctx, long, mem); err != nil {
		t.Fatal(err)
	}
	holdAtThreshold(t, om, actor, release, "the buffered reflection", func() error {
		_, err := a.Generate(ctx, long, mem)
		return err
	})
	if _, reflects := r.counts(); reflects != 1 {
		t.Errorf("%d reflector calls, want 1", reflects)
	}
	if rec := loadRec(t, om); rec.GenerationCount != 1 || !strings.HasPrefix(rec.ActiveObservations, "* 🔴 condensed 1") {
		t.Errorf("after the wait: %+v", rec)
	}
	if got := actor.Calls()[1].Messages; !hasText(got, "condensed 1") || hasText(got, "fact 1 line 1 ") {
		t.Errorf("prompt after the wait %q", texts(got))
	}
}

// At ObservationTokens with nothing buffered, a step starts a buffered
// reflection and goes on unreflected below ReflectionBlockAfter; from
// it, the step reflects synchronously.
func TestReflectionWithNothingBuffered(t *testing.T) {
	for _, c := range []struct {
		name       string
		blockAfter float64
		sync       bool
	}{{"below block after", 0, false}, {"from block after", 550, true}} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			st := openStore(t)
			r := newRoles(nil)
			// Activation 1: nothing is buffered before the threshold.
			om := newOM(t, reflConfig(observational.Config{Model: r, Storage: st, ReflectionBufferActivation: 1, ReflectionBlockAfter: c.blockAfter}))
			actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
			a := newAgent(t, st, actor, om)
			mem := agent.WithMemory("thread-1", "user-1")
			for range 2 {
				if _, err := a.Generate(ctx, long, mem); err != nil {
					t.Fatal(err)
				}
			}
			if err := om.WaitForBuffering(ctx, "thread-1", "user-1"); err != nil {
				t.Fatal(err)
			}
			rec := loadRec(t, om)
			got := actor.Calls()[1].Messages
			if c.sync {
				if rec.GenerationCount != 1 || rec.BufferedReflection != "" || !hasText(got, "condensed 1") {
					t.Errorf("no synchronous reflection: %+v, prompt %q", rec, texts(got))
				}
				return
			}
			if rec.GenerationCount != 0 || !strings.Contains(rec.BufferedReflection, "condensed 1") || hasText(got, "condensed") || !hasText(got, "fact 1 line 1 ") {
				t.Errorf("not buffered: %+v, prompt %q", rec, texts(got))
			}
		})
	}
}

// A buffered reflection is started inside the step's recorded part: a
// replayed step does not start it again.
func TestReplayedStepDoesNotBufferReflectionAgain(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	r := newRoles(nil)
	om := newOM(t, reflConfig(observational.Config{Model: r, Storage: st}))
	e := &replayingEngine{}
	opts := []agent.Option{agent.WithMemory("thread-1", "user-1"), agent.WithEngine(e), agent.WithRunID("r1")}
	if _, err := newAgent(t, st, mock.New(mock.Step{Text: "ok"}), om).Generate(ctx, long, opts...); err != nil {
		t.Fatal(err)
	}
	if err := om.WaitForBuffering(ctx, "thread-1", "user-1"); err != nil {
		t.Fatal(err)
	}
	e.replay = true
	if _, err := newAgent(t, st, mock.New(mock.Step{Text: "ok"}), om).Generate(ctx, long, opts...); err != nil {
		t.Fatal(err)
	}
	if err := om.WaitForBuffering(ctx, "thread-1", "user-1"); err != nil {
		t.Fatal(err)
	}
	if observes, reflects := r.counts(); observes != 1 || reflects != 1 {
		t.Errorf("%d observer and %d reflector calls across a replay, want 1 and 1", observes, reflects)
	}
}
