package storagetest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

var runTests = []subtest{
	{name: "CreateGet", runs: testRunCreateGet},
	{name: "Update", runs: testRunUpdate},
	{name: "StaleVersionConflicts", runs: testRunStale},
	{name: "GetMissing", runs: testRunGetMissing},
	{name: "List", runs: testRunList},
	{name: "Delete", runs: testRunDelete},
	{name: "Invalid", runs: testRunInvalid},
}

// snapshot returns a run snapshot of about size bytes.
func snapshot(step int, size int) json.RawMessage {
	pad := max(size-60, 0)
	b := make([]byte, pad)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return rawf(`{"step":%d,"history":[{"role":"user","text":%q}]}`, step, b)
}

// newRun builds a suspended agent run.
func newRun(id string) storage.Run {
	return storage.Run{
		RunID: id, Kind: storage.KindAgent, Name: "weather-agent", ThreadID: "t", ResourceID: "r",
		Status: storage.RunSuspended, Snapshot: snapshot(1, 200),
	}
}

// checkRun compares a stored run with the one saved (times apart).
func checkRun(t *testing.T, got *storage.Run, want storage.Run) {
	t.Helper()
	if got == nil {
		t.Fatalf("run %q: nil", want.RunID)
	}
	g, w := *got, want
	checkJSON(t, "run "+want.RunID+" Snapshot", g.Snapshot, w.Snapshot)
	checkDeltas(t, "run "+want.RunID, g.Deltas, w.Deltas)
	checkUTC(t, "run "+want.RunID+" CreatedAt", g.CreatedAt)
	checkUTC(t, "run "+want.RunID+" UpdatedAt", g.UpdatedAt)
	g.Snapshot, w.Snapshot, g.Deltas, w.Deltas = nil, nil, nil, nil
	g.CreatedAt, w.CreatedAt, g.UpdatedAt, w.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("run = %+v, want %+v", g, w)
	}
}

func testRunCreateGet(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run-1")
	r.CreatedAt = at(0)
	r.UpdatedAt = at(-5000) // ignored: UpdatedAt is the time of the save
	before := time.Now()
	v, err := s.SaveRun(ctx, r)
	after := time.Now()
	must(t, "SaveRun create", err)
	if v != 1 {
		t.Errorf("SaveRun create: version %d, want 1", v)
	}
	got, err := s.GetRun(ctx, "run-1")
	must(t, "GetRun", err)
	want := r
	want.Version = 1
	checkRun(t, got, want)
	checkTime(t, "CreatedAt", got.CreatedAt, at(0))
	checkNow(t, "UpdatedAt", got.UpdatedAt, before, after)

	// A workflow run with no thread and a zero CreatedAt.
	w := storage.Run{RunID: "run-2", Kind: storage.KindWorkflow, Name: "wf", Status: storage.RunRunning, Snapshot: rawf(`{}`)}
	before = time.Now()
	v, err = s.SaveRun(ctx, w)
	after = time.Now()
	must(t, "SaveRun create workflow", err)
	if v != 1 {
		t.Errorf("SaveRun create: version %d, want 1", v)
	}
	got, err = s.GetRun(ctx, "run-2")
	must(t, "GetRun", err)
	w.Version = 1
	checkRun(t, got, w)
	checkNow(t, "CreatedAt", got.CreatedAt, before, after)
	checkNow(t, "UpdatedAt", got.UpdatedAt, before, after)
}

func testRunUpdate(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	r.CreatedAt = at(0)
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun create", err)

	for i := 2; i <= 4; i++ {
		r.Version = v
		r.Status = storage.RunRunning
		if i%2 == 0 {
			r.Status = storage.RunSuspended
		}
		r.Snapshot = snapshot(i, 2048)
		r.CreatedAt = at(99999) // ignored on update
		time.Sleep(2 * time.Millisecond)
		before := time.Now()
		v, err = s.SaveRun(ctx, r)
		after := time.Now()
		must(t, fmt.Sprintf("SaveRun update %d", i), err)
		if v != int64(i) {
			t.Errorf("SaveRun update: version %d, want %d", v, i)
		}
		got, err := s.GetRun(ctx, "run")
		must(t, "GetRun", err)
		want := r
		want.Version = v
		checkRun(t, got, want)
		checkTime(t, "CreatedAt (kept on update)", got.CreatedAt, at(0))
		checkNow(t, "UpdatedAt", got.UpdatedAt, before, after)
	}
}

func testRunStale(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun create", err)
	r.Version = v
	r.Snapshot = snapshot(2, 100)
	v2, err := s.SaveRun(ctx, r)
	must(t, "SaveRun update", err)

	// r.Version is now stale.
	r.Snapshot = snapshot(99, 100)
	_, err = s.SaveRun(ctx, r)
	wantErr(t, "SaveRun with a stale version", err, storage.ErrConflict)
	r.Version = v2 + 1
	_, err = s.SaveRun(ctx, r)
	wantErr(t, "SaveRun with a version from the future", err, storage.ErrConflict)
	r.Version = 0
	_, err = s.SaveRun(ctx, r)
	wantErr(t, "SaveRun create of an existing run", err, storage.ErrConflict)

	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	if got.Version != v2 || !jsonEqual(got.Snapshot, snapshot(2, 100)) {
		t.Errorf("a conflicting save changed the run: version %d, snapshot %.40s", got.Version, got.Snapshot)
	}

	// Updating a run that does not exist.
	missing := newRun("missing")
	missing.Version = 1
	_, err = s.SaveRun(ctx, missing)
	wantErr(t, "SaveRun update of a missing run", err, storage.ErrConflict)
	_, err = s.GetRun(ctx, "missing")
	wantErr(t, "GetRun after a failed update", err, storage.ErrNotFound)
}

func testRunGetMissing(t *testing.T, s storage.Runs) {
	got, err := s.GetRun(t.Context(), "nope")
	wantErr(t, "GetRun missing", err, storage.ErrNotFound)
	if got != nil {
		t.Errorf("GetRun missing returned %+v", got)
	}
}

func runIDs(rs []storage.Run) []string {
	ids := []string{}
	for _, r := range rs {
		ids = append(ids, r.RunID)
	}
	return ids
}

func testRunList(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	// Saved in this order, a few milliseconds apart: UpdatedAt grows.
	// r3 is saved twice, last, so it is the newest.
	runs := []storage.Run{
		{RunID: "r1", Kind: storage.KindAgent, Name: "a1", ThreadID: "t1", ResourceID: "u1", Status: storage.RunSuspended},
		{RunID: "r2", Kind: storage.KindAgent, Name: "a2", ThreadID: "t2", ResourceID: "u1", Status: storage.RunRunning},
		{RunID: "r3", Kind: storage.KindWorkflow, Name: "w1", ResourceID: "u2", Status: storage.RunSuspended},
		{RunID: "r4", Kind: storage.KindAgent, Name: "a1", ThreadID: "t1", ResourceID: "u1", Status: storage.RunRunning},
		{RunID: "r5", Kind: storage.KindWorkflow, Name: "w1", ResourceID: "u2", Status: storage.RunRunning},
	}
	for _, r := range runs {
		r.Snapshot = rawf(`{"id":%q}`, r.RunID)
		_, err := s.SaveRun(ctx, r)
		must(t, "SaveRun "+r.RunID, err)
		time.Sleep(3 * time.Millisecond)
	}
	r3 := runs[2]
	r3.Version, r3.Snapshot = 1, rawf(`{"id":"r3","again":true}`)
	_, err := s.SaveRun(ctx, r3)
	must(t, "SaveRun r3 update", err)

	updated := map[string]time.Time{}
	for _, id := range []string{"r1", "r2", "r3", "r4", "r5"} {
		r, err := s.GetRun(ctx, id)
		must(t, "GetRun "+id, err)
		updated[id] = r.UpdatedAt
	}
	all := []string{"r3", "r5", "r4", "r2", "r1"}

	for _, tc := range []struct {
		name  string
		f     storage.RunFilter
		want  []string
		total int
	}{
		{"all", storage.RunFilter{}, all, 5},
		{"kind agent", storage.RunFilter{Kind: storage.KindAgent}, []string{"r4", "r2", "r1"}, 3},
		{"kind workflow", storage.RunFilter{Kind: storage.KindWorkflow}, []string{"r3", "r5"}, 2},
		{"name", storage.RunFilter{Name: "a1"}, []string{"r4", "r1"}, 2},
		{"thread", storage.RunFilter{ThreadID: "t2"}, []string{"r2"}, 1},
		{"resource", storage.RunFilter{ResourceID: "u2"}, []string{"r3", "r5"}, 2},
		{"status", storage.RunFilter{Status: storage.RunSuspended}, []string{"r3", "r1"}, 2},
		{"combined", storage.RunFilter{Kind: storage.KindAgent, ResourceID: "u1", Status: storage.RunRunning}, []string{"r4", "r2"}, 2},
		{"no match", storage.RunFilter{Name: "nobody"}, []string{}, 0},
		{"from inclusive", storage.RunFilter{From: updated["r4"]}, []string{"r3", "r5", "r4"}, 3},
		{"to inclusive", storage.RunFilter{To: updated["r2"]}, []string{"r2", "r1"}, 2},
		{"from just after", storage.RunFilter{From: updated["r4"].Add(time.Nanosecond)}, []string{"r3", "r5"}, 2},
		{"to just before", storage.RunFilter{To: updated["r2"].Add(-time.Nanosecond)}, []string{"r1"}, 1},
		{"from to", storage.RunFilter{From: updated["r2"], To: updated["r5"]}, []string{"r5", "r4", "r2"}, 3},
		{"from to one instant", storage.RunFilter{From: updated["r4"], To: updated["r4"]}, []string{"r4"}, 1},
		{"from to in another zone", storage.RunFilter{From: updated["r2"].In(base.Location()), To: updated["r4"].In(base.Location())}, []string{"r4", "r2"}, 2},
		{"to before all", storage.RunFilter{To: updated["r1"].Add(-time.Millisecond)}, []string{}, 0},
		{"page 0", storage.RunFilter{PerPage: 2}, []string{"r3", "r5"}, 5},
		{"page 1", storage.RunFilter{Page: 1, PerPage: 2}, []string{"r4", "r2"}, 5},
		{"page 2", storage.RunFilter{Page: 2, PerPage: 2}, []string{"r1"}, 5},
		{"page past the end", storage.RunFilter{Page: 3, PerPage: 2}, []string{}, 5},
		{"page of a filter", storage.RunFilter{Kind: storage.KindAgent, Page: 1, PerPage: 2}, []string{"r1"}, 3},
		{"per page 0 is all", storage.RunFilter{Page: 4}, all, 5},
	} {
		got, total, err := s.ListRuns(ctx, tc.f)
		must(t, "ListRuns "+tc.name, err)
		if ids := runIDs(got); !reflect.DeepEqual(ids, tc.want) || total != tc.total {
			t.Errorf("ListRuns(%s) = %v, total %d; want %v, total %d", tc.name, ids, total, tc.want, tc.total)
		}
	}

	// Listed runs are whole.
	got, _, err := s.ListRuns(ctx, storage.RunFilter{ThreadID: "t2"})
	must(t, "ListRuns", err)
	if len(got) == 1 {
		want := runs[1]
		want.Version, want.Snapshot = 1, rawf(`{"id":"r2"}`)
		checkRun(t, &got[0], want)
		checkTime(t, "listed UpdatedAt", got[0].UpdatedAt, updated["r2"])
	}
}

func testRunDelete(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	for _, id := range []string{"doomed", "kept"} {
		_, err := s.SaveRun(ctx, newRun(id))
		must(t, "SaveRun", err)
	}
	must(t, "ClaimResume", s.ClaimResume(ctx, "doomed", "call-1", "p1"))
	must(t, "ClaimResume", s.ClaimResume(ctx, "doomed", "", "p1"))
	must(t, "ClaimResume", s.ClaimResume(ctx, "kept", "call-1", "p1"))

	must(t, "DeleteRun", s.DeleteRun(ctx, "doomed"))
	_, err := s.GetRun(ctx, "doomed")
	wantErr(t, "GetRun after delete", err, storage.ErrNotFound)
	got, total, err := s.ListRuns(ctx, storage.RunFilter{})
	must(t, "ListRuns", err)
	if ids := runIDs(got); !reflect.DeepEqual(ids, []string{"kept"}) || total != 1 {
		t.Errorf("ListRuns after delete = %v, total %d; want [kept], 1", ids, total)
	}
	// The claims went with the run: a run created again under the same
	// id can be claimed again.
	err = s.ClaimResume(ctx, "doomed", "call-1", "p2")
	wantErr(t, "ClaimResume of a deleted run", err, storage.ErrNotFound)
	v, err := s.SaveRun(ctx, newRun("doomed"))
	must(t, "SaveRun again", err)
	if v != 1 {
		t.Errorf("SaveRun of a deleted run's id: version %d, want 1", v)
	}
	must(t, "ClaimResume after delete and create", s.ClaimResume(ctx, "doomed", "call-1", "p2"))
	must(t, "ClaimResume \"\" after delete and create", s.ClaimResume(ctx, "doomed", "", "p2"))
	// The other run's claims stay.
	wantErr(t, "ClaimResume of the kept run", s.ClaimResume(ctx, "kept", "call-1", "p2"), storage.ErrConflict)

	must(t, "DeleteRun missing", s.DeleteRun(ctx, "never-saved"))
}

func testRunInvalid(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("")
	if _, err := s.SaveRun(ctx, r); err == nil {
		t.Error("SaveRun with an empty RunID succeeded")
	}
	r = newRun("bad-json")
	r.Snapshot = json.RawMessage(`{"step":`)
	if _, err := s.SaveRun(ctx, r); err == nil {
		t.Error("SaveRun with an invalid snapshot succeeded")
	}
	r = newRun("negative")
	r.Version = -1
	if _, err := s.SaveRun(ctx, r); err == nil {
		t.Error("SaveRun with a negative version succeeded")
	}
	_, total, err := s.ListRuns(ctx, storage.RunFilter{})
	must(t, "ListRuns", err)
	if total != 0 {
		t.Errorf("invalid runs were stored: %d", total)
	}
}
