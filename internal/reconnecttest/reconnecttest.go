// Package reconnecttest proves that a reader of an agent run loses and
// repeats nothing when it drops and reconnects: trials start runs of a
// scripted agent (Config), read each with Agent.Observe, drop the reading
// at random events (stopping the iteration, or cancelling its context)
// and reconnect at the last index seen + 1; the events read must be
// exactly those of an uninterrupted reader of the same run. The agents
// may be one (the in-process log) or two replicas over one database, one
// running the runs and the other read.
package reconnecttest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
)

// Replicas are the agents of the trials: Runner starts the runs,
// Observer is the one read and reconnected to (the same agent, or
// another over the same store), with Read (nil: AgentObserve(Observer);
// a client of a server serving Observer, say).
type Replicas struct {
	Runner, Observer *agent.Agent
	Read             ObserveFunc
}

func (r Replicas) read() ObserveFunc {
	if r.Read != nil {
		return r.Read
	}
	return AgentObserve(r.Observer)
}

// Options sets how many trials run, how many at a time, and the seed of
// their drop points.
type Options struct {
	Trials      int
	Concurrency int
	Seed        uint64
}

// Tally counts what the trials saw. Lost, Repeated and Altered are the
// defects: events of the uninterrupted reader the reconnecting one never
// read, read more than once, or read different (or out of order).
type Tally struct {
	Trials    int
	Events    int // events the uninterrupted readers read, all trials
	Drops     int // readings dropped
	LiveDrops int // of those, dropped at an event read live
	Lost      int
	Repeated  int
	Altered   int
}

func (t *Tally) add(o Tally) {
	t.Trials += o.Trials
	t.Events += o.Events
	t.Drops += o.Drops
	t.LiveDrops += o.LiveDrops
	t.Lost += o.Lost
	t.Repeated += o.Repeated
	t.Altered += o.Altered
}

// String is the tally in one line.
func (t Tally) String() string {
	return fmt.Sprintf("%d trials, %d events, %d drops (%d live): %d lost, %d repeated, %d altered",
		t.Trials, t.Events, t.Drops, t.LiveDrops, t.Lost, t.Repeated, t.Altered)
}

// Trials is how many trials a test runs: 1,000, or 100 under -short or
// the race detector.
func Trials() int {
	if testing.Short() || raceDetector {
		return 100
	}
	return 1000
}

// trialTimeout bounds one trial: a run that never ends fails it.
const trialTimeout = 30 * time.Second

// Run runs opts.Trials trials, opts.Concurrency at a time, and returns
// their tally. A trial that cannot run (the run does not start or end,
// Observe fails) fails t; the caller checks the tally's defects.
func Run(t testing.TB, r Replicas, opts Options) Tally {
	t.Helper()
	events := calibrate(t, r, opts.Seed)
	var (
		mu    sync.Mutex
		total Tally
		wg    sync.WaitGroup
	)
	slots := make(chan struct{}, max(opts.Concurrency, 1))
	for i := range opts.Trials {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			rng := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
			got, err := trial(r, fmt.Sprintf("reconnect-%d-%d", opts.Seed, i), promptOf(i), planDrops(rng, events))
			if err != nil {
				t.Errorf("trial %d: %v", i, err)
			}
			mu.Lock()
			total.add(got)
			mu.Unlock()
		})
	}
	wg.Wait()
	return total
}

// promptOf is trial i's prompt: the runs of all trials have as many
// events, and each its own content.
func promptOf(i int) string { return fmt.Sprintf("topic %08d", i) }

// calibrate returns the number of events a run has, read from a run the
// trials' runs are like (a prompt of the same length).
func calibrate(t testing.TB, r Replicas, seed uint64) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), trialTimeout)
	defer cancel()
	runID := fmt.Sprintf("reconnect-%d-calibration", seed)
	h, err := r.Runner.Start(ctx, promptOf(99999999), agent.WithRunID(runID))
	if err != nil {
		t.Fatalf("calibration run: %v", err)
	}
	all, err := readAll(ctx, r.read(), runID, 0)
	if err != nil || len(all) == 0 {
		t.Fatalf("calibration run: %d events, %v", len(all), err)
	}
	if err := waitDone(ctx, h); err != nil {
		t.Fatalf("calibration run: %v", err)
	}
	return len(all)
}

// trial starts a run, reads it uninterrupted and with drops at once, and
// compares the readings, and both with the run's history once it ended.
func trial(r Replicas, runID, prompt string, plan []drop) (Tally, error) {
	ctx, cancel := context.WithTimeout(context.Background(), trialTimeout)
	defer cancel()
	h, err := r.Runner.Start(ctx, prompt, agent.WithRunID(runID))
	if err != nil {
		return Tally{}, fmt.Errorf("start: %w", err)
	}
	refc := make(chan reading, 1)
	go func() {
		events, err := readAll(ctx, r.read(), runID, 0)
		refc <- reading{events, err}
	}()
	got, drops, err := readWithDrops(ctx, r.read(), runID, plan)
	ref := <-refc
	if err == nil {
		err = ref.err
	}
	if err == nil {
		err = waitDone(ctx, h)
	}
	if err != nil {
		return Tally{Trials: 1}, err
	}
	tally := tallyOf(ref.events, got, drops)
	if tally.Lost+tally.Repeated+tally.Altered > 0 {
		return tally, fmt.Errorf("drops %+v: read indexes %v of %d events", plan, indexesOf(got), len(ref.events))
	}
	return tally, checkReference(ctx, r.read(), runID, ref.events)
}

func indexesOf(events []record) []int64 {
	out := make([]int64, len(events))
	for i, e := range events {
		out[i] = e.index
	}
	return out
}

type reading struct {
	events []record
	err    error
}

func waitDone(ctx context.Context, h *agent.RunHandle) error {
	select {
	case <-h.Done():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the run did not end: %w", ctx.Err())
	}
}

// checkReference checks that the uninterrupted reader read the run's
// whole history, as a reader from offset 0 reads it after its end:
// indexes from 0 on, the finish last.
func checkReference(ctx context.Context, observe ObserveFunc, runID string, ref []record) error {
	history, err := readAll(ctx, observe, runID, 0)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if !slices.Equal(ref, history) {
		return fmt.Errorf("the live reader read %d events, the history holds %d, or they differ", len(ref), len(history))
	}
	for i, e := range ref {
		if e.index != int64(i) {
			return fmt.Errorf("event %d has index %d", i, e.index)
		}
	}
	if n := len(ref); n == 0 || ref[n-1].typ != agent.RunEventFinish {
		return fmt.Errorf("the run's events do not end with its finish")
	}
	return nil
}

// tallyOf counts how the reconnecting reader's events got differ from
// the uninterrupted reader's ref.
func tallyOf(ref, got []record, d dropped) Tally {
	t := Tally{Trials: 1, Events: len(ref), Drops: d.drops, LiveDrops: d.live}
	want := make(map[int64]record, len(ref))
	for _, e := range ref {
		want[e.index] = e
	}
	seen := make(map[int64]int, len(got))
	last := int64(-1)
	for _, e := range got {
		seen[e.index]++
		if w, ok := want[e.index]; !ok || w != e || e.index <= last {
			t.Altered++
		}
		last = max(last, e.index)
	}
	for _, e := range ref {
		switch n := seen[e.index]; {
		case n == 0:
			t.Lost++
		case n > 1:
			t.Repeated += n - 1
		}
	}
	return t
}
