package agent

import (
	"strings"
	"time"

	"github.com/gomastra/mastra/tools"
)

// BackgroundTasks is an agent's background-task configuration (Mastra's
// agent `backgroundTasks` option). Background tasks run only when the
// agent has a background-task manager (see UseBackgroundTasks; the
// registry gives it one when its own background tasks are enabled).
//
// A tool is eligible when the agent says so (All, or Tools[name]) or,
// when the agent says nothing of it, when its own tools.BackgroundConfig
// has Enabled. An eligible tool's calls run as its default disposition
// (deferred unless it says foreground) unless the model's "_background"
// argument asks for another; an ineligible tool's calls always run in
// the foreground, and a "_background" argument given to one is a
// validation error the model sees.
type BackgroundTasks struct {
	// Disabled turns background dispatch off for this agent: every call
	// runs inline (for an agent run as a sub-agent whose whole run is
	// itself a background task of its parent).
	Disabled bool
	// All makes every tool of the agent eligible (Mastra's tools: 'all').
	All bool
	// Tools decide eligibility per tool name, over the tools' own
	// configuration. Sub-agents and workflows are named by their key
	// ("writer" stands for the tool "agent-writer").
	Tools map[string]BackgroundTool
	// Concurrency bounds this agent's running tasks (0: the manager's
	// per-agent default).
	Concurrency int
	// FollowUp makes the agent answer on its own when a deferred task of
	// a run with a memory thread ends and no stream WithUntilIdle is
	// open on that thread: once the run has ended and the task's result
	// is in memory, the agent runs a turn on the thread (its chunks go
	// to the turn's run event log) with the message naming the calls
	// that ended.
	FollowUp bool
}

// BackgroundTool is the agent's word on one tool (Mastra's
// `true | false | {enabled, timeoutMs}` entries).
type BackgroundTool struct {
	// Enabled makes the tool eligible (false: never in the background,
	// whatever the tool says).
	Enabled bool
	// Timeout overrides the tool's own task timeout (0: keep it).
	Timeout time.Duration
	// DefaultDisposition overrides the tool's own default disposition
	// ("": keep it).
	DefaultDisposition tools.Disposition
}

// backgroundPlan is how one call runs: its disposition and, for a
// background task, its timeout and retries (0: the manager's defaults).
type backgroundPlan struct {
	disposition tools.Disposition
	timeout     time.Duration
	maxRetries  int
}

// background reports whether the call runs as a background task.
func (p backgroundPlan) background() bool { return p.disposition != tools.DispositionForeground }

// agentEntry is the agent's entry for the tool the model calls name:
// All, or Tools under the name without its "agent-" or "workflow-"
// prefix; ok false when the agent says nothing of it.
func (b *BackgroundTasks) agentEntry(name string) (BackgroundTool, bool) {
	if b == nil {
		return BackgroundTool{}, false
	}
	if b.All {
		return BackgroundTool{Enabled: true}, true
	}
	if rest, ok := strings.CutPrefix(name, "agent-"); ok {
		name = rest
	} else if rest, ok := strings.CutPrefix(name, "workflow-"); ok {
		name = rest
	}
	e, ok := b.Tools[name]
	return e, ok
}

// eligible reports whether the tool t, called name, may run in the
// background.
func (b *BackgroundTasks) eligible(name string, t *tools.Tool) bool {
	if b != nil && b.Disabled {
		return false
	}
	if e, ok := b.agentEntry(name); ok {
		return e.Enabled
	}
	return t != nil && t.Background() != nil && t.Background().Enabled
}

// defaultDisposition is the disposition of an eligible tool's call that
// carries no override: the agent's, else the tool's, else deferred.
func (b *BackgroundTasks) defaultDisposition(name string, t *tools.Tool) tools.Disposition {
	if e, ok := b.agentEntry(name); ok && e.DefaultDisposition != "" {
		return e.DefaultDisposition
	}
	if t != nil && t.Background() != nil && t.Background().DefaultDisposition != "" {
		return t.Background().DefaultDisposition
	}
	return tools.DispositionDeferred
}

// plan resolves how a call of t (called name) runs, the model's
// override o first, then the agent's configuration, then the tool's.
// An ineligible tool's calls always run in the foreground.
func (b *BackgroundTasks) plan(name string, t *tools.Tool, o *backgroundOverride) backgroundPlan {
	if !b.eligible(name, t) {
		return backgroundPlan{disposition: tools.DispositionForeground}
	}
	p := backgroundPlan{disposition: b.defaultDisposition(name, t)}
	if own := t.Background(); own != nil {
		p.timeout, p.maxRetries = own.Timeout, own.MaxRetries
	}
	if e, ok := b.agentEntry(name); ok && e.Timeout > 0 {
		p.timeout = e.Timeout
	}
	if o == nil {
		return p
	}
	switch {
	case o.Disposition != "":
		p.disposition = o.Disposition
	case o.Enabled != nil && *o.Enabled:
		p.disposition = tools.DispositionDeferred
	case o.Enabled != nil:
		p.disposition = tools.DispositionForeground
	}
	if o.TimeoutMs != nil {
		p.timeout = time.Duration(*o.TimeoutMs * float64(time.Millisecond))
	}
	if o.MaxRetries != nil {
		p.maxRetries = int(*o.MaxRetries)
	}
	return p
}
