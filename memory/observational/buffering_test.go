package observational_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// sized is a user message of about n tokens naming itself.
func sized(name string, n int) string {
	return name + ": " + strings.Repeat("word ", n)
}

// counted is an observer that answers "buffered N" for its Nth call,
// after waiting for release when it is set.
type counted struct {
	*mock.Model
	mu sync.Mutex
	n  int
}

func (c *counted) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func countingObserver(release <-chan struct{}) *counted {
	c := &counted{}
	c.Model = mock.NewFunc(func(*model.Request) mock.Step {
		if release != nil {
			<-release
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
		return mock.Step{Text: fmt.Sprintf("<observations>\nDate: Jan 2, 2026\n* 🔴 (10:00) buffered %d\n</observations>", c.n)}
	})
	return c
}

// Below MessageTokens, observations are buffered in the background at
// each BufferTokens interval and not shown; at MessageTokens they are
// activated, with no synchronous observer call, and their messages
// leave the prompt.
func TestBufferedObservationsActivateAtTheThreshold(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := countingObserver(nil)
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 1000, BufferTokens: 0.2, Storage: st})
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	mem := agent.WithMemory("thread-1", "user-1")
	for i, name := range []string{"alpha", "beta", "gamma"} {
		if _, err := a.Generate(ctx, sized(name, 300), mem); err != nil {
			t.Fatal(err)
		}
		if err := om.WaitForBuffering(ctx, "thread-1", "user-1"); err != nil {
			t.Fatal(err)
		}
		rec, err := om.Load(ctx, "thread-1", "user-1")
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.BufferedObservationChunks) != i+1 || rec.ActiveObservations != "" || len(rec.ObservedMessageIDs) != 0 {
			t.Fatalf("after %s: %d chunks, active %q, observed %v", name, len(rec.BufferedObservationChunks), rec.ActiveObservations, rec.ObservedMessageIDs)
		}
		if got := actor.Calls()[i].Messages; hasText(got, "buffered") || !hasText(got, "alpha: word") {
			t.Fatalf("run %d was shown buffered observations or lost its messages: %q", i, texts(got))
		}
	}
	if _, err := a.Generate(ctx, sized("delta", 300), mem); err != nil {
		t.Fatal(err)
	}
	if n := observer.calls(); n != 3 {
		t.Errorf("%d observer calls, want the 3 buffered ones", n)
	}
	got := actor.Calls()[3].Messages
	if !hasText(got, "buffered 1") || !hasText(got, "buffered 3") || hasText(got, "alpha: word") || hasText(got, "gamma: word") || !hasText(got, "delta: word") {
		t.Errorf("activated prompt %q", texts(got))
	}
	rec, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.BufferedObservationChunks) != 0 || rec.BufferedObservations != "" || len(rec.ObservedMessageIDs) != 5 ||
		!strings.Contains(rec.ActiveObservations, "buffered 2") || rec.LastObservedAt == nil {
		t.Errorf("record after activation: %+v", rec)
	}
}

// At MessageTokens with no chunk to activate (one message past the
// threshold at once) a step observes synchronously.
func TestWithoutChunksObservesSynchronously(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	observer := countingObserver(nil)
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 1000, BufferTokens: 0.2, Storage: st})
	actor := mock.New(mock.Step{Text: "ok"})
	a := newAgent(t, st, actor, om)
	if _, err := a.Generate(ctx, sized("huge", 1300), agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	if got := actor.Calls()[0].Messages; !hasText(got, "buffered 1") || hasText(got, "huge: word") {
		t.Errorf("prompt %q", texts(got))
	}
	rec, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.ObservedMessageIDs) != 1 || len(rec.BufferedObservationChunks) != 0 || rec.IsBufferingObservation {
		t.Errorf("record %+v", rec)
	}
}

// WaitForBuffering returns when the buffered observation in flight has
// been stored, or with ctx's error first.
func TestWaitForBuffering(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	release := make(chan struct{})
	om := newOM(t, observational.Config{Model: countingObserver(release), MessageTokens: 1000, BufferTokens: 0.2, Storage: st})
	a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}), om)
	if err := om.WaitForBuffering(ctx, "thread-1", "user-1"); err != nil {
		t.Fatalf("nothing in flight: %v", err)
	}
	if _, err := a.Generate(ctx, sized("alpha", 300), agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	rec, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	if !rec.IsBufferingObservation {
		t.Error("IsBufferingObservation is false while the observer answers")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := om.WaitForBuffering(done, "thread-1", "user-1"); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitForBuffering with an ended context = %v while in flight", err)
	}
	close(release)
	if err := om.WaitForBuffering(ctx, "thread-1", "user-1"); err != nil {
		t.Fatal(err)
	}
	if rec, err = om.Load(ctx, "thread-1", "user-1"); err != nil {
		t.Fatal(err)
	}
	if rec.IsBufferingObservation || len(rec.BufferedObservationChunks) != 1 || !strings.Contains(rec.BufferedObservations, "buffered 1") ||
		rec.BufferedObservationChunks[0].MessageTokens == 0 || len(rec.BufferedObservationChunks[0].MessageIDs) != 1 {
		t.Errorf("record after buffering: %+v", rec)
	}
}

// Buffering is on by default in thread scope, off in resource scope
// (where asking for it is refused, as in Mastra), and checked.
func TestBufferingConfig(t *testing.T) {
	st := openStore(t)
	for _, c := range []struct {
		name string
		cfg  observational.Config
		ok   bool
	}{
		{"defaults", observational.Config{}, true},
		{"off", observational.Config{BufferTokens: observational.BufferingOff}, true},
		{"resource default", observational.Config{Scope: observational.ScopeResource}, true},
		{"resource asked", observational.Config{Scope: observational.ScopeResource, BufferTokens: 0.1}, false},
		{"off with activation", observational.Config{BufferTokens: observational.BufferingOff, BufferActivation: 0.5}, false},
		{"buffer above threshold", observational.Config{MessageTokens: 1000, BufferTokens: 1500}, false},
		{"activation between 1 and 1000", observational.Config{BufferActivation: 5}, false},
		{"block below threshold", observational.Config{MessageTokens: 1000, BlockAfter: 500}, false},
		{"reflection buffering off", observational.Config{ReflectionBufferActivation: observational.BufferingOff}, true},
		{"reflection off with block after", observational.Config{ReflectionBufferActivation: observational.BufferingOff, ReflectionBlockAfter: 2}, false},
		{"reflection activation above 1", observational.Config{ReflectionBufferActivation: 1.5}, false},
		{"reflection block below threshold", observational.Config{ObservationTokens: 1000, ReflectionBlockAfter: 500}, false},
		{"reflection without buffering", observational.Config{BufferTokens: observational.BufferingOff, ReflectionBufferActivation: 0.5}, false},
		{"reflection buffering in resource scope", observational.Config{Scope: observational.ScopeResource, ReflectionBufferActivation: 0.5}, false},
	} {
		c.cfg.Model, c.cfg.Storage = mock.New(), st
		if _, err := observational.New(c.cfg); (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.name, err, c.ok)
		}
	}
}
