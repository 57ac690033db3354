package storagetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

var messageTests = []subtest{
	{name: "SaveGet", fn: testMessageSaveGet},
	{name: "GetMissing", fn: testMessageGetMissing},
	{name: "ZeroCreatedAtIsNow", fn: testMessageZeroCreatedAt},
	{name: "ReplaceKeepsCreatedAtAndPlace", fn: testMessageReplace},
	{name: "ListOrderAndLastN", fn: testMessageListOrder},
	{name: "ListAround", fn: testMessagesAround},
	{name: "BatchAllOrNone", fn: testMessageAllOrNone},
	{name: "EmptyBatch", fn: testMessageEmptyBatch},
	{name: "GetMessagesInOrder", fn: testGetMessages},
	{name: "GetMessagesThousands", fn: testGetMessagesMany},
	{name: "DeleteMessages", fn: testDeleteMessages},
}

// msg builds a message of thread "t".
func msg(id string, createdAt time.Time, text string) storage.Message {
	return storage.Message{
		ID: id, ThreadID: "t", ResourceID: "r", Role: "user",
		Content:   rawf(`{"role":"user","content":[{"type":"text","text":%q}]}`, text),
		CreatedAt: createdAt,
	}
}

// checkMessage compares a stored message with the one saved.
func checkMessage(t *testing.T, got *storage.Message, want storage.Message) {
	t.Helper()
	if got == nil {
		t.Fatalf("message %q: nil", want.ID)
	}
	if got.ID != want.ID || got.ThreadID != want.ThreadID || got.ResourceID != want.ResourceID || got.Role != want.Role {
		t.Errorf("message = {ID:%q ThreadID:%q ResourceID:%q Role:%q}, want {ID:%q ThreadID:%q ResourceID:%q Role:%q}",
			got.ID, got.ThreadID, got.ResourceID, got.Role, want.ID, want.ThreadID, want.ResourceID, want.Role)
	}
	checkJSON(t, "message "+want.ID+" Content", got.Content, want.Content)
	checkJSON(t, "message "+want.ID+" Metadata", got.Metadata, want.Metadata)
	checkTime(t, "message "+want.ID+" CreatedAt", got.CreatedAt, want.CreatedAt)
}

func testMessageSaveGet(t *testing.T, s storage.Store) {
	ctx := t.Context()
	m := storage.Message{
		ID: "m1", ThreadID: "t", ResourceID: "r", Role: "assistant",
		Content:   rawf(`{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c1","toolName":"weather","input":{"city":"Paris \u00e9\u0000"}}]}`),
		Metadata:  rawf(`{"suspendedTools":{"weather":{"toolCallId":"c1"}},"pendingToolApprovals":{}}`),
		CreatedAt: at(0),
	}
	must(t, "SaveMessages", s.SaveMessages(ctx, []storage.Message{m}))
	got, err := s.GetMessage(ctx, "m1")
	must(t, "GetMessage", err)
	checkMessage(t, got, m)

	// Without metadata.
	bare := msg("m2", at(1), "hello")
	must(t, "SaveMessages bare", s.SaveMessages(ctx, []storage.Message{bare}))
	got, err = s.GetMessage(ctx, "m2")
	must(t, "GetMessage bare", err)
	checkMessage(t, got, bare)
	if len(got.Metadata) != 0 {
		t.Errorf("Metadata of a message saved without = %s, want empty", got.Metadata)
	}
}

func testMessageGetMissing(t *testing.T, s storage.Store) {
	got, err := s.GetMessage(t.Context(), "nope")
	wantErr(t, "GetMessage missing", err, storage.ErrNotFound)
	if got != nil {
		t.Errorf("GetMessage missing returned %+v", got)
	}
}

func testMessageZeroCreatedAt(t *testing.T, s storage.Store) {
	ctx := t.Context()
	before := time.Now()
	must(t, "SaveMessages", s.SaveMessages(ctx, []storage.Message{msg("m", time.Time{}, "hi")}))
	after := time.Now()
	got, err := s.GetMessage(ctx, "m")
	must(t, "GetMessage", err)
	checkNow(t, "CreatedAt", got.CreatedAt, before, after)
}

func testMessageReplace(t *testing.T, s storage.Store) {
	ctx := t.Context()
	must(t, "SaveMessages", s.SaveMessages(ctx, []storage.Message{msg("m1", at(10), "one"), msg("m2", at(20), "two"), msg("m3", at(30), "three")}))

	// Replace m1: role, content and metadata change; CreatedAt (a later
	// one is given) and the place in the thread are kept.
	repl := storage.Message{
		ID: "m1", ThreadID: "t", ResourceID: "r", Role: "assistant",
		Content: rawf(`{"role":"assistant","content":[{"type":"text","text":"one, edited"}]}`), Metadata: rawf(`{"edited":true}`),
		CreatedAt: at(1000),
	}
	must(t, "SaveMessages replace", s.SaveMessages(ctx, []storage.Message{repl}))
	got, err := s.GetMessage(ctx, "m1")
	must(t, "GetMessage", err)
	want := repl
	want.CreatedAt = at(10)
	checkMessage(t, got, want)

	list, err := s.ListMessages(ctx, "t", 0)
	must(t, "ListMessages", err)
	if ids := messageIDs(list); !reflect.DeepEqual(ids, []string{"m1", "m2", "m3"}) {
		t.Errorf("ListMessages after replace = %v, want [m1 m2 m3]", ids)
	}

	// Replacing with a zero CreatedAt keeps it too; empty metadata
	// replaces the old.
	must(t, "SaveMessages replace zero", s.SaveMessages(ctx, []storage.Message{msg("m1", time.Time{}, "one again")}))
	got, err = s.GetMessage(ctx, "m1")
	must(t, "GetMessage", err)
	checkMessage(t, got, msg("m1", at(10), "one again"))
}

func messageIDs(ms []storage.Message) []string {
	ids := []string{}
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return ids
}

func testMessageListOrder(t *testing.T, s storage.Store) {
	ctx := t.Context()
	// Saved out of CreatedAt order, with ties: a tie keeps the order of
	// first save, within a batch and across batches.
	must(t, "SaveMessages 1", s.SaveMessages(ctx, []storage.Message{msg("d", at(30), "d"), msg("a", at(10), "a")}))
	must(t, "SaveMessages 2", s.SaveMessages(ctx, []storage.Message{msg("tie1", at(20), "t1"), msg("tie2", at(20), "t2")}))
	must(t, "SaveMessages 3", s.SaveMessages(ctx, []storage.Message{msg("tie3", at(20), "t3")}))
	must(t, "SaveMessages 4", s.SaveMessages(ctx, []storage.Message{msg("e", at(40), "e")}))
	// Replacing a tied message does not move it.
	must(t, "SaveMessages 5", s.SaveMessages(ctx, []storage.Message{msg("tie1", at(20), "t1 edited")}))
	// Another thread's messages are not listed.
	other := msg("other", at(25), "other")
	other.ThreadID = "t2"
	must(t, "SaveMessages other", s.SaveMessages(ctx, []storage.Message{other}))

	all := []string{"a", "tie1", "tie2", "tie3", "d", "e"}
	for _, tc := range []struct {
		n    int
		want []string
	}{
		{0, all},
		{-1, all},
		{len(all), all},
		{100, all},
		{1, []string{"e"}},
		{3, []string{"tie3", "d", "e"}},
		{5, []string{"tie1", "tie2", "tie3", "d", "e"}},
	} {
		got, err := s.ListMessages(ctx, "t", tc.n)
		must(t, fmt.Sprintf("ListMessages n=%d", tc.n), err)
		if ids := messageIDs(got); !reflect.DeepEqual(ids, tc.want) {
			t.Errorf("ListMessages(n=%d) = %v, want %v", tc.n, ids, tc.want)
		}
		for _, m := range got {
			if m.ThreadID != "t" {
				t.Errorf("ListMessages returned message %q of thread %q", m.ID, m.ThreadID)
			}
			checkUTC(t, "listed CreatedAt", m.CreatedAt)
			if len(m.Content) == 0 || !json.Valid(m.Content) {
				t.Errorf("listed message %q: Content %q", m.ID, m.Content)
			}
		}
	}
	got, err := s.ListMessages(ctx, "t", 0)
	must(t, "ListMessages", err)
	if len(got) == len(all) {
		checkMessage(t, &got[1], msg("tie1", at(20), "t1 edited"))
	}

	got, err = s.ListMessages(ctx, "nothing-here", 0)
	must(t, "ListMessages empty thread", err)
	if len(got) != 0 {
		t.Errorf("ListMessages of an unknown thread = %v, want none", messageIDs(got))
	}
}

func testMessageAllOrNone(t *testing.T, s storage.Store) {
	ctx := t.Context()
	existing := msg("old", at(0), "original")
	must(t, "SaveMessages", s.SaveMessages(ctx, []storage.Message{existing}))

	noThread := msg("bad", at(3), "x")
	noThread.ThreadID = ""
	noID := msg("", at(3), "x")
	badContent := msg("bad", at(3), "x")
	badContent.Content = json.RawMessage(`{"role":`)
	badMeta := msg("bad", at(3), "x")
	badMeta.Metadata = json.RawMessage(`not json`)

	for name, bad := range map[string]storage.Message{
		"empty ThreadID":   noThread,
		"empty ID":         noID,
		"invalid Content":  badContent,
		"invalid Metadata": badMeta,
	} {
		batch := []storage.Message{
			msg("new1", at(1), "new"),
			msg("old", at(0), "changed"), // a replacement
			bad,
			msg("new2", at(4), "new"),
		}
		if err := s.SaveMessages(ctx, batch); err == nil {
			t.Errorf("SaveMessages with a message with %s succeeded", name)
		}
		got, err := s.ListMessages(ctx, "t", 0)
		must(t, "ListMessages", err)
		if ids := messageIDs(got); !reflect.DeepEqual(ids, []string{"old"}) {
			t.Errorf("after a failed batch (%s), thread holds %v, want [old]", name, ids)
		}
		m, err := s.GetMessage(ctx, "old")
		must(t, "GetMessage", err)
		checkMessage(t, m, existing)
		for _, id := range []string{"new1", "new2", "bad"} {
			_, err := s.GetMessage(ctx, id)
			wantErr(t, "GetMessage "+id+" after a failed batch ("+name+")", err, storage.ErrNotFound)
		}
	}
}

func testMessageEmptyBatch(t *testing.T, s storage.Store) {
	must(t, "SaveMessages(nil)", s.SaveMessages(t.Context(), nil))
	must(t, "SaveMessages(empty)", s.SaveMessages(t.Context(), []storage.Message{}))
}

func testGetMessages(t *testing.T, s storage.Store) {
	ctx := t.Context()
	other := msg("m5", at(50), "five")
	other.ThreadID, other.Metadata = "t2", rawf(`{"pendingToolApprovals":{}}`)
	saved := map[string]storage.Message{"m5": other}
	batch := []storage.Message{other}
	for i := 1; i <= 4; i++ {
		m := msg(fmt.Sprintf("m%d", i), at(10*i), fmt.Sprintf("message %d", i))
		saved[m.ID] = m
		batch = append(batch, m)
	}
	must(t, "SaveMessages", s.SaveMessages(ctx, batch))

	for _, tc := range []struct {
		ids, want []string
	}{
		{[]string{"m4", "m1", "m5", "m2"}, []string{"m4", "m1", "m5", "m2"}},
		{[]string{"nope", "m3", "missing", "m1", ""}, []string{"m3", "m1"}},
		{[]string{"m2", "m2", "m1"}, []string{"m2", "m2", "m1"}},
		{[]string{"nope"}, []string{}},
		{[]string{}, []string{}},
		{nil, []string{}},
	} {
		got, err := s.GetMessages(ctx, tc.ids)
		must(t, fmt.Sprintf("GetMessages(%q)", tc.ids), err)
		if ids := messageIDs(got); !reflect.DeepEqual(ids, tc.want) {
			t.Errorf("GetMessages(%q) = %v, want %v", tc.ids, ids, tc.want)
			continue
		}
		for i := range got {
			checkMessage(t, &got[i], saved[got[i].ID])
		}
	}
}

func testGetMessagesMany(t *testing.T, s storage.Store) {
	ctx := t.Context()
	const n = 2000
	batch := make([]storage.Message, n)
	for i := range batch {
		batch[i] = msg(fmt.Sprintf("m%04d", i), at(i), fmt.Sprintf("message %d", i))
	}
	must(t, "SaveMessages", s.SaveMessages(ctx, batch))

	// All of them, newest first, with a missing id every 100.
	var ids, want []string
	for i := n - 1; i >= 0; i-- {
		if i%100 == 0 {
			ids = append(ids, fmt.Sprintf("missing-%d", i))
		}
		ids = append(ids, batch[i].ID)
		want = append(want, batch[i].ID)
	}
	got, err := s.GetMessages(ctx, ids)
	must(t, "GetMessages", err)
	if gotIDs := messageIDs(got); !reflect.DeepEqual(gotIDs, want) {
		t.Fatalf("GetMessages of %d ids: %d messages, want %d in the order asked", len(ids), len(got), len(want))
	}
	checkMessage(t, &got[0], batch[n-1])
	checkMessage(t, &got[n-1], batch[0])
}

func testDeleteMessages(t *testing.T, s storage.Store) {
	ctx := t.Context()
	must(t, "SaveThread", s.SaveThread(ctx, storage.Thread{ID: "t", ResourceID: "r"}))
	var batch []storage.Message
	for i := 1; i <= 4; i++ {
		batch = append(batch, msg(fmt.Sprintf("m%d", i), at(10*i), fmt.Sprintf("message %d", i)))
	}
	must(t, "SaveMessages", s.SaveMessages(ctx, batch))

	must(t, "DeleteMessages", s.DeleteMessages(ctx, []string{"m3", "nope", "m1"}))
	got, err := s.ListMessages(ctx, "t", 0)
	must(t, "ListMessages", err)
	if ids := messageIDs(got); !reflect.DeepEqual(ids, []string{"m2", "m4"}) {
		t.Errorf("after deleting m1 and m3: %v, want [m2 m4]", ids)
	}
	if _, err := s.GetMessage(ctx, "m3"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("GetMessage(m3) after its delete: %v, want ErrNotFound", err)
	}
	if _, err := s.GetThread(ctx, "t"); err != nil {
		t.Errorf("the thread went with its messages: %v", err)
	}
	must(t, "DeleteMessages(none)", s.DeleteMessages(ctx, nil))
	must(t, "DeleteMessages(missing)", s.DeleteMessages(ctx, []string{"nope"}))
	if got, _ := s.ListMessages(ctx, "t", 0); len(got) != 2 {
		t.Errorf("deleting nothing removed messages: %v", messageIDs(got))
	}
}
