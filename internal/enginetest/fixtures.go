package enginetest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// counts counts each tool's executions by tool id.
type counts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counts) add(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[id]++
}

// want checks that tool id ran n times.
func (c *counts) want(t *testing.T, id string, n int) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[id] != n {
		t.Errorf("tool %s ran %d times, want %d", id, c.n[id], n)
	}
}

// registry returns a registry of the agents, each on one SQLite store in
// memory (an engine that replays needs a shared run event log).
func registry(t *testing.T, cfgs ...agent.Config) *mastra.Mastra {
	t.Helper()
	store, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return registryOn(t, store, nil, cfgs...)
}

// registryOn returns a registry of the agents and workflows wfs (by id),
// the agents on store.
func registryOn(t *testing.T, store *sqlite.Store, wfs []*workflows.Workflow, cfgs ...agent.Config) *mastra.Mastra {
	t.Helper()
	agents := map[string]*agent.Agent{}
	for _, cfg := range cfgs {
		cfg.Storage = store
		if cfg.Name == "" {
			cfg.Name = cfg.ID
		}
		if cfg.Instructions == "" {
			cfg.Instructions = "You help."
		}
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		agents[cfg.ID] = a
	}
	byKey := map[string]*workflows.Workflow{}
	for _, w := range wfs {
		byKey[w.ID()] = w
	}
	return mastra.New(mastra.Config{Agents: agents, Workflows: byKey})
}

type numbers struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sum struct {
	Sum int `json:"sum"`
}

// addTool adds, counting its runs in c.
func addTool(c *counts) *tools.Tool {
	return tools.New(tools.Config[numbers, sum]{ID: "add", Description: "Adds a and b.", Execute: func(ctx tools.Context, in numbers) (sum, error) {
		c.add("add")
		return sum{Sum: in.A + in.B}, nil
	}})
}

// barrierTool answers once as many calls as it has seats have started,
// so it fails when its calls do not run side by side.
func barrierTool(c *counts, seats int) *tools.Tool {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return tools.New(tools.Config[numbers, sum]{ID: "meet", Description: "Meets the other calls.", Execute: func(ctx tools.Context, in numbers) (sum, error) {
		c.add("meet")
		mu.Lock()
		arrived++
		if arrived == seats {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return sum{Sum: in.A + in.B}, nil
		case <-time.After(20 * time.Second):
			return sum{}, errors.New("the other calls never came: calls ran one at a time")
		case <-ctx.Done():
			return sum{}, ctx.Err()
		}
	}})
}

// toolMessages counts the tool messages of a request.
func toolMessages(req *model.Request) int {
	n := 0
	for _, m := range req.Messages {
		if m.Role == model.RoleTool {
			n++
		}
	}
	return n
}

// lastToolText is the JSON of the last tool result of a request.
func lastToolText(req *model.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		for _, p := range m.Content {
			if p.ToolResult != nil {
				return asJSON(p.ToolResult.Output)
			}
		}
	}
	return ""
}

// prompted reports whether any message of the request holds s.
func prompted(req *model.Request, s string) bool {
	for _, m := range req.Messages {
		for _, p := range m.Content {
			if strings.Contains(p.Text, s) {
				return true
			}
		}
	}
	return false
}

// thenText is a model that makes calls while the prompt has no tool
// message, then answers text.
func thenText(calls []mock.ToolCall, text func(req *model.Request) string) *mock.Model {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		if toolMessages(req) == 0 {
			return mock.Step{ToolCalls: calls}
		}
		return mock.Step{Text: text(req)}
	})
}

func fixed(s string) func(*model.Request) string { return func(*model.Request) string { return s } }

var _ = atomic.Int64{}
