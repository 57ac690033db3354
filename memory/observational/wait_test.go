package observational_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// firstBlocks is an observer whose first call waits for release; later
// calls answer at once. Each answer names its call.
// calls reports how many calls it had.
func firstBlocks(release <-chan struct{}) (m *mock.Model, calls func() int) {
	var mu sync.Mutex
	n := 0
	calls = func() int { mu.Lock(); defer mu.Unlock(); return n }
	return mock.NewFunc(func(*model.Request) mock.Step {
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		if i == 1 {
			<-release
		}
		return mock.Step{Text: fmt.Sprintf("<observations>\nDate: Jan 2, 2026\n* 🔴 (10:00) observed by call %d\n</observations>", i)}
	}), calls
}

// A step reaching MessageTokens while a buffered observation is in
// flight waits for it (it does not return, nor observe synchronously,
// before the observer answers) and then activates it.
func TestStepAtThresholdWaitsForBufferInFlight(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	release := make(chan struct{})
	observer, calls := firstBlocks(release)
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 1000, BufferTokens: 0.2, Storage: st})
	actor := mock.New(mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, st, actor, om)
	mem := agent.WithMemory("thread-1", "user-1")
	if _, err := a.Generate(ctx, sized("alpha", 300), mem); err != nil {
		t.Fatal(err) // returns with alpha's buffered observation in flight
	}
	holdAtThreshold(t, om, actor, release, "the buffered observation", func() error {
		_, err := a.Generate(ctx, sized("beta", 800), mem)
		return err
	})
	if n := calls(); n != 1 {
		t.Errorf("%d observer calls, want the buffered one only", n)
	}
	got := actor.Calls()[1].Messages
	if !hasText(got, "observed by call 1") || hasText(got, "alpha: word") || !hasText(got, "beta: word") {
		t.Errorf("prompt after the wait %q", texts(got))
	}
	rec, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	// The chunk holds alpha; the first answer and beta stay unobserved.
	if len(rec.ObservedMessageIDs) != 1 || len(rec.BufferedObservationChunks) != 0 {
		t.Errorf("record after activation: observed %v, %d chunks", rec.ObservedMessageIDs, len(rec.BufferedObservationChunks))
	}
}

// holdAtThreshold runs step, a generate whose step reaches a threshold
// while what (buffered in the background, blocked until release is
// closed) is in flight, and checks that the step waits for it: it
// reaches om's wait, has not returned and has not called actor again
// (actor ran once before) until release is closed; then it must end
// without error.
func holdAtThreshold(t *testing.T, om *observational.Processor, actor *mock.Model, release chan struct{}, what string, step func() error) {
	t.Helper()
	waiting := make(chan struct{}, 1)
	observational.SetWaiting(om, func(string) {
		select {
		case waiting <- struct{}{}:
		default:
		}
	})
	done := make(chan error, 1)
	go func() { done <- step() }()
	select {
	case <-waiting:
	case err := <-done:
		close(release)
		t.Fatalf("the step at the threshold returned (err %v) without waiting for %s", err, what)
	}
	select {
	case err := <-done:
		t.Fatalf("the step returned (err %v) while waiting", err)
	default:
	}
	if n := len(actor.Calls()); n != 1 {
		t.Fatalf("the model was called %d times before %s ended, want 1 (the first run)", n, what)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
