package observational_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model/mock"
)

// Each reflection starts a generation; History returns them newest
// first, filtered by creation time, Offset then Limit applied.
func TestHistoryKeepsGenerations(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	day := 0
	clock := func() time.Time { return time.Date(2026, 1, 2+day, 18, 0, 0, 0, time.UTC) }
	reflection := func(s string) mock.Step {
		return mock.Step{Text: "<observations>\n* 🔴 " + s + "\n</observations>"}
	}
	observer := mock.New(mock.Step{Text: observed}, reflection("generation one"), mock.Step{Text: observed}, reflection("generation two"))
	om := newOM(t, observational.Config{Model: observer, MessageTokens: 200, ObservationTokens: 30, Storage: st, Now: clock})
	if h, err := om.History(ctx, "thread-1", "user-1", observational.HistoryQuery{}); err != nil || len(h) != 0 {
		t.Fatalf("history of no record: %v, %v", h, err)
	}
	if _, ok, err := om.Stored(ctx, "thread-1", "user-1"); ok || err != nil {
		t.Fatalf("Stored before any record: %v, %v", ok, err)
	}
	a := newAgent(t, st, mock.New(mock.Step{Text: "ok"}).RepeatLast(), om)
	for range 2 {
		if _, err := a.Generate(ctx, long, agent.WithMemory("thread-1", "user-1")); err != nil {
			t.Fatal(err)
		}
		day++
	}
	all, err := om.History(ctx, "thread-1", "user-1", observational.HistoryQuery{Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range all {
		first, _, _ := strings.Cut(strings.TrimPrefix(r.ActiveObservations, "* 🔴 "), "\n")
		got = append(got, r.OriginType+"/"+first+"/"+r.CreatedAt.Format("Jan 2"))
	}
	// A generation ends holding what was observed into it after it began.
	want := "reflection/generation two/Jan 3 | reflection/generation one/Jan 2 | initial/Date: Jan 2, 2026/Jan 2"
	if g := strings.Join(got, " | "); g != want || len(all) != 3 || all[0].GenerationCount != 2 || all[2].GenerationCount != 0 {
		t.Fatalf("generations %q, want %q", g, want)
	}
	if all[0].ID == all[1].ID || all[1].ID == all[2].ID {
		t.Errorf("generations share ids: %s %s %s", all[0].ID, all[1].ID, all[2].ID)
	}
	if cur, ok, err := om.Stored(ctx, "thread-1", "user-1"); !ok || err != nil || cur.ID != all[0].ID {
		t.Errorf("Stored = %s, %v, %v; want the newest generation %s", cur.ID, ok, err, all[0].ID)
	}
	jan2 := time.Date(2026, 1, 2, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		q    observational.HistoryQuery
		want []int // indexes into all
	}{
		{"default limit", observational.HistoryQuery{}, []int{0, 1, 2}},
		{"limit", observational.HistoryQuery{Limit: 1}, []int{0}},
		{"offset", observational.HistoryQuery{Offset: 1, Limit: 1}, []int{1}},
		{"from", observational.HistoryQuery{From: &jan2}, []int{0, 1, 2}},
		{"to", observational.HistoryQuery{To: &jan2}, []int{1, 2}},
		{"past the end", observational.HistoryQuery{Offset: 5}, nil},
	} {
		h, err := om.History(ctx, "thread-1", "user-1", c.q)
		if err != nil {
			t.Fatal(err)
		}
		var ids, wantIDs []string
		for _, r := range h {
			ids = append(ids, r.ID)
		}
		for _, i := range c.want {
			wantIDs = append(wantIDs, all[i].ID)
		}
		if strings.Join(ids, ",") != strings.Join(wantIDs, ",") {
			t.Errorf("%s: %v, want %v", c.name, ids, wantIDs)
		}
	}
}

// Settings are Mastra's /memory/config observationalMemory.
func TestSettings(t *testing.T) {
	om := newOM(t, observational.Config{Model: mock.New().WithID("openai", "gpt-4o-mini"), Storage: openStore(t), Scope: observational.ScopeResource})
	b, err := json.Marshal(om.Settings())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"enabled":true,"scope":"resource","messageTokens":30000,"observationTokens":40000,"observationModel":"openai/gpt-4o-mini","reflectionModel":"openai/gpt-4o-mini"}`
	if string(b) != want {
		t.Errorf("settings %s\nwant %s", b, want)
	}
}

// A record's JSON has Mastra's field names, threadId null in resource
// scope; a record stored by an earlier version reads as it was.
func TestRecordJSON(t *testing.T) {
	ctx := context.Background()
	om := newOM(t, observational.Config{Model: mock.New(), Storage: openStore(t), Scope: observational.ScopeResource})
	rec, err := om.Load(ctx, "thread-1", "user-1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "scope", "threadId", "resourceId", "activeObservations", "originType", "generationCount",
		"totalTokensObserved", "observationTokenCount", "pendingMessageTokens", "isObserving", "isReflecting",
		"isBufferingObservation", "isBufferingReflection", "config", "createdAt", "updatedAt"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %s in %s", k, b)
		}
	}
	if m["threadId"] != nil || m["originType"] != "initial" || m["config"].(map[string]any)["scope"] != "resource" ||
		m["config"].(map[string]any)["observation"].(map[string]any)["messageTokens"] != 30000.0 {
		t.Errorf("record %s", b)
	}
	old := `{"id":"thread:t1","scope":"thread","threadId":"t1","originType":"reflection","generationCount":1,"activeObservations":"* x","observationTokenCount":3,"totalTokensObserved":300,"observedMessageIds":["m1"],"threads":{"t1":{"currentTask":"c"}},"createdAt":"2026-01-02T00:00:00Z","updatedAt":"2026-01-02T00:00:00Z"}`
	var r observational.Record
	if err := json.Unmarshal([]byte(old), &r); err != nil {
		t.Fatal(err)
	}
	if r.ThreadID != "t1" || r.OriginType != "reflection" || r.ObservedMessageIDs[0] != "m1" || r.Threads["t1"].CurrentTask != "c" {
		t.Errorf("old record read as %+v", r)
	}
	st := openStore(t)
	if err := st.SetThreadState(ctx, "t1", observational.StateType, []byte(old)); err != nil {
		t.Fatal(err)
	}
	om = newOM(t, observational.Config{Model: mock.New(), Storage: st})
	if r, err = om.Load(ctx, "t1", "u1"); err != nil || r.Config == nil || r.ResourceID != "u1" || r.ActiveObservations != "* x" {
		t.Errorf("old record loaded as %+v, %v", r, err)
	}
}
