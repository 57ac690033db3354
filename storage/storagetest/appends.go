package storagetest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

var appendTests = []subtest{
	{name: "Versions", runs: testAppendVersions},
	{name: "StaleVersionConflicts", runs: testAppendStale},
	{name: "MissingRun", runs: testAppendMissing},
	{name: "Invalid", runs: testAppendInvalid},
	{name: "ListRunsHaveDeltas", runs: testAppendList},
	{name: "SaveRunDropsDeltas", runs: testAppendSaveDrops},
	{name: "DeleteRunRemovesDeltas", runs: testAppendDelete},
	{name: "ManyInOrder", runs: testAppendMany},
	{name: "LargeDelta", runs: testAppendLarge},
}

// delta returns a small change, numbered.
func delta(n int) json.RawMessage {
	return rawf(`{"op":"step","n":%d,"messages":[{"role":"assistant","text":"step %d"}]}`, n, n)
}

// appendAll appends deltas to the run at version and returns its new
// version.
func appendAll(t *testing.T, s storage.Runs, runID string, version int64, status string, deltas ...json.RawMessage) int64 {
	t.Helper()
	for _, d := range deltas {
		v, err := s.AppendRun(t.Context(), runID, version, status, d)
		must(t, fmt.Sprintf("AppendRun at version %d", version), err)
		if v != version+1 {
			t.Fatalf("AppendRun at version %d returned version %d, want %d", version, v, version+1)
		}
		version = v
	}
	return version
}

func testAppendVersions(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	r.Status, r.CreatedAt = storage.RunRunning, at(0)
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun", err)

	var deltas []json.RawMessage
	for i, status := range []string{storage.RunRunning, storage.RunRunning, storage.RunSuspended} {
		d := delta(i)
		time.Sleep(2 * time.Millisecond)
		before := time.Now()
		got, err := s.AppendRun(ctx, "run", v, status, d)
		after := time.Now()
		must(t, fmt.Sprintf("AppendRun %d", i), err)
		if got != v+1 {
			t.Errorf("AppendRun at version %d: version %d, want %d", v, got, v+1)
		}
		v = got
		deltas = append(deltas, d)

		stored, err := s.GetRun(ctx, "run")
		must(t, "GetRun", err)
		want := r
		want.Status, want.Version, want.Deltas = status, v, deltas
		checkRun(t, stored, want)
		checkTime(t, "CreatedAt (kept by appends)", stored.CreatedAt, at(0))
		checkNow(t, "UpdatedAt (the time of the append)", stored.UpdatedAt, before, after)
	}
}

func testAppendStale(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun", err)
	v2 := appendAll(t, s, "run", v, storage.RunRunning, delta(1))

	for _, tc := range []struct {
		name    string
		version int64
	}{{"stale", v}, {"from the future", v2 + 1}} {
		_, err := s.AppendRun(ctx, "run", tc.version, storage.RunSuspended, delta(99))
		wantErr(t, "AppendRun with a version "+tc.name, err, storage.ErrConflict)
	}
	// A save with the version the append replaced.
	r.Version = v
	_, err = s.SaveRun(ctx, r)
	wantErr(t, "SaveRun with the version before an append", err, storage.ErrConflict)

	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	want := r
	want.Version, want.Status, want.Deltas = v2, storage.RunRunning, []json.RawMessage{delta(1)}
	checkRun(t, got, want)
}

func testAppendMissing(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	_, err := s.AppendRun(ctx, "nope", 1, storage.RunRunning, delta(1))
	wantErr(t, "AppendRun to a missing run", err, storage.ErrNotFound)
	_, err = s.GetRun(ctx, "nope")
	wantErr(t, "GetRun after an append to a missing run", err, storage.ErrNotFound)

	v, err := s.SaveRun(ctx, newRun("gone"))
	must(t, "SaveRun", err)
	must(t, "DeleteRun", s.DeleteRun(ctx, "gone"))
	_, err = s.AppendRun(ctx, "gone", v, storage.RunRunning, delta(1))
	wantErr(t, "AppendRun to a deleted run", err, storage.ErrNotFound)
}

func testAppendInvalid(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun", err)
	for _, tc := range []struct {
		name    string
		runID   string
		version int64
		delta   json.RawMessage
	}{
		{"an empty run id", "", v, delta(1)},
		{"version 0", "run", 0, delta(1)},
		{"a negative version", "run", -1, delta(1)},
		{"an empty delta", "run", v, nil},
		{"an invalid delta", "run", v, json.RawMessage(`{"op":`)},
	} {
		if _, err := s.AppendRun(ctx, tc.runID, tc.version, storage.RunSuspended, tc.delta); err == nil {
			t.Errorf("AppendRun with %s succeeded", tc.name)
		}
	}
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	want := r
	want.Version = v
	checkRun(t, got, want)
}

func testAppendList(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	want := map[string][]json.RawMessage{}
	for i, id := range []string{"a", "b", "c", "d"} {
		r := newRun(id)
		r.Snapshot = rawf(`{"id":%q}`, id)
		v, err := s.SaveRun(ctx, r)
		must(t, "SaveRun "+id, err)
		for k := range (3 * i) % 5 { // a: 0, b: 3, c: 1, d: 4
			d := rawf(`{"run":%q,"k":%d}`, id, k)
			v = appendAll(t, s, id, v, storage.RunSuspended, d)
			want[id] = append(want[id], d)
		}
		time.Sleep(3 * time.Millisecond)
	}
	check := func(what string, runs []storage.Run) {
		t.Helper()
		for _, r := range runs {
			checkDeltas(t, what+" run "+r.RunID, r.Deltas, want[r.RunID])
			checkJSON(t, what+" run "+r.RunID+" Snapshot", r.Snapshot, rawf(`{"id":%q}`, r.RunID))
		}
	}
	all, total, err := s.ListRuns(ctx, storage.RunFilter{})
	must(t, "ListRuns", err)
	if ids := runIDs(all); !reflect.DeepEqual(ids, []string{"d", "c", "b", "a"}) || total != 4 {
		t.Errorf("ListRuns = %v, total %d; want [d c b a], 4", ids, total)
	}
	check("listed", all)
	page, _, err := s.ListRuns(ctx, storage.RunFilter{Page: 1, PerPage: 2})
	must(t, "ListRuns page 1", err)
	if ids := runIDs(page); !reflect.DeepEqual(ids, []string{"b", "a"}) {
		t.Errorf("ListRuns page 1 = %v, want [b a]", ids)
	}
	check("paged", page)
	for _, id := range []string{"a", "b", "c", "d"} {
		r, err := s.GetRun(ctx, id)
		must(t, "GetRun "+id, err)
		checkDeltas(t, "run "+id, r.Deltas, want[id])
	}
}

func testAppendSaveDrops(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	r := newRun("run")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun", err)
	v = appendAll(t, s, "run", v, storage.RunRunning, delta(1), delta(2))

	// A compaction: the snapshot with the deltas folded in.
	r.Version, r.Status, r.Snapshot = v, storage.RunSuspended, snapshot(3, 500)
	r.Deltas = []json.RawMessage{delta(42)} // ignored by SaveRun
	v, err = s.SaveRun(ctx, r)
	must(t, "SaveRun compaction", err)
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	want := r
	want.Version, want.Deltas = v, nil
	checkRun(t, got, want)

	// Appends go on from the new snapshot.
	v = appendAll(t, s, "run", v, storage.RunRunning, delta(4))
	got, err = s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	want.Version, want.Status, want.Deltas = v, storage.RunRunning, []json.RawMessage{delta(4)}
	checkRun(t, got, want)
}

func testAppendDelete(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	for _, id := range []string{"doomed", "kept"} {
		v, err := s.SaveRun(ctx, newRun(id))
		must(t, "SaveRun "+id, err)
		appendAll(t, s, id, v, storage.RunRunning, delta(1), delta(2))
	}
	must(t, "DeleteRun", s.DeleteRun(ctx, "doomed"))
	_, err := s.GetRun(ctx, "doomed")
	wantErr(t, "GetRun after DeleteRun", err, storage.ErrNotFound)

	// The run created again under the same id has none of the old
	// deltas, and appends the same versions again.
	r := newRun("doomed")
	v, err := s.SaveRun(ctx, r)
	must(t, "SaveRun again", err)
	got, err := s.GetRun(ctx, "doomed")
	must(t, "GetRun", err)
	want := r
	want.Version = v
	checkRun(t, got, want)
	v = appendAll(t, s, "doomed", v, storage.RunSuspended, delta(3))
	got, err = s.GetRun(ctx, "doomed")
	must(t, "GetRun", err)
	want.Version, want.Deltas = v, []json.RawMessage{delta(3)}
	checkRun(t, got, want)

	// The other run keeps its deltas.
	got, err = s.GetRun(ctx, "kept")
	must(t, "GetRun kept", err)
	checkDeltas(t, "kept run", got.Deltas, []json.RawMessage{delta(1), delta(2)})
}

func testAppendMany(t *testing.T, s storage.Runs) {
	// Enough appends that versions need more digits (and bytes): the
	// deltas come back in the order appended, not in a text order.
	ctx := t.Context()
	const n = 130
	v, err := s.SaveRun(ctx, newRun("run"))
	must(t, "SaveRun", err)
	want := make([]json.RawMessage, n)
	for i := range want {
		want[i] = delta(i)
	}
	v = appendAll(t, s, "run", v, storage.RunRunning, want...)
	if v != n+1 {
		t.Errorf("version after %d appends = %d, want %d", n, v, n+1)
	}
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	checkDeltas(t, "run", got.Deltas, want)
}

func testAppendLarge(t *testing.T, s storage.Runs) {
	ctx := t.Context()
	v, err := s.SaveRun(ctx, newRun("run"))
	must(t, "SaveRun", err)
	big := rawf(`{"op":"tool-result","output":%q}`, strings.Repeat("0123456789abcdef", 1<<14)) // 256 KB
	v = appendAll(t, s, "run", v, storage.RunRunning, big, delta(2))
	got, err := s.GetRun(ctx, "run")
	must(t, "GetRun", err)
	if got.Version != v {
		t.Errorf("version %d, want %d", got.Version, v)
	}
	checkDeltas(t, "run", got.Deltas, []json.RawMessage{big, delta(2)})
}
