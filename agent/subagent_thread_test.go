package agent

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

// writerPrompts answers every prompt with "noted <prompt>" and keeps the
// user texts each call saw.
func writerPrompts(seen *[][]string) *mock.Model {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		var users []string
		for _, m := range req.Messages {
			if m.Role == model.RoleUser {
				users = append(users, m.TextContent())
			}
		}
		*seen = append(*seen, users)
		return mock.Step{Text: "noted " + users[len(users)-1]}
	})
}

// delegating calls agent-writer with each prompt in turn (one call per
// step), then answers.
func delegating(prompts ...string) *mock.Model {
	var steps []mock.Step
	for _, p := range prompts {
		steps = append(steps, mock.Step{ToolCalls: []mock.ToolCall{{Name: "agent-writer", Args: `{"prompt":"` + p + `"}`}}})
	}
	return mock.New(append(steps, mock.Step{Text: "ok"})...)
}

// TestSubAgentKeepsOneThreadPerParentThread: the sub-agent continues one
// thread per parent thread, across calls of one run and across runs; a
// different parent thread gets a different sub-agent thread.
func TestSubAgentKeepsOneThreadPerParentThread(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var seen [][]string
	writer := newAgent(t, writerPrompts(&seen), nil, func(c *Config) { c.ID = "writer"; c.Storage, c.Memory = st, &MemoryOptions{} })
	run := func(thread string, prompts ...string) {
		t.Helper()
		parent := newAgent(t, delegating(prompts...), nil, func(c *Config) {
			c.Storage, c.Memory, c.Agents = st, &MemoryOptions{}, map[string]*Agent{"writer": writer}
		})
		if _, err := parent.Generate(ctx, "go", WithMemory(thread, "user-1")); err != nil {
			t.Fatal(err)
		}
	}
	run("thread-a", "one", "two")
	run("thread-a", "three")
	run("thread-b", "four")
	if len(seen) != 4 {
		t.Fatalf("%d writer calls", len(seen))
	}
	for i, want := range []string{"go|one", "go|one|two", "go|go|one|two|three", "go|four"} {
		if got := strings.Join(seen[i], "|"); got != want {
			t.Errorf("writer call %d saw the user messages %q, want %q", i+1, got, want)
		}
	}
}

// TestParallelDelegationsTakeTurnsOnTheSubThread: two agent-writer calls
// in one step (run side by side) continue the one sub-thread in turn:
// the second sees the first's exchange. The writer's first model call
// waits a moment for a second one to arrive at the same time, which is
// what happened when the calls did not take turns.
func TestParallelDelegationsTakeTurnsOnTheSubThread(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var mu sync.Mutex
	var seen [][]string
	var calls atomic.Int32
	secondStarted := make(chan struct{})
	writerModel := mock.NewFunc(func(req *model.Request) mock.Step {
		switch calls.Add(1) {
		case 1:
			select {
			case <-secondStarted:
			case <-time.After(300 * time.Millisecond):
			}
		case 2:
			close(secondStarted)
		}
		var users []string
		for _, m := range req.Messages {
			if m.Role == model.RoleUser {
				users = append(users, m.TextContent())
			}
		}
		mu.Lock()
		seen = append(seen, users)
		mu.Unlock()
		return mock.Step{Text: "noted " + users[len(users)-1]}
	})
	writer := newAgent(t, writerModel, nil, func(c *Config) { c.ID = "writer"; c.Storage, c.Memory = st, &MemoryOptions{} })
	parent := newAgent(t, mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{
			{ID: "w1", Name: "agent-writer", Args: `{"prompt":"one"}`},
			{ID: "w2", Name: "agent-writer", Args: `{"prompt":"two"}`},
		}},
		mock.Step{Text: "ok"},
	), nil, func(c *Config) {
		c.Storage, c.Memory, c.Agents = st, &MemoryOptions{}, map[string]*Agent{"writer": writer}
	})
	if _, err := parent.Generate(ctx, "go", WithMemory("thread-p", "user-1")); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Fatalf("%d writer calls", len(seen))
	}
	if first, second := strings.Join(seen[0], "|"), strings.Join(seen[1], "|"); len(seen[1]) != len(seen[0])+1 {
		t.Errorf("the second delegation saw %q after the first saw %q: it should continue the first's exchange", second, first)
	}
}
