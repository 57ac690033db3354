package agent

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// UseBackgroundTasks gives the agent the manager its background tasks
// run in (nil: none; every call then runs in the foreground). The
// registry calls it for its agents when its background tasks are
// enabled. Runs that start afterwards use m; m must be started
// (bgtasks.Manager.Start) for tasks to run.
func (a *Agent) UseBackgroundTasks(m *bgtasks.Manager) {
	if m == nil {
		a.background.p.Store(nil)
		return
	}
	a.background.p.Store(&backgroundRuntime{manager: m, runs: map[string]chan struct{}{}, injected: map[string]chan struct{}{}, streams: map[string]int{}})
}

// BackgroundTaskManager returns the manager UseBackgroundTasks gave the
// agent, or nil.
func (a *Agent) BackgroundTaskManager() *bgtasks.Manager {
	if rt := a.background.get(); rt != nil {
		return rt.manager
	}
	return nil
}

// backgroundSlot holds the agent's background-task runtime; nil until
// UseBackgroundTasks gives it a manager.
type backgroundSlot struct {
	p atomic.Pointer[backgroundRuntime]
}

func (s *backgroundSlot) get() *backgroundRuntime { return s.p.Load() }

// backgroundRuntime is the agent's manager and what the agent keeps of
// its tasks in this process: the runs that dispatched tasks and have not
// ended (a task's result is written to memory once its run's own saves
// are done), and the tasks whose result has been written.
type backgroundRuntime struct {
	manager *bgtasks.Manager

	mu       sync.Mutex
	runs     map[string]chan struct{} // by run id: closed when the run ends
	injected map[string]chan struct{} // by "<task id>:<event type>": closed once that end of the task is in memory
	streams  map[string]int           // by thread and resource: open streams WithUntilIdle
	// followUps serialises follow-up turns per thread.
	followUps followUps
}

// scopeKey names a thread of a resource.
func scopeKey(thread, resource string) string { return thread + "|" + resource }

// openStream notes a stream WithUntilIdle open on the thread until the
// returned func is called.
func (rt *backgroundRuntime) openStream(thread, resource string) func() {
	k := scopeKey(thread, resource)
	rt.mu.Lock()
	rt.streams[k]++
	rt.mu.Unlock()
	return func() {
		rt.mu.Lock()
		if rt.streams[k]--; rt.streams[k] <= 0 {
			delete(rt.streams, k)
		}
		rt.mu.Unlock()
	}
}

// streamOpen reports whether a stream WithUntilIdle is open on the
// thread.
func (rt *backgroundRuntime) streamOpen(thread, resource string) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.streams[scopeKey(thread, resource)] > 0
}

// runEnded is closed once the run runID (which dispatched tasks) has
// ended; it is registered on the run's first dispatch.
func (rt *backgroundRuntime) runEnded(ctx context.Context, runID string) <-chan struct{} {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if ch, ok := rt.runs[runID]; ok {
		return ch
	}
	ch := make(chan struct{})
	rt.runs[runID] = ch
	context.AfterFunc(ctx, func() {
		rt.mu.Lock()
		delete(rt.runs, runID)
		rt.mu.Unlock()
		close(ch)
	})
	return ch
}

// injection is the channel closed once the end of the task an event of
// type eventType told of is in memory (or there was nothing to write).
func (rt *backgroundRuntime) injection(taskID, eventType string) chan struct{} {
	key := taskID + ":" + eventType
	rt.mu.Lock()
	defer rt.mu.Unlock()
	ch, ok := rt.injected[key]
	if !ok {
		ch = make(chan struct{})
		rt.injected[key] = ch
	}
	return ch
}

// injectionDone marks that end of the task written, once; the mark is
// forgotten a minute later.
func (rt *backgroundRuntime) injectionDone(taskID, eventType string) {
	ch := rt.injection(taskID, eventType)
	select {
	case <-ch:
	default:
		close(ch)
		time.AfterFunc(time.Minute, func() {
			rt.mu.Lock()
			delete(rt.injected, taskID+":"+eventType)
			rt.mu.Unlock()
		})
	}
}

// BackgroundConcurrency is the agent's own bound of running background
// tasks (Config.Background.Concurrency; 0: the manager's default).
func (a *Agent) BackgroundConcurrency() int {
	if a.cfg.Background == nil {
		return 0
	}
	return a.cfg.Background.Concurrency
}
