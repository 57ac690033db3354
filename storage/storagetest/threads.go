package storagetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

var threadTests = []subtest{
	{name: "SaveGet", fn: testThreadSaveGet},
	{name: "ZeroTimesAreNow", fn: testThreadZeroTimes},
	{name: "Replace", fn: testThreadReplace},
	{name: "GetMissing", fn: testThreadGetMissing},
	{name: "ListNewestFirst", fn: testThreadList},
	{name: "DeleteCascades", fn: testThreadDelete},
	{name: "EmptyID", fn: testThreadEmptyID},
}

// checkThread compares a stored thread with the one saved.
func checkThread(t *testing.T, got *storage.Thread, want storage.Thread) {
	t.Helper()
	if got == nil {
		t.Fatalf("thread %q: nil", want.ID)
	}
	if got.ID != want.ID || got.ResourceID != want.ResourceID || got.Title != want.Title {
		t.Errorf("thread = {ID:%q ResourceID:%q Title:%q}, want {ID:%q ResourceID:%q Title:%q}",
			got.ID, got.ResourceID, got.Title, want.ID, want.ResourceID, want.Title)
	}
	if len(got.Metadata) != 0 || len(want.Metadata) != 0 {
		if !reflect.DeepEqual(got.Metadata, want.Metadata) {
			t.Errorf("thread %q: Metadata = %#v, want %#v", want.ID, got.Metadata, want.Metadata)
		}
	}
	checkTime(t, "thread "+want.ID+" CreatedAt", got.CreatedAt, want.CreatedAt)
	checkTime(t, "thread "+want.ID+" UpdatedAt", got.UpdatedAt, want.UpdatedAt)
}

func testThreadSaveGet(t *testing.T, s storage.Store) {
	ctx := t.Context()
	th := storage.Thread{
		ID: "thread-1", ResourceID: "user-1", Title: "Weather in Paris",
		Metadata:  map[string]any{"topic": "weather", "n": float64(3), "tags": []any{"a", "b"}, "nested": map[string]any{"ok": true}},
		CreatedAt: at(0), UpdatedAt: at(5),
	}
	must(t, "SaveThread", s.SaveThread(ctx, th))
	got, err := s.GetThread(ctx, "thread-1")
	must(t, "GetThread", err)
	checkThread(t, got, th)

	// A thread without title or metadata.
	bare := storage.Thread{ID: "thread-2", ResourceID: "user-1", CreatedAt: at(1), UpdatedAt: at(1)}
	must(t, "SaveThread bare", s.SaveThread(ctx, bare))
	got, err = s.GetThread(ctx, "thread-2")
	must(t, "GetThread bare", err)
	checkThread(t, got, bare)
}

func testThreadZeroTimes(t *testing.T, s storage.Store) {
	ctx := t.Context()
	before := time.Now()
	must(t, "SaveThread", s.SaveThread(ctx, storage.Thread{ID: "t", ResourceID: "r"}))
	after := time.Now()
	got, err := s.GetThread(ctx, "t")
	must(t, "GetThread", err)
	checkNow(t, "CreatedAt", got.CreatedAt, before, after)
	checkNow(t, "UpdatedAt", got.UpdatedAt, before, after)
}

func testThreadReplace(t *testing.T, s storage.Store) {
	ctx := t.Context()
	first := storage.Thread{ID: "t", ResourceID: "r", Title: "old", Metadata: map[string]any{"v": "1", "gone": "x"}, CreatedAt: at(0), UpdatedAt: at(0)}
	must(t, "SaveThread", s.SaveThread(ctx, first))

	// Replace: title and metadata change, CreatedAt is kept even when
	// another one is given.
	second := storage.Thread{ID: "t", ResourceID: "r", Title: "new", Metadata: map[string]any{"v": "2"}, CreatedAt: at(1000), UpdatedAt: at(2000)}
	must(t, "SaveThread replace", s.SaveThread(ctx, second))
	got, err := s.GetThread(ctx, "t")
	must(t, "GetThread", err)
	want := second
	want.CreatedAt = first.CreatedAt
	checkThread(t, got, want)

	// Replace with a zero CreatedAt and UpdatedAt: CreatedAt kept,
	// UpdatedAt now; an empty title and nil metadata replace too.
	before := time.Now()
	must(t, "SaveThread replace zero", s.SaveThread(ctx, storage.Thread{ID: "t", ResourceID: "r"}))
	after := time.Now()
	got, err = s.GetThread(ctx, "t")
	must(t, "GetThread", err)
	if got.Title != "" || len(got.Metadata) != 0 {
		t.Errorf("after replace with empty title and metadata: Title %q, Metadata %v", got.Title, got.Metadata)
	}
	checkTime(t, "CreatedAt", got.CreatedAt, first.CreatedAt)
	checkNow(t, "UpdatedAt", got.UpdatedAt, before, after)

	threads, err := s.ListThreads(ctx, "r")
	must(t, "ListThreads", err)
	if len(threads) != 1 {
		t.Errorf("ListThreads after replace: %d threads, want 1", len(threads))
	}
}

func testThreadGetMissing(t *testing.T, s storage.Store) {
	got, err := s.GetThread(t.Context(), "nope")
	wantErr(t, "GetThread missing", err, storage.ErrNotFound)
	if got != nil {
		t.Errorf("GetThread missing returned %+v", got)
	}
}

func testThreadList(t *testing.T, s storage.Store) {
	ctx := t.Context()
	// Saved out of CreatedAt order; ListThreads sorts by CreatedAt.
	for _, th := range []storage.Thread{
		{ID: "b", ResourceID: "r1", Title: "b", CreatedAt: at(20), UpdatedAt: at(20)},
		{ID: "a", ResourceID: "r1", Title: "a", CreatedAt: at(10), UpdatedAt: at(90)},
		{ID: "c", ResourceID: "r1", Title: "c", CreatedAt: at(30), UpdatedAt: at(30)},
		{ID: "x", ResourceID: "r2", Title: "x", CreatedAt: at(40), UpdatedAt: at(40)},
	} {
		must(t, "SaveThread "+th.ID, s.SaveThread(ctx, th))
	}
	got, err := s.ListThreads(ctx, "r1")
	must(t, "ListThreads r1", err)
	if ids := threadIDs(got); !reflect.DeepEqual(ids, []string{"c", "b", "a"}) {
		t.Errorf("ListThreads r1 = %v, want [c b a] (newest CreatedAt first)", ids)
	}
	for _, th := range got {
		if th.ResourceID != "r1" {
			t.Errorf("ListThreads r1 returned thread %q of %q", th.ID, th.ResourceID)
		}
		checkUTC(t, "listed CreatedAt", th.CreatedAt)
		checkUTC(t, "listed UpdatedAt", th.UpdatedAt)
	}
	got, err = s.ListThreads(ctx, "r2")
	must(t, "ListThreads r2", err)
	if ids := threadIDs(got); !reflect.DeepEqual(ids, []string{"x"}) {
		t.Errorf("ListThreads r2 = %v, want [x]", ids)
	}
	got, err = s.ListThreads(ctx, "")
	must(t, "ListThreads all", err)
	if ids := threadIDs(got); !reflect.DeepEqual(ids, []string{"x", "c", "b", "a"}) {
		t.Errorf("ListThreads \"\" = %v, want every thread, [x c b a]", ids)
	}
	got, err = s.ListThreads(ctx, "nobody")
	must(t, "ListThreads nobody", err)
	if len(got) != 0 {
		t.Errorf("ListThreads nobody = %v, want none", threadIDs(got))
	}
}

func threadIDs(ts []storage.Thread) []string {
	ids := []string{}
	for _, th := range ts {
		ids = append(ids, th.ID)
	}
	return ids
}

func testThreadDelete(t *testing.T, s storage.Store) {
	ctx := t.Context()
	for _, id := range []string{"doomed", "kept"} {
		must(t, "SaveThread", s.SaveThread(ctx, storage.Thread{ID: id, ResourceID: "r", CreatedAt: at(0), UpdatedAt: at(0)}))
		must(t, "SaveMessages", s.SaveMessages(ctx, []storage.Message{
			{ID: id + "-m1", ThreadID: id, ResourceID: "r", Role: "user", Content: rawf(`{"role":"user","content":[]}`), CreatedAt: at(1)},
			{ID: id + "-m2", ThreadID: id, ResourceID: "r", Role: "assistant", Content: rawf(`{"role":"assistant","content":[]}`), CreatedAt: at(2)},
		}))
		must(t, "SetThreadState", s.SetThreadState(ctx, id, "task", rawf(`[{"id":"1"}]`)))
		must(t, "SetThreadState", s.SetThreadState(ctx, id, "other", rawf(`{}`)))
	}

	must(t, "DeleteThread", s.DeleteThread(ctx, "doomed"))

	_, err := s.GetThread(ctx, "doomed")
	wantErr(t, "GetThread after delete", err, storage.ErrNotFound)
	msgs, err := s.ListMessages(ctx, "doomed", 0)
	must(t, "ListMessages after delete", err)
	if len(msgs) != 0 {
		t.Errorf("ListMessages after DeleteThread: %d messages, want 0", len(msgs))
	}
	_, err = s.GetMessage(ctx, "doomed-m1")
	wantErr(t, "GetMessage after delete", err, storage.ErrNotFound)
	for _, typ := range []string{"task", "other"} {
		_, ok, err := s.GetThreadState(ctx, "doomed", typ)
		must(t, "GetThreadState after delete", err)
		if ok {
			t.Errorf("thread state %q survived DeleteThread", typ)
		}
	}

	// The other thread is untouched.
	if _, err := s.GetThread(ctx, "kept"); err != nil {
		t.Errorf("GetThread kept: %v", err)
	}
	msgs, err = s.ListMessages(ctx, "kept", 0)
	must(t, "ListMessages kept", err)
	if len(msgs) != 2 {
		t.Errorf("ListMessages kept: %d messages, want 2", len(msgs))
	}
	if _, ok, err := s.GetThreadState(ctx, "kept", "task"); err != nil || !ok {
		t.Errorf("GetThreadState kept: ok %v, err %v", ok, err)
	}

	// Deleting what is not there succeeds.
	must(t, "DeleteThread again", s.DeleteThread(ctx, "doomed"))
	must(t, "DeleteThread never saved", s.DeleteThread(ctx, "never"))
}

func testThreadEmptyID(t *testing.T, s storage.Store) {
	ctx := t.Context()
	if err := s.SaveThread(ctx, storage.Thread{ResourceID: "r", Title: "no id"}); err == nil {
		t.Error("SaveThread with an empty ID succeeded")
	}
	got, err := s.ListThreads(ctx, "r")
	must(t, "ListThreads", err)
	if len(got) != 0 {
		t.Errorf("a thread with an empty ID was stored: %v", threadIDs(got))
	}
}
