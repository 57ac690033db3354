package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// backgroundInjector writes a deferred call's real result into the
// run's memory when its task ends: the tool message of the call's step
// holds the placeholder, which the result (or "Background task failed:
// …") replaces in place, the tool's toModelOutput applied again. It
// waits for the run to end first, so that the run's own save of that
// message comes before it.
type backgroundInjector struct {
	r      *run
	rt     *backgroundRuntime
	call   callState // its arguments without "_background"
	tool   *tools.Tool
	msgID  string
	writes bool
	ended  <-chan struct{}
}

func (r *run) backgroundInjector(rt *backgroundRuntime, c callState, t *tools.Tool) *backgroundInjector {
	return &backgroundInjector{r: r, rt: rt, call: c, tool: t, msgID: r.messageIDOf("tool", r.state.Step),
		writes: r.memoryWrites(), ended: rt.runEnded(r.ctx, r.opts.runID)}
}

// onEvent is the task's hook: a completed or failed task's result is
// written (in its own goroutine: the manager's must not wait); a
// cancelled or suspended one leaves the placeholder. Then the agent may
// follow up (see BackgroundTasks.FollowUp).
func (inj *backgroundInjector) onEvent(e bgtasks.Event) {
	switch e.Type {
	case bgtasks.TypeCompleted, bgtasks.TypeFailed:
		go func() {
			inj.inject(e.Task, e.Type)
			inj.followUp(e.Task, e.Type)
		}()
	case bgtasks.TypeCancelled, bgtasks.TypeSuspended:
		inj.rt.injectionDone(e.Task.ID, e.Type)
		go func() {
			<-inj.ended
			inj.followUp(e.Task, e.Type)
		}()
	}
}

// inject replaces the call's placeholder result in memory by the task's
// outcome.
func (inj *backgroundInjector) inject(task bgtasks.Task, eventType string) {
	defer inj.rt.injectionDone(task.ID, eventType)
	if !inj.writes {
		return
	}
	<-inj.ended
	if err := inj.write(inj.r.storageCtx(), task, inj.output(task)); err != nil {
		inj.r.agent.cfg.Logger.Warn("agent: background task result not written to memory", "taskId", task.ID, "error", storage.ErrorDetail(err))
	}
}

// write replaces the call's result in its stored tool message by out,
// the task's outcome as the model sees it.
func (inj *backgroundInjector) write(ctx context.Context, task bgtasks.Task, out model.ToolResultOutput) error {
	store := inj.r.agent.cfg.Storage
	msgs, err := store.GetMessages(ctx, []string{inj.msgID})
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		return fmt.Errorf("message %s not found", inj.msgID)
	}
	sm, ok := inj.replaced(msgs[0], task, out)
	if !ok {
		return nil
	}
	return store.SaveMessages(ctx, []storage.Message{sm})
}

// replaced is the stored tool message sm with the call's result part
// replaced by out and the task noted in its metadata
// (backgroundTasks[toolCallId]: taskId, startedAt, completedAt); false
// when sm holds no result of the call.
func (inj *backgroundInjector) replaced(sm storage.Message, task bgtasks.Task, out model.ToolResultOutput) (storage.Message, bool) {
	var m model.Message
	if json.Unmarshal(sm.Content, &m) != nil {
		return sm, false
	}
	for i, p := range m.Content {
		if p.ToolResult == nil || p.ToolResult.ToolCallID != inj.call.ID {
			continue
		}
		part := *p.ToolResult
		part.Output = out
		part.ProviderOptions = nil
		m.Content[i] = inj.r.transcribed(model.ToolMessage(part)).Content[0]
		content, err := json.Marshal(m)
		if err != nil {
			return sm, false
		}
		sm.Content = content
		sm.Metadata = withTaskMetadata(sm.Metadata, inj.call.ID, task)
		return sm, true
	}
	return sm, false
}

// output is what the model sees of the task's outcome.
func (inj *backgroundInjector) output(task bgtasks.Task) model.ToolResultOutput {
	if task.Status != bgtasks.Completed {
		msg := ""
		if task.Error != nil {
			msg = task.Error.Message
		}
		raw, _ := json.Marshal(backgroundFailedResult(msg))
		return model.JSONOutput(json.RawMessage(raw))
	}
	if mo := inj.r.backgroundModelOutput(inj.tool, inj.call, task.Result); mo != nil {
		return *mo
	}
	return model.JSONOutput(resultJSON(task.Result))
}

// taskNote is a background call's entry in its message's
// backgroundTasks metadata.
type taskNote struct {
	TaskID      string       `json:"taskId"`
	StartedAt   bgtasks.Date `json:"startedAt"`
	CompletedAt bgtasks.Date `json:"completedAt"`
}

// withTaskMetadata is the message metadata raw with the task noted
// under backgroundTasks[toolCallID].
func withTaskMetadata(raw json.RawMessage, toolCallID string, task bgtasks.Task) json.RawMessage {
	meta := map[string]any{}
	_ = json.Unmarshal(raw, &meta)
	notes, _ := meta["backgroundTasks"].(map[string]any)
	if notes == nil {
		notes = map[string]any{}
	}
	notes[toolCallID] = taskNote{TaskID: task.ID, StartedAt: bgtasks.DateOf(task.StartedAt), CompletedAt: bgtasks.DateOf(orNow(task.CompletedAt))}
	meta["backgroundTasks"] = notes
	out, err := json.Marshal(meta)
	if err != nil {
		return raw
	}
	return out
}

func orNow(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}

// backgroundInjected waits until the end of task taskID an event of
// type eventType told of is in memory, or there was nothing to write;
// that never happens for a task this process did not dispatch, so the
// wait is bounded.
func (a *Agent) backgroundInjected(ctx context.Context, taskID, eventType string) {
	rt := a.background.get()
	if rt == nil {
		return
	}
	select {
	case <-rt.injection(taskID, eventType):
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
	}
}
