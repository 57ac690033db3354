package agent

import (
	"context"
	"encoding/json"
)

// A ReplayingEngine runs the driver where it may run again from its
// start to rebuild a run's state, as a durable execution engine replays
// a workflow from its history. Such an engine's driver may not start
// goroutines or wait on channels, so a run on it:
//
//   - runs a step's calls side by side in the engine's groups
//     (NewGroup), not in goroutines;
//   - publishes each event of its log at its place in the log, so that a
//     replay appends none twice: the agent needs Config.Storage, whose
//     run event log readers in any process follow (Observe);
//   - is aborted by the engine only (Aborts), from the driver's own
//     execution: neither AbortRun nor AbortThread of the process that
//     runs it reaches it directly, nor does a request in the store;
//   - streams a call that waits for a person before the engine waits
//     for the answer (Await), and goes on in the same stream;
//   - reads memory, and runs the tool-call callbacks (hooks, a tool's
//     OnInputAvailable, OnOutput, ToModelOutput), through Record: a
//     replay gets their recorded outcomes and does not run them again;
//   - runs what step processors record (StepInput.Record) through
//     Record too;
//   - hands a background call to the agent's background-task manager
//     only when the engine is a BackgroundEngine (which says how); on
//     another replaying engine the call runs inline.
//
// The engine's Save must not save while it replays (the saves were made).
type ReplayingEngine interface {
	Engine
	// NewGroup returns a group whose functions run at most limit at a
	// time (limit < 1: no limit) until ctx ends.
	NewGroup(ctx context.Context, limit int) Group
	// Record returns what read returns: the first time the driver
	// runs, by running read; when it is replayed, what read returned
	// then (the driver reads storage through it: memory a replay must
	// see as the run first saw it).
	Record(ctx context.Context, read func(context.Context) ([]byte, error)) ([]byte, error)
	// Aborts hands the engine, as the run starts, the function that
	// aborts it; the engine calls it from the driver's execution when an
	// abort arrives.
	Aborts(abort func())
}

// once runs fn, a callback of the loop (a hook, a tool's lifecycle
// callback), through the run's engine: one that replays records its
// outcome, so that a replay does not run it again.
func (r *run) once(fn func() error) error {
	_, err := recorded(r, r.ctx, func(context.Context) (struct{}, error) { return struct{}{}, fn() })
	return err
}

// recorded returns what read returns, recorded by the run's engine when
// it replays.
func recorded[T any](r *run, ctx context.Context, read func(context.Context) (T, error)) (T, error) {
	re, ok := r.engine.(ReplayingEngine)
	if !ok {
		return read(ctx)
	}
	var v T
	raw, err := re.Record(ctx, func(ctx context.Context) ([]byte, error) {
		v, err := read(ctx)
		if err != nil {
			return nil, err
		}
		return json.Marshal(v)
	})
	if err == nil {
		err = json.Unmarshal(raw, &v)
	}
	return v, err
}
