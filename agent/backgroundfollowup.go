package agent

import (
	"context"
	"sync"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
)

// followUps serialises the follow-up turns of each thread.
type followUps struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func (f *followUps) lock(key string) *sync.Mutex {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.locks == nil {
		f.locks = map[string]*sync.Mutex{}
	}
	l, ok := f.locks[key]
	if !ok {
		l = &sync.Mutex{}
		f.locks[key] = l
	}
	return l
}

// followUp runs the agent's follow-up turn for the ended task of a run
// on the thread of inj, unless the agent does not follow up or a stream
// WithUntilIdle on the thread will answer instead. It runs in the
// injector's goroutine, after the result is in memory.
func (inj *backgroundInjector) followUp(task bgtasks.Task, eventType string) {
	r := inj.r
	bg := r.agent.cfg.Background
	if bg == nil || !bg.FollowUp || !inj.writes || inj.rt.streamOpen(r.opts.threadID, r.opts.resourceID) {
		return
	}
	key := scopeKey(r.opts.threadID, r.opts.resourceID)
	l := inj.rt.followUps.lock(key)
	l.Lock()
	defer l.Unlock()
	directive := model.UserText(continuationDirective([]endedTask{{chunkType: eventType, toolCallID: task.ToolCallID, toolName: task.ToolName}}))
	ctx := context.WithoutCancel(r.ctx)
	for _, err := range r.agent.Stream(ctx, []model.Message{}, WithMemory(r.opts.threadID, r.opts.resourceID), WithContextMessages(directive), WithRequestContext(r.opts.requestContext)) {
		if err != nil {
			r.agent.cfg.Logger.Warn("agent: background follow-up turn failed", "taskId", task.ID, "error", err)
			return
		}
	}
}
