package enginetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type topic struct {
	Topic string `json:"topic"`
}

// backgroundTask: a deferred background call does not hold the run up —
// the run streams the task's start and the placeholder and finishes
// while the tool still runs — and once the task ends its result
// replaces the placeholder in the thread's memory; the tool ran once.
func backgroundTask(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	var c counts
	release := make(chan struct{})
	released := false
	t.Cleanup(func() {
		if !released {
			close(release) // before the manager's shutdown, which waits for the tool
		}
	})
	research := tools.New(tools.Config[topic, string]{ID: "research", Description: "Researches a topic.",
		Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(ctx tools.Context, in topic) (string, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return "", ctx.Err()
			}
			c.add("research")
			return "all about " + in.Topic, nil
		}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "r1", Name: "research", Args: `{"topic":"owls"}`}}}, mock.Step{Text: "On it."})
	store, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	reg := registryOn(t, store, nil, agent.Config{ID: "researcher", Model: m, Tools: tools.Set{"research": research}, Memory: &agent.MemoryOptions{}})
	mgr, err := reg.EnableBackgroundTasks(context.Background(), bgtasks.Config{Store: store, PollInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mgr.Shutdown(context.Background()) })

	out := run(t, newRunner(t, reg), "researcher", Input{Prompt: "Research owls.", ThreadID: "thread-1", ResourceID: "user-1"})
	if len(out.of("background-task-started")) != 1 {
		t.Fatalf("chunks %s: want one background-task-started", types(out))
	}
	results := out.of(stream.TypeToolResult)
	if len(results) != 1 || !strings.Contains(asJSON(field(results[0], "result")), "Background task started") {
		t.Fatalf("tool results %v: want the placeholder", results)
	}
	wantText(t, out, "On it.")
	wantFinish(t, out, "stop")
	c.want(t, "research", 0) // the run ended before the tool did

	close(release)
	released = true
	ctx := ctxOf(t)
	for !toolMessageHolds(ctx, t, store, "thread-1", "all about owls") {
		select {
		case <-ctx.Done():
			t.Fatal("the task's result never reached memory")
		case <-time.After(20 * time.Millisecond):
		}
	}
	c.want(t, "research", 1)
}

// toolMessageHolds reports whether a tool message of the thread holds
// text.
func toolMessageHolds(ctx context.Context, t *testing.T, store *sqlite.Store, thread, text string) bool {
	msgs, err := store.ListMessages(ctx, thread, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Role == "tool" && strings.Contains(string(m.Content), text) {
			return true
		}
	}
	return false
}
