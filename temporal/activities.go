package temporal

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// Names the worker registers its workflow and activities under.
const (
	WorkflowAgentRun  = "gomastra.AgentRun"
	activityCallModel = "gomastra.CallModel"
	activityCallTool  = "gomastra.CallTool"
	// WorkflowWorkflowRun runs a gomastra workflow run.
	WorkflowWorkflowRun     = "gomastra.WorkflowRun"
	activityAdvanceWorkflow = "gomastra.AdvanceWorkflow"
)

// Error types of failed activities: errPermanent is never retried (a
// worker that cannot find the agent, tool or model will not find it on
// a second try); errTransient is (model.IsTransient).
const (
	errPermanent  = "gomastra.Permanent"
	errTransient  = "gomastra.Transient"
	errToolFailed = "gomastra.ToolFailed"
)

// activities run a worker's model and tool calls on the registry's
// agents.
type activities struct {
	mastra *mastra.Mastra
	opts   Options
}

func permanent(format string, args ...any) error {
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf(format, args...), errPermanent, nil)
}

// agentOf returns the registry's agent key.
func (a *activities) agentOf(key string) (*agent.Agent, error) {
	ag, err := a.mastra.GetAgent(key)
	if err != nil {
		return nil, permanent("%v", err)
	}
	return ag, nil
}

// callModel streams the agent's model's answer to the request and
// returns its parts. A transient failure (model.IsTransient) fails the
// activity, to be retried; another error ends the parts, as it ends a
// stream.
func (a *activities) callModel(ctx context.Context, call modelCall) (modelAnswer, error) {
	ag, err := a.agentOf(call.AgentKey)
	if err != nil {
		return modelAnswer{}, err
	}
	m, err := ag.Model(ctx, tools.NewRequestContext(call.RequestContext))
	if err != nil {
		return modelAnswer{}, permanent("agent %s: model: %v", call.AgentKey, err)
	}
	if m.Provider() != call.Provider || m.ModelID() != call.ModelID {
		return modelAnswer{}, permanent("agent %s: the run calls model %s/%s; a worker calls only the agent's model (%s/%s)",
			call.AgentKey, call.Provider, call.ModelID, m.Provider(), m.ModelID())
	}
	defer heartbeat(ctx, a.opts.Heartbeat)()
	var ans modelAnswer
	for p, err := range m.Stream(ctx, call.Request) {
		if err != nil {
			if ctx.Err() != nil {
				return modelAnswer{}, ctx.Err()
			}
			if model.IsTransient(err) {
				return modelAnswer{}, temporal.NewApplicationError(err.Error(), errTransient)
			}
			ans.Err = err.Error()
			return ans, nil
		}
		w, err := wireOf(p)
		if err != nil {
			return modelAnswer{}, permanent("agent %s: a model part cannot be encoded: %v", call.AgentKey, err)
		}
		ans.Parts = append(ans.Parts, w)
	}
	return ans, nil
}

// callTool runs the agent's tool on the call. The tool's error fails
// the activity, to be tried again, while the tool has retries left
// (tools.Config.Retries, counted in attempts); then it is the call's
// result, which the loop reports to the model. A lost worker or a
// cancellation fails it too.
func (a *activities) callTool(ctx context.Context, call toolCall) (toolAnswer, error) {
	ag, err := a.agentOf(call.AgentKey)
	if err != nil {
		return toolAnswer{}, err
	}
	rc := tools.NewRequestContext(call.RequestContext)
	t, err := ag.RunTool(ctx, rc, call.ToolName)
	if err != nil {
		return toolAnswer{}, permanent("agent %s: tools: %v", call.AgentKey, err)
	}
	if t == nil {
		return toolAnswer{}, permanent("agent %s has no tool %q on this worker", call.AgentKey, call.ToolName)
	}
	w := &collector{}
	inv := &tools.Invocation{ToolCallID: call.ToolCallID, ToolName: call.ToolName, RunID: call.RunID,
		RequestContext: rc, Writer: w, ResumeData: call.ResumeData, SuspendPayload: call.SuspendPayload,
		Agent: &tools.AgentInfo{AgentID: ag.ID(), SuspendedToolRunID: call.SuspendedToolRunID, ThreadID: call.ThreadID, ResourceID: call.ResourceID}, Mastra: ag.Registry()}
	if len(call.Messages) > 0 {
		var msgs []model.Message
		if json.Unmarshal(call.Messages, &msgs) == nil {
			for _, m := range msgs {
				inv.Messages = append(inv.Messages, m)
			}
		}
	}
	defer heartbeat(ctx, a.opts.Heartbeat)()
	res, err := t.Execute(ctx, call.Args, inv)
	ans := toolAnswer{Writes: w.take()}
	switch {
	case err != nil && ctx.Err() != nil:
		return toolAnswer{}, ctx.Err()
	case err != nil && int(activity.GetInfo(ctx).Attempt) <= t.Retries():
		return toolAnswer{}, temporal.NewApplicationError(err.Error(), errToolFailed)
	case err != nil:
		ans.Err = err.Error()
	case res.Suspended():
		ans.Suspension = res.Suspension
	case res.ValidationError() != nil:
		v := res.ValidationError()
		ans.Invalid = &validationWire{Message: v.Message, Errors: v.Errors, Issues: v.Issues, Truncated: v.Truncated}
	default:
		if ans.Output, err = res.JSON(); err != nil {
			ans.Output, ans.Err = nil, err.Error()
		}
	}
	return ans, nil
}

// heartbeat tells Temporal every interval that the call is alive, until
// the returned function is called.
func heartbeat(ctx context.Context, every time.Duration) func() {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

// collector keeps a tool's writes for the workflow, which streams them.
type collector struct {
	mu     sync.Mutex
	writes []toolWrite
}

func (c *collector) Write(data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	c.add(toolWrite{Data: raw})
	return nil
}

func (c *collector) Custom(d tools.DataChunk) error {
	if err := tools.CheckDataChunk(d); err != nil {
		return err
	}
	c.add(toolWrite{Custom: &d})
	return nil
}

func (c *collector) add(w toolWrite) {
	c.mu.Lock()
	c.writes = append(c.writes, w)
	c.mu.Unlock()
}

func (c *collector) take() []toolWrite {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}
