package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

func TestUntilIdleStreamsTheTaskAndAnswersWhenItEnds(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	mgr := startedManager(t, bgtasks.Config{})
	t.Cleanup(open)
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls"}`}}},
		mock.Step{Text: "Started."},
		mock.Step{Text: "Owls are great."},
	)
	a := bgAgent(t, m, tools.Set{"research": researchTool(release, &tools.BackgroundConfig{Enabled: true})}, mgr,
		func(c *Config) { c.Storage, c.Memory = memoryStore(t), &MemoryOptions{} })
	var got []string
	finishes := 0
	for c, err := range a.Stream(context.Background(), "research owls", WithMemory("th-idle", "user-1"), WithUntilIdle(10*time.Second)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c.Type)
		if c.Type == stream.TypeFinish {
			finishes++
			open() // the task ends once the first turn is over
		}
	}
	if finishes != 2 {
		t.Fatalf("%d turns: %v", finishes, got)
	}
	seq := strings.Join(got, ",")
	for _, want := range []string{bgtasks.TypeStarted, bgtasks.TypeRunning, bgtasks.TypeCompleted} {
		if !strings.Contains(seq, want) {
			t.Errorf("no %s in %s", want, seq)
		}
	}
	completedAt, secondStart, starts := -1, -1, 0
	for i, typ := range got {
		switch typ {
		case bgtasks.TypeCompleted:
			completedAt = i
		case stream.TypeStart:
			if starts++; starts == 2 {
				secondStart = i
			}
		}
	}
	if completedAt < 0 || secondStart < completedAt {
		t.Errorf("the continuation began before the task completed: %s", seq)
	}
	// The continuation saw the result in the conversation and the
	// directive naming the call.
	third := m.Calls()[2]
	b, _ := json.Marshal(third.Messages)
	if !strings.Contains(string(b), "all about owls") || strings.Contains(string(b), "Background task started") {
		t.Errorf("the continuation's conversation: %s", b)
	}
	if !strings.Contains(string(b), "The following tool-call IDs completed successfully: c1 (research).") {
		t.Errorf("no directive: %s", b)
	}
}

func TestUntilIdleWithoutMemoryIsAnOrdinaryStream(t *testing.T) {
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(mock.Step{Text: "Hi."})
	a := bgAgent(t, m, nil, mgr)
	chunks := chunksOf(t, a, "hi", WithUntilIdle(time.Second))
	if chunks[len(chunks)-1].Type != stream.TypeFinish {
		t.Fatalf("%v", types(chunks))
	}
}
