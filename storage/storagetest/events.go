package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// RunEventLog runs the checks of storage.RunEvents against the logs open
// returns: contiguous indexes under concurrent appends, reads from any
// offset, waits woken by appends, ended logs and retention. open is
// called once per subtest and must return new, empty RunEvents (a
// backend's Store, which its test closes, or storage.NewMemoryEvents).
func RunEventLog(t *testing.T, open func(t *testing.T) storage.RunEvents) {
	t.Helper()
	for _, st := range eventTests {
		t.Run(st.name, func(t *testing.T) {
			s := open(t)
			if s == nil {
				t.Fatal("open returned nil RunEvents")
			}
			st.fn(t, s)
		})
	}
}

var eventTests = []struct {
	name string
	fn   func(t *testing.T, s storage.RunEvents)
}{
	{"AppendAndRead", testAppendAndRead},
	{"ReadOffsets", testReadOffsets},
	{"InvalidAppends", testInvalidAppends},
	{"ConcurrentAppends", testConcurrentAppends},
	{"WaitWakes", testWaitWakes},
	{"WaitArguments", testWaitArguments},
	{"Ended", testEnded},
	{"Retention", testEventRetention},
}

// ev is an event to append.
func ev(typ, data string) storage.Event {
	return storage.Event{Type: typ, Data: rawf("%s", data)}
}

func appendOK(t *testing.T, s storage.RunEvents, runID string, want int64, events ...storage.Event) {
	t.Helper()
	first, err := s.AppendEvents(t.Context(), runID, events...)
	if err != nil || first != want {
		t.Fatalf("AppendEvents(%s, %d events) = %d, %v; want %d, nil", runID, len(events), first, err, want)
	}
}

func readOK(t *testing.T, s storage.RunEvents, runID string, from int64, limit int) []storage.Event {
	t.Helper()
	got, err := s.ReadEvents(t.Context(), runID, from, limit)
	if err != nil {
		t.Fatalf("ReadEvents(%s, %d, %d): %v", runID, from, limit, err)
	}
	return got
}

func testAppendAndRead(t *testing.T, s storage.RunEvents) {
	before := time.Now()
	appendOK(t, s, "run-1", 0, ev("text-delta", `{"text":"Hel"}`), ev("text-delta", `{"text":"lo"}`), storage.Event{Type: "step-finish"})
	appendOK(t, s, "run-1", 3, ev("finish", `{"reason":"stop"}`))
	appendOK(t, s, "run-2", 0, ev("start", `{}`))
	after := time.Now()
	got := readOK(t, s, "run-1", 0, 0)
	want := []storage.Event{ev("text-delta", `{"text":"Hel"}`), ev("text-delta", `{"text":"lo"}`), {Type: "step-finish"}, ev("finish", `{"reason":"stop"}`)}
	if len(got) != len(want) {
		t.Fatalf("read %d events %+v, want %d", len(got), got, len(want))
	}
	for i, e := range got {
		if e.Index != int64(i) || e.Type != want[i].Type {
			t.Errorf("event %d: index %d type %q, want %d %q", i, e.Index, e.Type, i, want[i].Type)
		}
		checkJSON(t, fmt.Sprintf("event %d data", i), e.Data, want[i].Data)
		checkNow(t, fmt.Sprintf("event %d CreatedAt", i), e.CreatedAt, before, after)
	}
	if got[2].Data != nil {
		t.Errorf("event 2: Data = %q, want nil (appended empty)", got[2].Data)
	}
	if got := readOK(t, s, "run-2", 0, 0); len(got) != 1 || got[0].Index != 0 || got[0].Type != "start" {
		t.Errorf("run-2: %+v, want its one event at index 0", got)
	}
}

func testReadOffsets(t *testing.T, s storage.RunEvents) {
	for i := range 10 {
		appendOK(t, s, "run", int64(i), ev("chunk", fmt.Sprintf(`{"n":%d}`, i)))
	}
	for _, c := range []struct {
		from        int64
		limit       int
		first, n    int64
		description string
	}{
		{0, 0, 0, 10, "all"}, {4, 0, 4, 6, "from the middle"}, {4, 3, 4, 3, "a page in the middle"},
		{8, 5, 8, 2, "a page past the end"}, {9, 1, 9, 1, "the last"}, {10, 0, 0, 0, "at the end"}, {1000, 10, 0, 0, "far past the end"},
	} {
		got := readOK(t, s, "run", c.from, c.limit)
		if int64(len(got)) != c.n {
			t.Errorf("%s: read %d events, want %d", c.description, len(got), c.n)
			continue
		}
		for i, e := range got {
			if e.Index != c.first+int64(i) {
				t.Errorf("%s: event %d has index %d, want %d", c.description, i, e.Index, c.first+int64(i))
			}
			checkJSON(t, c.description, e.Data, rawf(`{"n":%d}`, e.Index))
		}
	}
	if got := readOK(t, s, "no-such-run", 0, 0); len(got) != 0 {
		t.Errorf("read of a run without a log: %+v, want none", got)
	}
	if _, err := s.ReadEvents(t.Context(), "run", -1, 0); err == nil {
		t.Error("ReadEvents from -1: no error")
	}
}

func testInvalidAppends(t *testing.T, s storage.RunEvents) {
	for _, c := range []struct {
		name   string
		runID  string
		events []storage.Event
	}{
		{"empty run id", "", []storage.Event{ev("a", `1`)}},
		{"no events", "run", nil},
		{"empty type", "run", []storage.Event{ev("a", `1`), {Data: rawf(`1`)}}},
		{"invalid JSON", "run", []storage.Event{ev("a", `1`), ev("b", `{`)}},
		{"end not last", "run", []storage.Event{ev("a", `1`), {Type: storage.EventEnd}, ev("b", `2`)}},
		{"NUL in run id", "run\x00", []storage.Event{ev("a", `1`)}},
	} {
		if _, err := s.AppendEvents(t.Context(), c.runID, c.events...); err == nil {
			t.Errorf("%s: AppendEvents succeeded", c.name)
		}
	}
	if got := readOK(t, s, "run", 0, 0); len(got) != 0 {
		t.Errorf("refused batches stored %+v", got)
	}
	appendOK(t, s, "run", 0, ev("a", `1`))
}

// testConcurrentAppends has 8 appenders add batches of 1 to 3 events to
// one run at once: the log must hold every event once, at contiguous
// indexes, each batch where its AppendEvents said.
func testConcurrentAppends(t *testing.T, s storage.RunEvents) {
	const writers, batches = 8, 20
	firsts := make([][]int64, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for b := range batches {
				batch := make([]storage.Event, 1+(w+b)%3)
				for i := range batch {
					batch[i] = ev("chunk", fmt.Sprintf(`{"w":%d,"b":%d,"i":%d}`, w, b, i))
				}
				first, err := s.AppendEvents(context.Background(), "run", batch...)
				if err != nil {
					t.Errorf("writer %d batch %d: %v", w, b, err)
					return
				}
				firsts[w] = append(firsts[w], first)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	got := readOK(t, s, "run", 0, 0)
	total := 0
	for w := range writers {
		for b := range batches {
			total += 1 + (w+b)%3
		}
	}
	if len(got) != total {
		t.Fatalf("log holds %d events, want %d", len(got), total)
	}
	for i, e := range got {
		if e.Index != int64(i) {
			t.Fatalf("event %d has index %d: indexes not contiguous", i, e.Index)
		}
	}
	for w, fs := range firsts {
		for b, first := range fs {
			for i := range 1 + (w+b)%3 {
				checkJSON(t, fmt.Sprintf("writer %d batch %d event %d (index %d)", w, b, i, first+int64(i)),
					got[first+int64(i)].Data, rawf(`{"w":%d,"b":%d,"i":%d}`, w, b, i))
			}
		}
	}
}

// testWaitWakes has followers wait, for a log not created yet and past
// its end, and another goroutine append: each wait returns nil.
func testWaitWakes(t *testing.T, s storage.RunEvents) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	waited := make(chan error, 3)
	go func() { waited <- s.WaitEvents(ctx, "run", -1) }()
	go func() { waited <- s.WaitEvents(ctx, "run", -1) }()
	go func() { waited <- s.WaitEvents(ctx, "other", -1) }()
	time.Sleep(20 * time.Millisecond) // let them wait (the test passes either way)
	appendOK(t, s, "run", 0, ev("a", `1`))
	for range 2 {
		if err := <-waited; err != nil {
			t.Fatalf("WaitEvents: %v, want nil after an append", err)
		}
	}
	go func() { waited <- s.WaitEvents(ctx, "run", 0) }()
	time.Sleep(20 * time.Millisecond)
	appendOK(t, s, "run", 1, ev("b", `2`))
	if err := <-waited; err != nil {
		t.Fatalf("WaitEvents after 0: %v", err)
	}
	appendOK(t, s, "other", 0, ev("a", `1`))
	if err := <-waited; err != nil {
		t.Fatalf("WaitEvents of another run: %v", err)
	}
}

func testWaitArguments(t *testing.T, s storage.RunEvents) {
	appendOK(t, s, "run", 0, ev("a", `1`), ev("b", `2`))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for _, after := range []int64{-1, 0} {
		if err := s.WaitEvents(ctx, "run", after); err != nil {
			t.Errorf("WaitEvents after %d with 2 events: %v", after, err)
		}
	}
	short, cancelShort := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancelShort()
	if err := s.WaitEvents(short, "run", 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitEvents past the end: %v, want the context's deadline", err)
	}
	if err := s.WaitEvents(ctx, "run", -2); err == nil {
		t.Error("WaitEvents after -2: no error")
	}
}

func testEnded(t *testing.T, s storage.RunEvents) {
	appendOK(t, s, "run", 0, ev("a", `1`))
	appendOK(t, s, "run", 1, ev("finish", `{}`), storage.Event{Type: storage.EventEnd, Data: rawf(`{"status":"success"}`)})
	_, err := s.AppendEvents(t.Context(), "run", ev("late", `1`))
	wantErr(t, "append to an ended log", err, storage.ErrConflict)
	_, err = s.AppendEvents(t.Context(), "run", storage.Event{Type: storage.EventEnd})
	wantErr(t, "second end", err, storage.ErrConflict)
	got := readOK(t, s, "run", 0, 0)
	if len(got) != 3 || got[2].Type != storage.EventEnd || got[2].Index != 2 {
		t.Fatalf("ended log: %+v, want 3 events, the end last", got)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := s.WaitEvents(ctx, "run", 2); err != nil {
		t.Errorf("WaitEvents past the end of an ended log: %v, want nil at once", err)
	}
}

func testEventRetention(t *testing.T, s storage.RunEvents) {
	ctx := t.Context()
	appendOK(t, s, "ended", 0, ev("a", `1`), storage.Event{Type: storage.EventEnd})
	appendOK(t, s, "open", 0, ev("a", `1`))
	past := time.Now().Add(-time.Hour)
	future := time.Now().Add(time.Hour)
	for _, c := range []struct {
		old  storage.OldEvents
		want int
	}{{storage.OldEvents{}, 0}, {storage.OldEvents{EndedBefore: past, IdleBefore: past}, 0}} {
		if n, err := s.DeleteEvents(ctx, c.old); err != nil || n != c.want {
			t.Errorf("DeleteEvents(%+v) = %d, %v; want %d", c.old, n, err, c.want)
		}
	}
	if n, err := s.DeleteEvents(ctx, storage.OldEvents{EndedBefore: future}); err != nil || n != 1 {
		t.Errorf("DeleteEvents(ended before the future) = %d, %v; want 1", n, err)
	}
	if got := readOK(t, s, "ended", 0, 0); len(got) != 0 {
		t.Errorf("deleted log still reads %+v", got)
	}
	if got := readOK(t, s, "open", 0, 0); len(got) != 1 {
		t.Errorf("a log not ended was removed with the ended ones: %+v", got)
	}
	if n, err := s.DeleteEvents(ctx, storage.OldEvents{IdleBefore: future}); err != nil || n != 1 {
		t.Errorf("DeleteEvents(idle before the future) = %d, %v; want 1", n, err)
	}
	if got := readOK(t, s, "open", 0, 0); len(got) != 0 {
		t.Errorf("idle log still reads %+v", got)
	}
	appendOK(t, s, "ended", 0, ev("again", `1`)) // a deleted log starts again
}
