package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

var databaseErrorTests = []subtest{
	{name: "ClosedStore", fn: testClosedStore},
}

// testClosedStore: every call on a closed store fails with a
// *storage.DatabaseError, whose text is generic ("storage: <op>
// failed") and whose detail (storage.ErrorDetail) is the backend's.
func testClosedStore(t *testing.T, s storage.Store) {
	ctx := context.Background()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	msg := storage.Message{ID: "m1", ThreadID: "t1", ResourceID: "r1", Role: "user", Content: json.RawMessage(`{}`)}
	run := storage.Run{RunID: "run1", Kind: storage.KindAgent, Name: "a", Status: storage.RunRunning, Snapshot: json.RawMessage(`{}`)}
	calls := []struct {
		name string
		err  error
	}{
		{"SaveThread", s.SaveThread(ctx, storage.Thread{ID: "t1", ResourceID: "r1"})},
		{"GetThread", second(s.GetThread(ctx, "t1"))},
		{"ListThreads", second(s.ListThreads(ctx, "r1"))},
		{"DeleteThread", s.DeleteThread(ctx, "t1")},
		{"SaveMessages", s.SaveMessages(ctx, []storage.Message{msg})},
		{"ListMessages", second(s.ListMessages(ctx, "t1", 0))},
		{"ListMessagesAround", second(s.ListMessagesAround(ctx, "t1", "m1", 1, 1))},
		{"GetMessage", second(s.GetMessage(ctx, "m1"))},
		{"GetMessages", second(s.GetMessages(ctx, []string{"m1"}))},
		{"GetThreadState", third(s.GetThreadState(ctx, "t1", "task"))},
		{"SetThreadState", s.SetThreadState(ctx, "t1", "task", json.RawMessage(`[]`))},
		{"SaveRun", second(s.SaveRun(ctx, run))},
		{"AppendRun", second(s.AppendRun(ctx, "run1", 1, storage.RunRunning, json.RawMessage(`{}`)))},
		{"GetRun", second(s.GetRun(ctx, "run1"))},
		{"ListRuns", third(s.ListRuns(ctx, storage.RunFilter{}))},
		{"DeleteRun", s.DeleteRun(ctx, "run1")},
		{"DeleteFinishedRuns", second(s.DeleteFinishedRuns(ctx, storage.FinishedRuns{Kind: storage.KindWorkflow, Before: time.Now()}))},
		{"ClaimResume", s.ClaimResume(ctx, "run1", "", "me")},
	}
	for _, c := range calls {
		var de *storage.DatabaseError
		switch {
		case !errors.As(c.err, &de):
			t.Errorf("%s on a closed store: %v (%T), want a *storage.DatabaseError", c.name, c.err, c.err)
		case c.err.Error() != de.Error() || de.Op == "" || !strings.HasPrefix(de.Error(), "storage: ") || !strings.HasSuffix(de.Error(), " failed"):
			t.Errorf("%s on a closed store: text %q, want the generic \"storage: <op> failed\"", c.name, c.err)
		case errors.Is(c.err, storage.ErrNotFound) || errors.Is(c.err, storage.ErrConflict):
			t.Errorf("%s on a closed store: %v wraps a sentinel", c.name, c.err)
		case storage.ErrorDetail(c.err) == c.err.Error():
			t.Errorf("%s on a closed store: no detail beyond %q", c.name, c.err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func third[T, U any](_ T, _ U, err error) error { return err }
