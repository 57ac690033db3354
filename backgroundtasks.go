package mastra

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/gomastra/mastra/bgtasks"
)

// ErrBackgroundTasksNeedStorage is the error of enabling background
// tasks without a Store to keep them in.
var ErrBackgroundTasksNeedStorage = errors.New("mastra: background tasks need storage: set the Store of the background-task configuration (bgtasks.NewMemoryStore(), or a storage/sqlite or storage/postgres store)")

// ErrBackgroundTasksEnabled is the error of enabling background tasks a
// second time.
var ErrBackgroundTasksEnabled = errors.New("mastra: background tasks are already enabled")

// EnableBackgroundTasks enables background tasks (Mastra's
// `backgroundTasks: {enabled: true}`): it starts a manager of cfg and
// gives it to every agent registered now or later, whose eligible tool
// calls then run as its tasks. cfg.Store is required
// ([ErrBackgroundTasksNeedStorage]). Global and per-agent concurrency and
// backpressure are the manager's (cfg); an agent's own
// BackgroundTasks.Concurrency fills cfg.AgentConcurrency for agents
// registered before this call. Tasks a dead process left are taken up
// by the agent that owns them (cfg.Resolve defaults to the registry's
// agents' tools). Stop the manager with Shutdown on
// [Mastra.BackgroundTaskManager].
func (m *Mastra) EnableBackgroundTasks(ctx context.Context, cfg bgtasks.Config) (*bgtasks.Manager, error) {
	if cfg.Store == nil {
		return nil, ErrBackgroundTasksNeedStorage
	}
	m.mu.Lock()
	if m.background != nil {
		m.mu.Unlock()
		return nil, ErrBackgroundTasksEnabled
	}
	agents := m.agents.list()
	m.mu.Unlock()
	cfg.AgentConcurrency = maps.Clone(cfg.AgentConcurrency)
	for _, a := range agents {
		if n := a.BackgroundConcurrency(); n > 0 {
			if cfg.AgentConcurrency == nil {
				cfg.AgentConcurrency = map[string]int{}
			}
			cfg.AgentConcurrency[a.ID()] = n
		}
	}
	if cfg.Resolve == nil {
		cfg.Resolve = m.resolveBackgroundTask
	}
	mgr := bgtasks.New(cfg)
	if err := mgr.Start(ctx); err != nil {
		return nil, fmt.Errorf("mastra: background tasks: %w", err)
	}
	m.mu.Lock()
	m.background = mgr
	agents = m.agents.list()
	m.mu.Unlock()
	for _, a := range agents {
		a.UseBackgroundTasks(mgr)
	}
	return mgr, nil
}

// BackgroundTaskManager returns the manager EnableBackgroundTasks
// started, or nil when background tasks are not enabled.
func (m *Mastra) BackgroundTaskManager() *bgtasks.Manager {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.background
}

// resolveBackgroundTask finds the executor of a task whose enqueuing
// run is gone: the tool of the registered agent the task names.
func (m *Mastra) resolveBackgroundTask(ctx context.Context, task bgtasks.Task) (bgtasks.Executor, bool) {
	for _, a := range m.ListAgents() {
		if a.ID() == task.AgentID {
			return a.BackgroundExecutor(ctx, task)
		}
	}
	return nil, false
}
