package storagetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/storage"
)

var journalTests = []subtest{
	{name: "SaveAppendDelete", runs: testJournalLifecycle},
	{name: "LostToACompetingWrite", runs: testJournalLost},
	{name: "LostWhenDeletedElsewhere", runs: testJournalRunDeleted},
	{name: "LostWhenCreatedElsewhere", runs: testJournalCreatedElsewhere},
	{name: "ConcurrentAppends", runs: testJournalConcurrent},
	{name: "ClaimRun", runs: testJournalClaimRun},
}

// journalMeta is what a journal of run id stores beside its snapshots.
func journalMeta(id string) storage.Run {
	return storage.Run{RunID: id, Kind: storage.KindWorkflow, Name: "wf", ThreadID: "t", ResourceID: "r", CreatedAt: at(0)}
}

// checkJournal checks what j says of itself.
func checkJournal(t *testing.T, what string, j *storage.RunJournal, version int64, saved, lost bool) {
	t.Helper()
	if j.Version() != version || j.Saved() != saved || j.Lost() != lost {
		t.Errorf("%s: journal at version %d, saved %v, lost %v; want %d, %v, %v", what, j.Version(), j.Saved(), j.Lost(), version, saved, lost)
	}
}

// checkStored checks the stored run id: its version, status, snapshot
// and deltas.
func checkStored(t *testing.T, s storage.Runs, id string, version int64, status string, snap json.RawMessage, deltas ...json.RawMessage) {
	t.Helper()
	got, err := s.GetRun(t.Context(), id)
	must(t, "GetRun "+id, err)
	want := journalMeta(id)
	want.Version, want.Status, want.Snapshot, want.Deltas = version, status, snap, deltas
	checkRun(t, got, want)
	checkTime(t, "CreatedAt", got.CreatedAt, at(0))
}

func testJournalLifecycle(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	j := storage.NewRunJournal(s, journalMeta("run"))
	checkJournal(t, "new journal", j, 0, false, false)
	err := j.Append(ctx, storage.RunRunning, delta(0))
	if err == nil || errors.Is(err, storage.ErrConflict) {
		t.Errorf("Append before any Save: err = %v, want an error, not a conflict", err)
	}
	must(t, "Delete of a journal that saved nothing", j.Delete(ctx))
	checkJournal(t, "journal that saved nothing", j, 0, false, false)

	snap1 := snapshot(1, 300)
	must(t, "Save", j.Save(ctx, storage.RunRunning, snap1))
	checkJournal(t, "after Save", j, 1, true, false)
	must(t, "Append 1", j.Append(ctx, storage.RunRunning, delta(1)))
	must(t, "Append 2", j.Append(ctx, storage.RunSuspended, delta(2)))
	checkJournal(t, "after two appends", j, 3, true, false)
	checkStored(t, s, "run", 3, storage.RunSuspended, snap1, delta(1), delta(2))

	// A compaction.
	snap2 := snapshot(2, 300)
	must(t, "Save again", j.Save(ctx, storage.RunRunning, snap2))
	checkJournal(t, "after a compaction", j, 4, true, false)
	checkStored(t, s, "run", 4, storage.RunRunning, snap2)

	// Another journal (another process, after a restart) goes on from the
	// run as loaded.
	stored, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	k := storage.ContinueRunJournal(s, stored)
	checkJournal(t, "continued journal", k, 4, true, false)
	must(t, "Append to the continued journal", k.Append(ctx, storage.RunSuspended, delta(3)))
	checkStored(t, s, "run", 5, storage.RunSuspended, snap2, delta(3))

	must(t, "Delete", k.Delete(ctx))
	checkJournal(t, "after Delete", k, 0, false, false)
	_, err = s.GetRun(ctx, "run")
	wantErr(t, "GetRun after Delete", err, storage.ErrNotFound)
	must(t, "Delete again", k.Delete(ctx))
	if err := k.Append(ctx, storage.RunRunning, delta(4)); err == nil {
		t.Error("Append after Delete succeeded")
	}
	// The first journal, which the second took over from, finds the run
	// gone: it is lost, and its Delete does nothing.
	wantErr(t, "Append to a run another journal deleted", j.Append(ctx, storage.RunRunning, delta(5)), storage.ErrConflict)
	checkJournal(t, "journal whose run was deleted", j, 4, true, true)
	must(t, "Delete of a lost journal", j.Delete(ctx))

	// A run deleted by its journal can be saved again from scratch.
	must(t, "Save after Delete", k.Save(ctx, storage.RunRunning, snap1))
	checkJournal(t, "saved again", k, 1, true, false)
	checkStored(t, s, "run", 1, storage.RunRunning, snap1)
}

func testJournalLost(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	snap := snapshot(1, 300)
	a := storage.NewRunJournal(s, journalMeta("run"))
	must(t, "Save", a.Save(ctx, storage.RunRunning, snap))
	must(t, "Append", a.Append(ctx, storage.RunRunning, delta(1)))

	// Another process loads the run and writes first.
	stored, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	b := storage.ContinueRunJournal(s, stored)
	must(t, "Append of the other journal", b.Append(ctx, storage.RunSuspended, delta(2)))

	wantErr(t, "Append of the journal taken over", a.Append(ctx, storage.RunRunning, delta(99)), storage.ErrConflict)
	checkJournal(t, "journal taken over", a, 2, true, true)
	// Lost: it never writes nor deletes again.
	wantErr(t, "Save of a lost journal", a.Save(ctx, storage.RunRunning, snapshot(99, 100)), storage.ErrConflict)
	wantErr(t, "Append of a lost journal", a.Append(ctx, storage.RunRunning, delta(99)), storage.ErrConflict)
	must(t, "Delete of a lost journal", a.Delete(ctx))
	checkStored(t, s, "run", 3, storage.RunSuspended, snap, delta(1), delta(2))

	// The winner goes on; a Save that finds another version loses too.
	must(t, "Append of the winner", b.Append(ctx, storage.RunRunning, delta(3)))
	c := storage.ContinueRunJournal(s, stored) // loaded at version 2, now 4
	wantErr(t, "Save with a stale version", c.Save(ctx, storage.RunRunning, snapshot(98, 100)), storage.ErrConflict)
	checkJournal(t, "journal of a stale load", c, 2, true, true)
	checkStored(t, s, "run", 4, storage.RunRunning, snap, delta(1), delta(2), delta(3))
}

func testJournalRunDeleted(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	for _, write := range []string{"Save", "Append"} {
		j := storage.NewRunJournal(s, journalMeta("run"))
		must(t, "Save", j.Save(ctx, storage.RunRunning, snapshot(1, 100)))
		must(t, "DeleteRun", s.DeleteRun(ctx, "run")) // another process finished it
		var err error
		if write == "Save" {
			err = j.Save(ctx, storage.RunRunning, snapshot(2, 100))
		} else {
			err = j.Append(ctx, storage.RunRunning, delta(2))
		}
		wantErr(t, write+" to a run deleted elsewhere", err, storage.ErrConflict)
		checkJournal(t, "journal after "+write+" to a run deleted elsewhere", j, 1, true, true)
		_, err = s.GetRun(ctx, "run")
		wantErr(t, "GetRun after "+write+" to a run deleted elsewhere", err, storage.ErrNotFound)
	}
}

func testJournalCreatedElsewhere(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	first := storage.NewRunJournal(s, journalMeta("run"))
	snap := snapshot(1, 100)
	must(t, "Save", first.Save(ctx, storage.RunSuspended, snap))
	second := storage.NewRunJournal(s, journalMeta("run"))
	wantErr(t, "first Save of a run that exists", second.Save(ctx, storage.RunRunning, snapshot(2, 100)), storage.ErrConflict)
	checkJournal(t, "journal of a run created elsewhere", second, 0, false, true)
	must(t, "Delete of a lost journal", second.Delete(ctx))
	checkStored(t, s, "run", 1, storage.RunSuspended, snap)
}

func testJournalConcurrent(t *testing.T, s storage.Runs) {
	// One journal, written from several goroutines (parallel tool calls
	// ending): its writes are serialised, none is lost.
	ctx := t.Context()
	j := storage.NewRunJournal(s, journalMeta("run"))
	must(t, "Save", j.Save(ctx, storage.RunRunning, snapshot(1, 100)))
	errs := race(func(i int) error { return j.Append(ctx, storage.RunRunning, rawf(`{"call":%d}`, i)) })
	for i, err := range errs {
		if err != nil {
			t.Errorf("Append %d: %v", i, err)
		}
	}
	checkJournal(t, "after concurrent appends", j, 1+racers, true, false)
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	seen := map[string]bool{}
	for _, d := range got.Deltas {
		seen[string(d)] = true
	}
	for i := range racers {
		if d := fmt.Sprintf(`{"call":%d}`, i); !seen[d] {
			t.Errorf("delta %s missing from the run's %d deltas", d, len(got.Deltas))
		}
	}
}

func testJournalClaimRun(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	j := storage.NewRunJournal(s, journalMeta("run"))
	must(t, "Save", j.Save(ctx, storage.RunSuspended, snapshot(1, 100)))
	v1, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)

	// The run moves on after it was loaded: a claim of the version
	// loaded fails, though no one claimed that version.
	must(t, "Append", j.Append(ctx, storage.RunSuspended, delta(1)))
	wantErr(t, "ClaimRun of a version the run moved on from", storage.ClaimRun(ctx, s, v1, "p1"), storage.ErrConflict)

	v2, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	must(t, "ClaimRun", storage.ClaimRun(ctx, s, v2, "p1"))
	wantErr(t, "ClaimRun again, another owner", storage.ClaimRun(ctx, s, v2, "p2"), storage.ErrConflict)
	wantErr(t, "ClaimRun again, same owner", storage.ClaimRun(ctx, s, v2, "p1"), storage.ErrConflict)

	// The resume writes: the run's next version is claimed afresh.
	k := storage.ContinueRunJournal(s, v2)
	must(t, "Append of the resumed run", k.Append(ctx, storage.RunSuspended, delta(2)))
	v3, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	must(t, "ClaimRun of the next version", storage.ClaimRun(ctx, s, v3, "p2"))

	// The run finishes (deleted) before a late claim of what was loaded.
	must(t, "Delete", k.Delete(ctx))
	wantErr(t, "ClaimRun of a deleted run", storage.ClaimRun(ctx, s, v3, "p3"), storage.ErrConflict)

	if err := storage.ClaimRun(ctx, s, nil, "p"); err == nil {
		t.Error("ClaimRun of nil succeeded")
	}
}
