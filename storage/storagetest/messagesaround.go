package storagetest

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gomastra/mastra/storage"
)

func testMessagesAround(t *testing.T, s storage.Store) {
	ctx := t.Context()
	// The thread's order (as testMessageListOrder's): a, tie1, tie2,
	// tie3, d, e; saved out of order, with ties kept in order of save.
	must(t, "SaveMessages 1", s.SaveMessages(ctx, []storage.Message{msg("d", at(30), "d"), msg("a", at(10), "a")}))
	must(t, "SaveMessages 2", s.SaveMessages(ctx, []storage.Message{msg("tie1", at(20), "t1"), msg("tie2", at(20), "t2")}))
	must(t, "SaveMessages 3", s.SaveMessages(ctx, []storage.Message{msg("tie3", at(20), "t3"), msg("e", at(40), "e")}))
	other := msg("other", at(25), "other")
	other.ThreadID = "t2"
	must(t, "SaveMessages other", s.SaveMessages(ctx, []storage.Message{other}))

	for _, tc := range []struct {
		id            string
		before, after int
		want          []string
	}{
		{"tie2", 1, 1, []string{"tie1", "tie2", "tie3"}},
		{"tie2", 2, 2, []string{"a", "tie1", "tie2", "tie3", "d"}},
		{"tie2", 0, 0, []string{"tie2"}},
		{"tie2", -1, -3, []string{"tie2"}},
		{"tie1", 1, 0, []string{"a", "tie1"}},
		{"tie3", 0, 1, []string{"tie3", "d"}},
		{"a", 5, 1, []string{"a", "tie1"}},
		{"e", 2, 5, []string{"tie3", "d", "e"}},
		{"d", 100, 100, []string{"a", "tie1", "tie2", "tie3", "d", "e"}},
	} {
		got, err := s.ListMessagesAround(ctx, "t", tc.id, tc.before, tc.after)
		must(t, fmt.Sprintf("ListMessagesAround(%s, %d, %d)", tc.id, tc.before, tc.after), err)
		if ids := messageIDs(got); !reflect.DeepEqual(ids, tc.want) {
			t.Errorf("ListMessagesAround(%s, %d, %d) = %v, want %v", tc.id, tc.before, tc.after, ids, tc.want)
		}
	}
	got, err := s.ListMessagesAround(ctx, "t", "tie1", 0, 0)
	must(t, "ListMessagesAround tie1", err)
	if len(got) == 1 {
		checkMessage(t, &got[0], msg("tie1", at(20), "t1"))
	}
	for _, c := range []struct{ thread, id string }{{"t", "missing"}, {"t", "other"}, {"t2", "tie1"}, {"nothing-here", "a"}} {
		got, err := s.ListMessagesAround(ctx, c.thread, c.id, 1, 1)
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("ListMessagesAround(%s, %s) = %v, %v; want ErrNotFound", c.thread, c.id, messageIDs(got), err)
		}
	}
}
