package agent

import (
	"context"
	"testing"
	"time"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
)

// hungEvents is a run event store whose appends hang until their
// context ends.
type hungEvents struct{ storage.RunEvents }

func (hungEvents) AppendEvents(ctx context.Context, _ string, _ ...storage.Event) (int64, error) {
	<-ctx.Done()
	return 0, ctx.Err()
}

// TestAHungEventStoreDoesNotHoldTheRun: appends to a store that hangs
// give up after storeAppendTimeout; the run finishes without its log.
func TestAHungEventStoreDoesNotHoldTheRun(t *testing.T) {
	defer func(d time.Duration) { storeAppendTimeout = d }(storeAppendTimeout)
	storeAppendTimeout = 50 * time.Millisecond
	a := newAgent(t, mock.New(mock.Step{Text: "done"}), nil, func(c *Config) { c.Events = hungEvents{storage.NewMemoryEvents()} })
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		collect(t, a, "hi", WithRunID("run-hung"))
	}()
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		t.Fatal("the run is held by the hung store")
	}
}
