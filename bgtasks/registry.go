package bgtasks

import (
	"context"
	"sync"
)

// Executors is a Resolver by tool name, as Mastra resolves a task's
// executor in a process that did not enqueue it: the executor registered
// for the task's agent and tool, else the one registered for the tool.
// The zero Executors is ready to use; it is safe for concurrent use.
type Executors struct {
	mu     sync.RWMutex
	byName map[string]Executor
}

// Register makes ex the executor of toolName's tasks, of any agent.
func (r *Executors) Register(toolName string, ex Executor) { r.set(toolName, ex) }

// RegisterForAgent makes ex the executor of toolName's tasks of agentID,
// before any registered for toolName alone.
func (r *Executors) RegisterForAgent(agentID, toolName string, ex Executor) {
	r.set(agentID+":"+toolName, ex)
}

func (r *Executors) set(key string, ex Executor) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName == nil {
		r.byName = map[string]Executor{}
	}
	r.byName[key] = ex
}

// Resolve finds the task's executor (a Resolver: Config{Resolve:
// executors.Resolve}).
func (r *Executors) Resolve(_ context.Context, t Task) (Executor, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if t.AgentID != "" {
		if ex, ok := r.byName[t.AgentID+":"+t.ToolName]; ok {
			return ex, true
		}
	}
	ex, ok := r.byName[t.ToolName]
	return ex, ok
}
