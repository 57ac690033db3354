package bgtasks

import "time"

// Backpressure is what Enqueue does when the concurrency limits leave
// no slot for a new task.
type Backpressure string

// Mastra's backpressure modes.
const (
	// Queue keeps the task Pending until a slot opens (the default).
	Queue Backpressure = "queue"
	// Reject refuses the task: Enqueue fails with ErrConcurrencyLimit
	// and keeps no record of it.
	Reject Backpressure = "reject"
	// FallbackSync keeps no record and answers FallbackToSync: the
	// caller runs the tool itself, in the foreground.
	FallbackSync Backpressure = "fallback-sync"
)

// Config configures a Manager. Zero fields take Mastra's defaults.
type Config struct {
	// Store keeps the task records; default: NewMemoryStore(). Managers
	// in several processes sharing a database Store share its tasks:
	// each runs at most once at a time, and the limits hold across all.
	Store Store

	// GlobalConcurrency bounds the Running tasks of the Store
	// (default 10); PerAgentConcurrency those of each agent (default
	// 5), which AgentConcurrency overrides for the agents it names.
	GlobalConcurrency   int
	PerAgentConcurrency int
	AgentConcurrency    map[string]int
	// Backpressure applies when no slot is free at Enqueue (default
	// Queue).
	Backpressure Backpressure

	// DefaultTimeout limits one execution of a task that sets none
	// (default 5 minutes).
	DefaultTimeout time.Duration
	// DefaultRetries is the retry policy of tasks.
	DefaultRetries RetryConfig

	// Cleanup, when set, removes finished task records periodically.
	Cleanup *CleanupConfig

	// Resolve finds a task's executor when Enqueue was given none, or
	// after a restart, when a Manager takes up a task another process
	// left (see Resolver). Without it such a task fails ("No executor
	// registered for tool …").
	Resolve Resolver

	// ProgressThrottle drops a task's progress output that comes sooner
	// than this after the last one it published (default 0: publish
	// all).
	ProgressThrottle time.Duration

	// OnTaskComplete and OnTaskFailed are called after a task completed,
	// or failed or timed out, in the Manager that ran it.
	OnTaskComplete func(Task)
	OnTaskFailed   func(Task)

	// Lease is how long a Running task's claim lasts without renewal
	// (default 30s): its Manager renews it every Lease/3, and when a
	// process dies any Manager takes the task up again after it lapses.
	Lease time.Duration
	// PollInterval is how often a Manager looks for work other
	// processes left or queued: Pending tasks and lapsed leases
	// (default 1s). Work of its own process it sees at once.
	PollInterval time.Duration
	// Owner names this Manager in the records of the tasks it runs
	// (default: a new random id). Give each live Manager of a shared
	// store its own: Start takes up every Running task of its Owner as
	// a dead predecessor's, so a second live Manager with the same Owner
	// takes the first one's running tasks (retried or failed, the first
	// one's executions aborted at its next renewal).
	Owner string
}

// RetryConfig is Mastra's retry policy: a failed execution is tried
// again up to MaxRetries times, after RetryDelay, growing by
// BackoffMultiplier each time up to MaxRetryDelay.
type RetryConfig struct {
	// MaxRetries is the default retries of a task (default 0).
	MaxRetries int
	// RetryDelay is the first wait (default 1s; negative: none).
	RetryDelay time.Duration
	// BackoffMultiplier grows the wait (default 2).
	BackoffMultiplier float64
	// MaxRetryDelay caps the wait (default 30s).
	MaxRetryDelay time.Duration
	// Retryable says which errors are retried (default: all).
	Retryable func(error) bool
}

// CleanupConfig is how long finished task records are kept.
type CleanupConfig struct {
	// CompletedTTL keeps Completed tasks (default 1 hour).
	CompletedTTL time.Duration
	// FailedTTL keeps Failed, Cancelled and TimedOut tasks (default 24
	// hours).
	FailedTTL time.Duration
	// Interval is how often the Manager cleans up (default 1 minute).
	Interval time.Duration
}

// Mastra's defaults.
const (
	DefaultGlobalConcurrency   = 10
	DefaultPerAgentConcurrency = 5
	DefaultTimeout             = 5 * time.Minute
	DefaultLease               = 30 * time.Second
	DefaultPollInterval        = time.Second
)

// withDefaults returns c with its zero fields set to the defaults.
func (c Config) withDefaults() Config {
	c.GlobalConcurrency = orDefault(c.GlobalConcurrency, DefaultGlobalConcurrency)
	c.PerAgentConcurrency = orDefault(c.PerAgentConcurrency, DefaultPerAgentConcurrency)
	if c.Backpressure == "" {
		c.Backpressure = Queue
	}
	c.DefaultTimeout = orDefault(c.DefaultTimeout, DefaultTimeout)
	if c.DefaultRetries.RetryDelay == 0 {
		c.DefaultRetries.RetryDelay = time.Second
	}
	c.DefaultRetries.BackoffMultiplier = orDefault(c.DefaultRetries.BackoffMultiplier, 2)
	c.DefaultRetries.MaxRetryDelay = orDefault(c.DefaultRetries.MaxRetryDelay, 30*time.Second)
	if c.Cleanup != nil {
		cl := *c.Cleanup
		cl.CompletedTTL = orDefault(cl.CompletedTTL, time.Hour)
		cl.FailedTTL = orDefault(cl.FailedTTL, 24*time.Hour)
		cl.Interval = orDefault(cl.Interval, time.Minute)
		c.Cleanup = &cl
	}
	c.Lease = orDefault(c.Lease, DefaultLease)
	c.PollInterval = orDefault(c.PollInterval, DefaultPollInterval)
	return c
}

func orDefault[T int | float64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// retryDelay is the wait before retry number n (from 1).
func (r RetryConfig) retryDelay(n int) time.Duration {
	if r.RetryDelay < 0 {
		return 0
	}
	d := float64(r.RetryDelay)
	for i := 1; i < n; i++ {
		d *= r.BackoffMultiplier
	}
	return min(time.Duration(d), r.MaxRetryDelay)
}
