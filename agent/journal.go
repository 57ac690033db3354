package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// journal saves a run's state through a storage.RunJournal: the whole
// state first, then each change, so that a save costs what changed and
// not the run so far. A run in progress is saved only when its store
// outlives the process (Config.Storage: durable); without one, only
// suspensions are, into the agent's in-process table, and a save after
// changes were skipped writes the whole state.
type journal struct {
	runs    *storage.RunJournal
	durable bool
	// behind says changes were skipped since the last write.
	behind bool
}

func newJournal(store storage.Runs, meta storage.Run, durable bool) *journal {
	return &journal{runs: storage.NewRunJournal(store, meta), durable: durable}
}

// continueJournal is the journal of a stored run, going on from the
// version it was loaded at.
func continueJournal(store storage.Runs, stored *storage.Run, durable bool) *journal {
	return &journal{runs: storage.ContinueRunJournal(store, stored), durable: durable}
}

// record saves that s changed by c (nil: save all of s) and is now in
// status. A journal another process took over saves nothing: its run is
// that process's.
func (j *journal) record(ctx context.Context, status string, s *runState, c *stateChange) error {
	if j.runs.Lost() {
		return nil
	}
	if status == storage.RunRunning && !j.durable {
		j.behind = j.behind || j.runs.Saved()
		return nil
	}
	var err error
	if c == nil || j.behind || !j.runs.Saved() {
		err = j.write(ctx, status, s, j.runs.Save)
		if err == nil {
			j.behind = false
		}
	} else {
		err = j.write(ctx, status, c, j.runs.Append)
	}
	return err
}

func (j *journal) write(ctx context.Context, status string, v any, save func(context.Context, string, json.RawMessage) error) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("agent: encoding run state: %w", err)
	}
	if err := save(ctx, status, raw); err != nil {
		return fmt.Errorf("agent: %w", err)
	}
	return nil
}

// remove deletes the run once it has finished.
func (j *journal) remove(ctx context.Context) error { return j.runs.Delete(ctx) }

// parked reports whether the run is saved as running, by this process:
// a run stopped now stays recoverable.
func (j *journal) parked() bool { return j.durable && j.runs.Saved() && !j.runs.Lost() }
