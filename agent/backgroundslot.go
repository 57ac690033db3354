package agent

import "sync/atomic"

// backgroundSlot holds the agent's background-task runtime; nil until
// UseBackgroundTasks gives it a manager.
type backgroundSlot struct {
	p atomic.Pointer[backgroundRuntime]
}

func (s *backgroundSlot) get() *backgroundRuntime { return s.p.Load() }

// backgroundRuntime is the agent's background-task manager and what the
// agent keeps for its tasks.
type backgroundRuntime struct{}
