package storagetest

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

var finishedTests = []subtest{
	{name: "Kept", runs: testFinishedKept},
	{name: "ListByCreation", runs: testListByCreation},
	{name: "DeleteByAge", runs: testDeleteFinishedByAge},
	{name: "DeleteBeyondKeep", runs: testDeleteFinishedBeyondKeep},
}

// saveWorkflowRun saves a workflow run of name with status and returns
// it as stored.
func saveWorkflowRun(t *testing.T, s storage.Runs, id, name, status string) *storage.Run {
	t.Helper()
	ctx := t.Context()
	_, err := s.SaveRun(ctx, storage.Run{RunID: id, Kind: storage.KindWorkflow, Name: name, ResourceID: "u", Status: status,
		Snapshot: rawf(`{"id":%q,"status":%q}`, id, status)})
	must(t, "SaveRun "+id, err)
	r, err := s.GetRun(ctx, id)
	must(t, "GetRun "+id, err)
	return r
}

// testFinishedKept: a run saved with a finished status (a workflow's
// success, failure or cancellation) is stored and listed like any other,
// and a resumable run that finishes can be saved finished.
func testFinishedKept(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	for _, st := range []string{storage.RunSuccess, storage.RunFailed, storage.RunCanceled} {
		saveWorkflowRun(t, s, "r-"+st, "w", st)
	}
	r := saveWorkflowRun(t, s, "later", "w", storage.RunSuspended)
	r.Status, r.Snapshot = storage.RunSuccess, rawf(`{"done":true}`)
	_, err := s.SaveRun(ctx, *r)
	must(t, "SaveRun finished", err)
	got, total, err := s.ListRuns(ctx, storage.RunFilter{Kind: storage.KindWorkflow, Status: storage.RunSuccess})
	must(t, "ListRuns success", err)
	if ids := runIDs(got); !reflect.DeepEqual(ids, []string{"later", "r-success"}) || total != 2 {
		t.Errorf("finished runs: %v, total %d", ids, total)
	}
}

// testListByCreation: with ByCreation, From and To bound CreatedAt and
// the runs come newest CreatedAt first, whatever their UpdatedAt.
func testListByCreation(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	created := map[string]time.Time{}
	for _, id := range []string{"c1", "c2", "c3"} {
		created[id] = saveWorkflowRun(t, s, id, "w", storage.RunSuspended).CreatedAt
		time.Sleep(3 * time.Millisecond)
	}
	c1, err := s.GetRun(ctx, "c1") // updated last: newest by UpdatedAt
	must(t, "GetRun", err)
	c1.Status = storage.RunSuccess
	_, err = s.SaveRun(ctx, *c1)
	must(t, "SaveRun c1", err)
	for _, tc := range []struct {
		name  string
		f     storage.RunFilter
		want  []string
		total int
	}{
		{"by update", storage.RunFilter{}, []string{"c1", "c3", "c2"}, 3},
		{"by creation", storage.RunFilter{ByCreation: true}, []string{"c3", "c2", "c1"}, 3},
		{"from", storage.RunFilter{ByCreation: true, From: created["c2"]}, []string{"c3", "c2"}, 2},
		{"to", storage.RunFilter{ByCreation: true, To: created["c2"]}, []string{"c2", "c1"}, 2},
		{"page", storage.RunFilter{ByCreation: true, Page: 1, PerPage: 2}, []string{"c1"}, 3},
		{"status", storage.RunFilter{ByCreation: true, Status: storage.RunSuspended}, []string{"c3", "c2"}, 2},
	} {
		got, total, err := s.ListRuns(ctx, tc.f)
		must(t, "ListRuns "+tc.name, err)
		if ids := runIDs(got); !reflect.DeepEqual(ids, tc.want) || total != tc.total {
			t.Errorf("ListRuns(%s) = %v, total %d; want %v, total %d", tc.name, ids, total, tc.want, tc.total)
		}
	}
}

// remaining lists the ids of every stored run, sorted.
func remaining(t *testing.T, s storage.Runs) []string {
	t.Helper()
	got, _, err := s.ListRuns(t.Context(), storage.RunFilter{})
	must(t, "ListRuns", err)
	ids := runIDs(got)
	slices.Sort(ids)
	return ids
}

// testDeleteFinishedByAge: DeleteFinishedRuns removes the finished runs
// of the kind and name last written before Before, with their deltas and
// claims, and no other: resumable and pending ones, newer ones, other
// names and kinds stay.
func testDeleteFinishedByAge(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	saveWorkflowRun(t, s, "old-ok", "w", storage.RunSuccess)
	saveWorkflowRun(t, s, "old-failed", "w", storage.RunFailed)
	saveWorkflowRun(t, s, "old-waiting", "w", storage.RunSuspended)
	saveWorkflowRun(t, s, "old-running", "w", storage.RunRunning)
	saveWorkflowRun(t, s, "old-pending", "w", storage.RunPending)
	saveWorkflowRun(t, s, "old-other", "w2", storage.RunSuccess)
	agentRun := newRun("old-agent")
	agentRun.Status = storage.RunSuccess
	_, err := s.SaveRun(ctx, agentRun)
	must(t, "SaveRun agent", err)
	old, err := s.GetRun(ctx, "old-ok")
	must(t, "GetRun", err)
	_, err = s.AppendRun(ctx, "old-ok", old.Version, storage.RunSuccess, rawf(`{"more":1}`))
	must(t, "AppendRun", err)
	must(t, "ClaimResume", s.ClaimResume(ctx, "old-ok", "k", "p"))
	time.Sleep(3 * time.Millisecond)
	cutoff := time.Now()
	time.Sleep(3 * time.Millisecond)
	saveWorkflowRun(t, s, "new-ok", "w", storage.RunCanceled)

	n, err := s.DeleteFinishedRuns(ctx, storage.FinishedRuns{Kind: storage.KindWorkflow, Name: "w", Before: cutoff})
	must(t, "DeleteFinishedRuns", err)
	want := []string{"new-ok", "old-agent", "old-other", "old-pending", "old-running", "old-waiting"}
	if got := remaining(t, s); n != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("after deleting by age: removed %d, left %v; want 2, %v", n, got, want)
	}
	// The removed run's claims went with it: its id is free again.
	wantErr(t, "ClaimResume of a removed run", s.ClaimResume(ctx, "old-ok", "k", "p"), storage.ErrNotFound)
	saved := saveWorkflowRun(t, s, "old-ok", "w", storage.RunRunning)
	if saved.Version != 1 || len(saved.Deltas) != 0 {
		t.Errorf("a removed run's id saved again: version %d, deltas %d", saved.Version, len(saved.Deltas))
	}
	// Every name of the kind when Name is "".
	n, err = s.DeleteFinishedRuns(ctx, storage.FinishedRuns{Kind: storage.KindWorkflow, Before: cutoff})
	must(t, "DeleteFinishedRuns all names", err)
	if got := remaining(t, s); n != 1 || slices.Contains(got, "old-other") {
		t.Errorf("after deleting every name: removed %d, left %v", n, got)
	}
	n, err = s.DeleteFinishedRuns(ctx, storage.FinishedRuns{Kind: storage.KindWorkflow, Name: "w", Before: cutoff})
	must(t, "DeleteFinishedRuns again", err)
	if n != 0 {
		t.Errorf("a second delete removed %d", n)
	}
}

// testDeleteFinishedBeyondKeep: with Keep, DeleteFinishedRuns keeps the
// newest Keep finished runs (by UpdatedAt) of the kind and name, whatever
// their age, and removes the rest.
func testDeleteFinishedBeyondKeep(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	for _, id := range []string{"f1", "f2", "f3", "f4"} {
		saveWorkflowRun(t, s, id, "w", storage.RunSuccess)
		saveWorkflowRun(t, s, "live-"+id, "w", storage.RunSuspended)
		time.Sleep(3 * time.Millisecond)
	}
	n, err := s.DeleteFinishedRuns(ctx, storage.FinishedRuns{Kind: storage.KindWorkflow, Name: "w", Keep: 2})
	must(t, "DeleteFinishedRuns keep 2", err)
	want := []string{"f3", "f4", "live-f1", "live-f2", "live-f3", "live-f4"}
	if got := remaining(t, s); n != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("after keeping 2: removed %d, left %v; want 2, %v", n, got, want)
	}
	n, err = s.DeleteFinishedRuns(ctx, storage.FinishedRuns{Kind: storage.KindWorkflow, Name: "w", Keep: 5, Before: time.Now().Add(time.Hour)})
	must(t, "DeleteFinishedRuns keep 5, all old", err)
	if got := remaining(t, s); n != 2 || len(got) != 4 {
		t.Errorf("Before removes what Keep would keep: removed %d, left %v", n, got)
	}
}
