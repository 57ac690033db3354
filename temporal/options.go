package temporal

import "time"

// Options tune how a worker's runs call models and tools. The zero value
// takes every default.
type Options struct {
	// ModelCallTimeout bounds one model call (default 10 min).
	ModelCallTimeout time.Duration
	// ToolCallTimeout bounds one tool call, and one node of a workflow
	// run (default 10 min). A node cut short by it ends its run canceled.
	ToolCallTimeout time.Duration
	// Heartbeat is how often a running call tells Temporal it is alive;
	// a call silent for three heartbeats is taken for lost with its
	// worker and run again elsewhere (default 5 s).
	Heartbeat time.Duration
	// ModelAttempts is how often a model call is tried in all (default
	// 5): a transient failure (model.IsTransient: rate limits, server
	// errors) or a lost worker is retried, any other failure is not.
	ModelAttempts int
	// LostCallAttempts is how often a tool call, or a workflow run's
	// node, whose worker was lost is started in all (default 5). A
	// tool's or a step's own error is its result, never retried here.
	LostCallAttempts int
}

func (o Options) withDefaults() Options {
	if o.ModelCallTimeout <= 0 {
		o.ModelCallTimeout = 10 * time.Minute
	}
	if o.ToolCallTimeout <= 0 {
		o.ToolCallTimeout = 10 * time.Minute
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 5 * time.Second
	}
	if o.ModelAttempts <= 0 {
		o.ModelAttempts = 5
	}
	if o.LostCallAttempts <= 0 {
		o.LostCallAttempts = 5
	}
	return o
}
