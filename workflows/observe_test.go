package workflows

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// records renders chunks as the /stream route's records: each chunk's
// encoding, one per line.
func records(t *testing.T, cs []stream.Chunk) string {
	t.Helper()
	enc := stream.NewEncoder()
	var lines []string
	for _, c := range cs {
		b, err := enc.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	return strings.Join(lines, "\n")
}

// observe collects ObserveStream's chunks, failing when it does not end
// within a few seconds.
func observe(t *testing.T, run *Run, offset int64) []stream.Chunk {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out []stream.Chunk
	for c, err := range run.ObserveStream(ctx, offset) {
		if err != nil {
			t.Fatalf("observe from %d: %v (after %s)", offset, err, types(out))
		}
		out = append(out, c)
	}
	return out
}

// TestObserveStreamReplaysAFinishedRun: the chunks ObserveStream reads
// back are those the run streamed, byte for byte once encoded, from any
// offset; an offset at or past the end reads nothing and ends.
func TestObserveStreamReplaysAFinishedRun(t *testing.T) {
	w := mustCommit(t, New(Config{ID: "seq"}).Then(addStep("s1", 1)).Then(addStep("s2", 10)))
	run := w.CreateRun(WithRunID("run-obs"))
	streamed := chunks(t, run.Stream(context.Background(), num{N: 1}, nil))
	if got, want := records(t, observe(t, run, 0)), records(t, streamed); got != want {
		t.Fatalf("observed from 0:\n%s\nwant what was streamed:\n%s", got, want)
	}
	if got, want := records(t, observe(t, run, 4)), records(t, streamed[4:]); got != want {
		t.Errorf("observed from 4:\n%s\nwant:\n%s", got, want)
	}
	for _, offset := range []int64{int64(len(streamed)), 1000} {
		if got := observe(t, run, offset); len(got) != 0 {
			t.Errorf("observed from %d: %s, want nothing", offset, types(got))
		}
	}
	// Another Run value of the same run (as a server loads it) reads the
	// same log.
	loaded, err := w.LoadRun(context.Background(), "run-obs")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := records(t, observe(t, loaded, 0)), records(t, streamed); got != want {
		t.Errorf("observed through a loaded run:\n%s\nwant:\n%s", got, want)
	}
	var e error
	for _, err := range run.ObserveStream(context.Background(), -1) {
		e = err
	}
	if e == nil || !strings.Contains(e.Error(), "offset") {
		t.Errorf("a negative offset: %v, want an error about the offset", e)
	}
}

// slowStep waits for release, then adds 1.
func slowStep(id string, started chan<- struct{}, release <-chan struct{}) *Step {
	return NewStep(StepConfig[num, num]{ID: id, Execute: func(_ StepContext, in num) (num, error) {
		started <- struct{}{}
		<-release
		return num{N: in.N + 1}, nil
	}})
}

// TestObserveStreamFollowsALiveRun: an observer that joins mid-run reads
// the history, then the rest live, and ends with the run's finish; one
// that stops early leaves the run going; one that joins before the run
// starts waits for it.
func TestObserveStreamFollowsALiveRun(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	w := mustCommit(t, New(Config{ID: "live"}).Then(addStep("a", 1)).Then(slowStep("slow", started, release)).Then(addStep("b", 1)))
	run := w.CreateRun(WithRunID("run-live"))
	early := make(chan []stream.Chunk)
	go func() { early <- observe(t, run, 0) }()
	done := make(chan []stream.Chunk)
	go func() { done <- chunks(t, run.Stream(context.Background(), num{N: 1}, nil)) }()
	<-started
	// One observer stops after its first chunk: the run goes on.
	for range run.ObserveStream(context.Background(), 0) {
		break
	}
	live := make(chan []stream.Chunk)
	go func() { live <- observe(t, run, 2) }()
	time.Sleep(20 * time.Millisecond)
	close(release)
	streamed := <-done
	if got, want := records(t, <-live), records(t, streamed[2:]); got != want {
		t.Errorf("observed live from 2:\n%s\nwant:\n%s", got, want)
	}
	if got, want := records(t, <-early), records(t, streamed); got != want {
		t.Errorf("observed from before the start:\n%s\nwant:\n%s", got, want)
	}
	if run.Status() != StatusSuccess {
		t.Errorf("status %s", run.Status())
	}
}

// TestObserveStreamAcrossASuspension: one log per run id. Observing a
// suspended run reads up to its suspended finish and ends; after the
// resume, the log holds both executions, the resumed one after the
// suspended one, and ends with the run.
func TestObserveStreamAcrossASuspension(t *testing.T) {
	var runs atomic.Int32
	w := mustCommit(t, New(Config{ID: "sus"}).Then(addStep("pre", 1)).Then(gate("sus", &runs)).Then(addStep("post", 1)))
	run := w.CreateRun(WithRunID("run-sus"))
	first := chunks(t, run.Stream(context.Background(), num{N: 1}, nil))
	if got, want := records(t, observe(t, run, 0)), records(t, first); got != want {
		t.Fatalf("observed the suspended run:\n%s\nwant:\n%s", got, want)
	}
	if got := observe(t, run, int64(len(first))); len(got) != 0 {
		t.Errorf("observed the suspended run past its end: %s", types(got))
	}
	// An observer waiting at the end of the suspended log's history
	// ends at once; one that was following before the resume gets it.
	second := chunks(t, run.ResumeStream(context.Background(), ResumeOptions{Data: approval{OK: true}}))
	if got, want := records(t, observe(t, run, 0)), records(t, append(append([]stream.Chunk{}, first...), second...)); got != want {
		t.Errorf("observed after the resume:\n%s\nwant:\n%s", got, want)
	}
	if got, want := records(t, observe(t, run, int64(len(first)))), records(t, second); got != want {
		t.Errorf("observed the resumed execution:\n%s\nwant:\n%s", got, want)
	}
}

// eventStore is a storage.Runs that is also storage.RunEvents.
type eventStore struct {
	storage.Runs
	storage.RunEvents
}

// TestEventsDefaultToTheStorage: a workflow whose Storage keeps run
// events logs its runs there; another workflow value over the same
// storage (another process) observes them.
func TestEventsDefaultToTheStorage(t *testing.T) {
	store := eventStore{storage.NewMemoryRuns(), storage.NewMemoryEvents()}
	w := mustCommit(t, New(Config{ID: "seq", Storage: store}).Then(addStep("s1", 1)))
	run := w.CreateRun(WithRunID("run-shared"))
	streamed := chunks(t, run.Stream(context.Background(), num{N: 1}, nil))
	events, err := store.ReadEvents(context.Background(), "run-shared", 0, 0)
	if err != nil || len(events) != len(streamed)+1 || events[len(events)-1].Type != storage.EventEnd {
		t.Fatalf("the store's log: %v %+v", err, events)
	}
	other := mustCommit(t, New(Config{ID: "seq", Storage: store}).Then(addStep("s1", 1)))
	loaded, err := other.LoadRun(context.Background(), "run-shared")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := records(t, observe(t, loaded, 0)), records(t, streamed); got != want {
		t.Errorf("observed from the other workflow value:\n%s\nwant:\n%s", got, want)
	}
}

// TestEventRetention: an ended run's log is removed once it is older
// than Config.EventRetention, by the sweep a later run's finish makes;
// observing that run then reads nothing and ends.
func TestEventRetention(t *testing.T) {
	events := storage.NewMemoryEvents()
	w := mustCommit(t, New(Config{ID: "seq", Events: events, EventRetention: 30 * time.Millisecond}).Then(addStep("s1", 1)))
	old := w.CreateRun(WithRunID("old"))
	chunks(t, old.Stream(context.Background(), num{N: 1}, nil))
	time.Sleep(60 * time.Millisecond)
	chunks(t, w.CreateRun(WithRunID("new")).Stream(context.Background(), num{N: 1}, nil))
	if got, err := events.ReadEvents(context.Background(), "old", 0, 0); err != nil || len(got) != 0 {
		t.Errorf("the expired log: %v %d events, want it removed", err, len(got))
	}
	if got, err := events.ReadEvents(context.Background(), "new", 0, 0); err != nil || len(got) == 0 {
		t.Errorf("the new log: %v, want it kept", err)
	}
	if got := observe(t, old, 0); len(got) != 0 {
		t.Errorf("observed the run whose log was removed: %s", types(got))
	}
}

// TestOwnEventLogIsBounded: a workflow's own in-memory log (no Events,
// no Storage that keeps events) keeps about the newest 1000 ended logs,
// whatever EventRetention, as its in-memory run store keeps the newest
// 1000 finished runs.
func TestOwnEventLogIsBounded(t *testing.T) {
	w := mustCommit(t, New(Config{ID: "many", EventRetention: -1}).Then(addStep("s1", 1)))
	ctx := context.Background()
	const runs = maxFinishedInMemory + sweepEvery + 10
	for i := range runs {
		if _, err := w.CreateRun(WithRunID("r"+itoa(i))).Start(ctx, num{N: 1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := w.localEvents.ReadEvents(ctx, "r0", 0, 0); err != nil || len(got) != 0 {
		t.Errorf("the oldest run's log: %v, %d events, want it removed", err, len(got))
	}
	if got, err := w.localEvents.ReadEvents(ctx, "r"+itoa(runs-1), 0, 0); err != nil || len(got) == 0 {
		t.Errorf("the newest run's log: %v, want it kept", err)
	}
}

// countingEvents counts AppendEvents calls.
type countingEvents struct {
	storage.RunEvents
	appends atomic.Int32
}

func (c *countingEvents) AppendEvents(ctx context.Context, runID string, events ...storage.Event) (int64, error) {
	c.appends.Add(1)
	return c.RunEvents.AppendEvents(ctx, runID, events...)
}

// TestLogAppendsAreGrouped: into a store other than the workflow's own
// memory (a database), a run's chunks are appended in batches, fewer
// appends than chunks, and the log is complete, in order and ended by
// the time the run's stream ends.
func TestLogAppendsAreGrouped(t *testing.T) {
	events := &countingEvents{RunEvents: storage.NewMemoryEvents()}
	w := New(Config{ID: "many-steps", Events: events})
	for i := range 50 {
		w.Then(NewStep(StepConfig[num, num]{ID: "s" + itoa(i), Execute: func(_ StepContext, in num) (num, error) {
			time.Sleep(time.Millisecond)
			return num{N: in.N + 1}, nil
		}}))
	}
	mustCommit(t, w)
	run := w.CreateRun(WithRunID("grouped"))
	streamed := chunks(t, run.Stream(context.Background(), num{N: 0}, nil))
	logged, err := events.ReadEvents(context.Background(), "grouped", 0, 0)
	if err != nil || len(logged) != len(streamed)+1 || logged[len(logged)-1].Type != storage.EventEnd {
		t.Fatalf("the log when the stream ended: %v, %d events for %d chunks", err, len(logged), len(streamed))
	}
	if got, want := records(t, observe(t, run, 0)), records(t, streamed); got != want {
		t.Errorf("observed:\n%s\nwant:\n%s", got, want)
	}
	if n := events.appends.Load(); n > int32(len(streamed))/2 {
		t.Errorf("%d appends for %d chunks, want them grouped", n, len(streamed))
	}
}
