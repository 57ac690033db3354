package storagetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

var resourceTests = []subtest{
	{name: "SaveGetReplace", fn: testResourceSaveGetReplace},
	{name: "GetMissing", fn: testResourceGetMissing},
	{name: "EmptyID", fn: testResourceEmptyID},
}

// testResourceSaveGetReplace: a resource reads back as saved; a second
// save replaces its working memory and metadata, keeps CreatedAt, and
// sets a zero UpdatedAt to now.
func testResourceSaveGetReplace(t *testing.T, s storage.Store) {
	ctx := t.Context()
	first := storage.Resource{ID: "user-1", WorkingMemory: "# User\n- Name: Ada\n",
		Metadata: map[string]any{"plan": "pro", "n": float64(2)}, CreatedAt: at(0), UpdatedAt: at(5)}
	must(t, "SaveResource", s.SaveResource(ctx, first))
	got, err := s.GetResource(ctx, "user-1")
	must(t, "GetResource", err)
	checkResource(t, got, first)

	before := time.Now()
	must(t, "SaveResource replace", s.SaveResource(ctx, storage.Resource{ID: "user-1", WorkingMemory: `{"name":"Ada"}`, CreatedAt: at(1000)}))
	after := time.Now()
	got, err = s.GetResource(ctx, "user-1")
	must(t, "GetResource", err)
	if got.WorkingMemory != `{"name":"Ada"}` || len(got.Metadata) != 0 {
		t.Errorf("after replace: WorkingMemory %q, Metadata %v", got.WorkingMemory, got.Metadata)
	}
	checkTime(t, "CreatedAt", got.CreatedAt, first.CreatedAt)
	checkNow(t, "UpdatedAt", got.UpdatedAt, before, after)
}

func testResourceGetMissing(t *testing.T, s storage.Store) {
	got, err := s.GetResource(t.Context(), "nobody")
	wantErr(t, "GetResource missing", err, storage.ErrNotFound)
	if got != nil {
		t.Errorf("GetResource missing returned %+v", got)
	}
}

func testResourceEmptyID(t *testing.T, s storage.Store) {
	if err := s.SaveResource(t.Context(), storage.Resource{WorkingMemory: "x"}); err == nil {
		t.Error("SaveResource with an empty id: no error")
	}
}

// checkResource compares a stored resource with the one saved.
func checkResource(t *testing.T, got *storage.Resource, want storage.Resource) {
	t.Helper()
	if got == nil {
		t.Fatalf("resource %q: nil", want.ID)
	}
	if got.ID != want.ID || got.WorkingMemory != want.WorkingMemory {
		t.Errorf("resource = {ID:%q WorkingMemory:%q}, want {ID:%q WorkingMemory:%q}", got.ID, got.WorkingMemory, want.ID, want.WorkingMemory)
	}
	if !reflect.DeepEqual(got.Metadata, want.Metadata) {
		t.Errorf("resource %q: Metadata = %#v, want %#v", want.ID, got.Metadata, want.Metadata)
	}
	checkTime(t, "resource "+want.ID+" CreatedAt", got.CreatedAt, want.CreatedAt)
	checkTime(t, "resource "+want.ID+" UpdatedAt", got.UpdatedAt, want.UpdatedAt)
}
