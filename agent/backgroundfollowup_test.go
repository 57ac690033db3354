package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

func TestFollowUpTurnAnswersOnTheThreadWhenNoStreamIsOpen(t *testing.T) {
	release := make(chan struct{})
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls"}`}}},
		mock.Step{Text: "Started."},
		mock.Step{Text: "Owls are great."},
	)
	store := memoryStore(t)
	a := bgAgent(t, m, tools.Set{"research": researchTool(release, &tools.BackgroundConfig{Enabled: true})}, mgr,
		func(c *Config) {
			c.Storage, c.Memory = store, &MemoryOptions{}
			c.Background = &BackgroundTasks{FollowUp: true}
		})
	chunksOf(t, a, "research owls", WithMemory("th-f", "user-1"))
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for {
		msgs, err := store.ListMessages(context.Background(), "th-f", 20)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(msgs)
		if strings.Contains(string(b), "Owls are great.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no follow-up turn on the thread; model calls %d", len(m.Calls()))
		}
		time.Sleep(10 * time.Millisecond)
	}
	third := m.Calls()[2]
	b, _ := json.Marshal(third.Messages)
	if !strings.Contains(string(b), "all about owls") || !strings.Contains(string(b), "completed successfully: c1 (research)") {
		t.Errorf("the follow-up turn saw %s", b)
	}
}
