// Package storagetest is the conformance suite every storage.Store
// backend passes. A backend's tests call Run with a function that opens a
// fresh, empty store:
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T) storage.Store {
//			s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "mastra.db"))
//			if err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
//
// The suite checks every contract written in package storage, and these
// choices storage.go leaves open, which both backends of this module make
// the same way:
//
//   - Ids are required: SaveThread with an empty ID, SaveRun with an empty
//     RunID, and SaveMessages with a message whose ID or ThreadID is empty
//     fail (the batch saves nothing). JSON fields (Content, Metadata,
//     Snapshot, a thread state value) may be empty, else they must be
//     valid JSON; a batch with invalid JSON saves nothing. JSON comes back
//     equal as JSON (backends may store it byte for byte, or not).
//   - Times are kept to the millisecond or better and come back in UTC.
//     SaveThread keeps the times it is given; SaveRun sets UpdatedAt to
//     the time of the save (the given one is ignored) and keeps a given
//     CreatedAt when it creates the run.
//   - ListThreads orders by CreatedAt, newest first.
//   - A replaced message keeps its thread, resource, CreatedAt and place.
//   - SaveRun of a missing run with a Version other than 0 is ErrConflict.
//   - DeleteThread and DeleteRun of a missing id succeed (nothing to do).
//   - ClaimResume on a run that does not exist fails with ErrNotFound, so
//     that a claim can never outlive its run: a late resume of a finished
//     (deleted) run fails instead of running it twice.
//   - Thread state is kept for any thread id (the thread need not be
//     saved first) and deleted with the thread.
//   - AppendRun refuses an empty run id and a version under 1, as it
//     refuses an empty or invalid delta (and stores nothing); it sets
//     UpdatedAt to the time of the append. A run without deltas has nil
//     Deltas.
//   - Every error of the database or its driver is a
//     *storage.DatabaseError with its generic text; the suite checks the
//     calls of a closed store.
//
// Each subtest opens its own store and closes it when it ends (Close may
// therefore also be called by cleanups open registers; backends make Close
// idempotent).
//
// RunRuns runs the checks of storage.Runs alone, for Runs that are not a
// whole Store (storage.NewMemoryRuns).
//
// RunEventLog runs the checks of storage.RunEvents (run event logs).
//
// Beside the suite, backends' own tests and benchmarks share OneWinner
// (checking racing claims or saves across several Stores),
// BenchSaveRunAndClaim, BenchAppend and BenchAppendEvents.
package storagetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// Run runs the conformance suite against the stores open returns. open is
// called once per subtest and must return a new, empty store; Run closes
// it when the subtest ends.
func Run(t *testing.T, open func(t *testing.T) storage.Store) {
	t.Helper()
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, st := range g.tests {
				t.Run(st.name, func(t *testing.T) {
					s := newStore(t, open)
					if st.runs != nil {
						st.runs(t, s)
					} else {
						st.fn(t, s)
					}
				})
			}
		})
	}
}

// RunRuns runs the part of the suite that checks storage.Runs alone (run
// snapshots, appends, journals and claims) against the Runs open returns:
// what storage.NewMemoryRuns passes. open is called once per subtest and
// must return new, empty Runs.
func RunRuns(t *testing.T, open func(t *testing.T) storage.Runs) {
	t.Helper()
	for _, g := range groups {
		if !slices.ContainsFunc(g.tests, func(st subtest) bool { return st.runs != nil }) {
			continue
		}
		t.Run(g.name, func(t *testing.T) {
			for _, st := range g.tests {
				if st.runs == nil {
					continue
				}
				t.Run(st.name, func(t *testing.T) {
					s := open(t)
					if s == nil {
						t.Fatal("open returned nil Runs")
					}
					st.runs(t, s)
				})
			}
		})
	}
}

// groups are the suite's subtests, by the interface they check.
var groups = []struct {
	name  string
	tests []subtest
}{
	{"Threads", threadTests},
	{"Messages", messageTests},
	{"ThreadState", stateTests},
	{"Resources", resourceTests},
	{"Runs", runTests},
	{"FinishedRuns", finishedTests},
	{"Appends", appendTests},
	{"Journal", journalTests},
	{"Claims", claimTests},
	{"Concurrency", concurrencyTests},
	{"DatabaseErrors", databaseErrorTests},
}

// subtest is one conformance check, run on a fresh store: fn, or runs
// for a check of storage.Runs alone (which RunRuns runs too).
type subtest struct {
	name string
	fn   func(t *testing.T, s storage.Store)
	runs func(t *testing.T, s storage.Runs)
}

// newStore opens a store for t and closes it when t ends.
func newStore(t *testing.T, open func(t *testing.T) storage.Store) storage.Store {
	t.Helper()
	s := open(t)
	if s == nil {
		t.Fatal("open returned a nil store")
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// base is the suite's reference time: not UTC, with nanoseconds a
// backend keeping microseconds or milliseconds drops.
var base = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.FixedZone("UTC+5:30", 5*3600+1800))

// at returns base moved by d milliseconds.
func at(ms int) time.Time { return base.Add(time.Duration(ms) * time.Millisecond) }

// checkTime reports whether got is want to the millisecond, in UTC.
func checkTime(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if got.Location() != time.UTC {
		t.Errorf("%s: location %q, want UTC", what, got.Location())
	}
	if d := got.Sub(want); d <= -time.Millisecond || d >= time.Millisecond {
		t.Errorf("%s = %s, want %s (to the millisecond)", what, got.Format(time.RFC3339Nano), want.UTC().Format(time.RFC3339Nano))
	}
}

// checkUTC reports whether tm is in UTC.
func checkUTC(t *testing.T, what string, tm time.Time) {
	t.Helper()
	if tm.Location() != time.UTC {
		t.Errorf("%s: location %q, want UTC", what, tm.Location())
	}
}

// checkNow reports whether got is a UTC time within [before, after], with
// a millisecond of slack for backends that keep milliseconds.
func checkNow(t *testing.T, what string, got, before, after time.Time) {
	t.Helper()
	if got.Location() != time.UTC {
		t.Errorf("%s: location %q, want UTC", what, got.Location())
	}
	if got.Before(before.Add(-time.Millisecond)) || got.After(after.Add(time.Millisecond)) {
		t.Errorf("%s = %s, want the time of the save, between %s and %s", what,
			got.Format(time.RFC3339Nano), before.UTC().Format(time.RFC3339Nano), after.UTC().Format(time.RFC3339Nano))
	}
}

// checkJSON reports whether got and want are equal as JSON (both empty
// counts as equal).
func checkJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !jsonEqual(got, want) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// checkDeltas reports whether got and want are the same deltas, in
// order, each equal as JSON. A run without deltas has nil Deltas.
func checkDeltas(t *testing.T, what string, got, want []json.RawMessage) {
	t.Helper()
	if len(want) == 0 && got != nil {
		t.Errorf("%s: Deltas = %q, want nil", what, got)
		return
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d deltas %.200q, want %d %.200q", what, len(got), got, len(want), want)
		return
	}
	for i := range got {
		if !jsonEqual(got[i], want[i]) {
			t.Errorf("%s: delta %d = %.100s, want %.100s", what, i, got[i], want[i])
		}
	}
}

func jsonEqual(a, b []byte) bool {
	if len(bytes.TrimSpace(a)) == 0 || len(bytes.TrimSpace(b)) == 0 {
		return len(bytes.TrimSpace(a)) == 0 && len(bytes.TrimSpace(b)) == 0
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// wantErr fails t unless errors.Is(err, target).
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: err = %v, want errors.Is(err, %v)", what, err, target)
	}
}

// must fails t now when err is not nil.
func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// rawf formats a JSON value.
func rawf(format string, args ...any) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(format, args...))
}
