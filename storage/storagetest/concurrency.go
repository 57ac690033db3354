package storagetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// racers is how many goroutines race in the concurrency tests.
const racers = 16

var concurrencyTests = []subtest{
	{name: "ClaimResumeOneWinner", runs: testRaceClaim},
	{name: "SaveRunOneWinner", runs: testRaceSaveRun},
	{name: "CreateRunOneWinner", runs: testRaceCreateRun},
	{name: "AppendRunOneWinner", runs: testRaceAppendRun},
	{name: "SaveOrAppendOneWinner", runs: testRaceSaveOrAppend},
	{name: "ClaimRunOneWinner", runs: testRaceClaimRun},
	{name: "SaveMessagesLoseNothing", fn: testRaceMessages},
}

// race runs fn in racers goroutines released at once and returns their
// errors.
func race(fn func(i int) error) []error {
	errs := make([]error, racers)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range racers {
		done.Go(func() {
			start.Wait()
			errs[i] = fn(i)
		})
	}
	start.Done()
	done.Wait()
	return errs
}

// OneWinner checks the errors of racing calls of which exactly one may
// win, a claim or a versioned save: one is nil and all the others wrap
// storage.ErrConflict. Backend tests racing several Stores on one
// database (standing for several processes) use it too.
func OneWinner(t testing.TB, what string, errs []error) {
	t.Helper()
	wins := 0
	for i, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, storage.ErrConflict):
			t.Errorf("%s: racer %d: %v, want nil or ErrConflict", what, i, err)
		}
	}
	if wins != 1 {
		t.Errorf("%s: %d winners, want exactly 1", what, wins)
	}
}

func testRaceClaim(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	_, err := s.SaveRun(ctx, newRun("run"))
	must(t, "SaveRun", err)
	for _, key := range []string{"call-1", ""} {
		errs := race(func(i int) error {
			return s.ClaimResume(ctx, "run", key, fmt.Sprintf("owner-%d", i))
		})
		OneWinner(t, fmt.Sprintf("ClaimResume(%q)", key), errs)
	}
}

func testRaceSaveRun(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun", err)
	versions := make([]int64, racers)
	errs := race(func(i int) error {
		r := r
		r.Version = v
		r.Snapshot = rawf(`{"winner":%d}`, i)
		var err error
		versions[i], err = s.SaveRun(ctx, r)
		return err
	})
	OneWinner(t, "SaveRun", errs)
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	if got.Version != v+1 {
		t.Errorf("version after the race = %d, want %d", got.Version, v+1)
	}
	for i, err := range errs {
		if err == nil {
			if versions[i] != v+1 {
				t.Errorf("winner got version %d, want %d", versions[i], v+1)
			}
			checkJSON(t, "snapshot after the race", got.Snapshot, rawf(`{"winner":%d}`, i))
		}
	}
}

func testRaceCreateRun(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	errs := race(func(i int) error {
		r := newRun("run")
		r.Snapshot = rawf(`{"creator":%d}`, i)
		_, err := s.SaveRun(ctx, r)
		return err
	})
	OneWinner(t, "SaveRun create", errs)
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	if got.Version != 1 {
		t.Errorf("version after the create race = %d, want 1", got.Version)
	}
}

func testRaceMessages(t *testing.T, s storage.Store) {
	ctx := t.Context()
	const batches, perBatch = 8, 4
	must(t, "SaveThread", s.SaveThread(ctx, storage.Thread{ID: "t", ResourceID: "r"}))

	// A reader lists while the writers write.
	stop := make(chan struct{})
	var reader sync.WaitGroup
	var readErr error
	reader.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.ListMessages(ctx, "t", 10); err != nil {
				readErr = err
				return
			}
			time.Sleep(time.Millisecond)
		}
	})

	errs := race(func(i int) error {
		for b := range batches {
			batch := make([]storage.Message, perBatch)
			for k := range batch {
				batch[k] = msg(fmt.Sprintf("g%02d-b%d-m%d", i, b, k), time.Time{}, "x")
			}
			if err := s.SaveMessages(ctx, batch); err != nil {
				return err
			}
		}
		return nil
	})
	close(stop)
	reader.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("SaveMessages racer %d: %v", i, err)
		}
	}
	if readErr != nil {
		t.Errorf("ListMessages during the writes: %v", readErr)
	}

	got, err := s.ListMessages(ctx, "t", 0)
	must(t, "ListMessages", err)
	if len(got) != racers*batches*perBatch {
		t.Fatalf("ListMessages: %d messages, want %d", len(got), racers*batches*perBatch)
	}
	// Each writer's messages are listed in the order it saved them.
	next := map[string]int{}
	for _, m := range got {
		var g string
		var b, k int
		if _, err := fmt.Sscanf(m.ID, "g%2s-b%d-m%d", &g, &b, &k); err != nil {
			t.Fatalf("unexpected message id %q", m.ID)
		}
		if seq := b*perBatch + k; seq != next[g] {
			t.Errorf("writer %s: message %q listed at position %d of its writer, want %d", g, m.ID, next[g], seq)
		}
		next[g]++
	}
}

func testRaceAppendRun(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	v, err := s.SaveRun(ctx, newRun("run"))
	must(t, "SaveRun", err)
	v = appendAll(t, s, "run", v, storage.RunRunning, delta(0))
	versions := make([]int64, racers)
	errs := race(func(i int) error {
		var err error
		versions[i], err = s.AppendRun(ctx, "run", v, storage.RunRunning, rawf(`{"appender":%d}`, i))
		return err
	})
	OneWinner(t, "AppendRun", errs)
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	if got.Version != v+1 {
		t.Errorf("version after the race = %d, want %d", got.Version, v+1)
	}
	for i, err := range errs {
		if err == nil {
			if versions[i] != v+1 {
				t.Errorf("winner got version %d, want %d", versions[i], v+1)
			}
			checkDeltas(t, "run after the race", got.Deltas, []json.RawMessage{delta(0), rawf(`{"appender":%d}`, i)})
		}
	}
}

func testRaceSaveOrAppend(t *testing.T, s storage.Runs) {
	// Saves and appends at one version race: one of them, whichever,
	// wins.
	ctx := t.Context()
	r := newRun("run")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun", err)
	v = appendAll(t, s, "run", v, storage.RunRunning, delta(0))
	errs := race(func(i int) error {
		if i%2 == 0 {
			r := r
			r.Version, r.Snapshot = v, rawf(`{"saver":%d}`, i)
			_, err := s.SaveRun(ctx, r)
			return err
		}
		_, err := s.AppendRun(ctx, "run", v, storage.RunRunning, rawf(`{"appender":%d}`, i))
		return err
	})
	OneWinner(t, "SaveRun or AppendRun", errs)
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	if got.Version != v+1 {
		t.Errorf("version after the race = %d, want %d", got.Version, v+1)
	}
	for i, err := range errs {
		switch {
		case err != nil:
		case i%2 == 0:
			checkJSON(t, "snapshot after a save won", got.Snapshot, rawf(`{"saver":%d}`, i))
			checkDeltas(t, "run after a save won", got.Deltas, nil)
		default:
			checkJSON(t, "snapshot after an append won", got.Snapshot, r.Snapshot)
			checkDeltas(t, "run after an append won", got.Deltas, []json.RawMessage{delta(0), rawf(`{"appender":%d}`, i)})
		}
	}
}

func testRaceClaimRun(t *testing.T, s storage.Runs) {
	// Processes that loaded the run at one version race to resume it:
	// one claim goes through, and only its journal writes.
	ctx := t.Context()
	v, err := s.SaveRun(ctx, newRun("run"))
	must(t, "SaveRun", err)
	appendAll(t, s, "run", v, storage.RunSuspended, delta(0))
	stored, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	journals := make([]*storage.RunJournal, racers)
	errs := race(func(i int) error {
		loaded := *stored
		if err := storage.ClaimRun(ctx, s, &loaded, fmt.Sprintf("process-%d", i)); err != nil {
			return err
		}
		journals[i] = storage.ContinueRunJournal(s, &loaded)
		return journals[i].Append(ctx, storage.RunRunning, rawf(`{"resumedBy":%d}`, i))
	})
	OneWinner(t, "ClaimRun", errs)
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	if got.Version != stored.Version+1 || len(got.Deltas) != 2 {
		t.Errorf("run after the race: version %d, %d deltas; want %d, 2", got.Version, len(got.Deltas), stored.Version+1)
	}
}
