package storagetest

import (
	"testing"

	"github.com/gomastra/mastra/storage"
)

var stateTests = []subtest{
	{name: "GetUnset", fn: testStateUnset},
	{name: "SetGetReplace", fn: testStateSetReplace},
	{name: "Independent", fn: testStateIndependent},
	{name: "InvalidJSON", fn: testStateInvalid},
}

func testStateUnset(t *testing.T, s storage.Store) {
	v, ok, err := s.GetThreadState(t.Context(), "t", "task")
	must(t, "GetThreadState", err)
	if ok || v != nil {
		t.Errorf("GetThreadState of nothing = %s, %v; want nil, false", v, ok)
	}
}

func testStateSetReplace(t *testing.T, s storage.Store) {
	ctx := t.Context()
	first := rawf(`[{"id":"1","content":"write tests","status":"pending"}]`)
	must(t, "SetThreadState", s.SetThreadState(ctx, "t", "task", first))
	v, ok, err := s.GetThreadState(ctx, "t", "task")
	must(t, "GetThreadState", err)
	if !ok {
		t.Fatal("GetThreadState after Set: ok = false")
	}
	checkJSON(t, "state", v, first)

	second := rawf(`[{"id":"1","content":"write tests","status":"completed"},{"id":"2","content":"ship","status":"in_progress"}]`)
	must(t, "SetThreadState replace", s.SetThreadState(ctx, "t", "task", second))
	v, ok, err = s.GetThreadState(ctx, "t", "task")
	must(t, "GetThreadState", err)
	if !ok {
		t.Fatal("GetThreadState after replace: ok = false")
	}
	checkJSON(t, "replaced state", v, second)
}

func testStateIndependent(t *testing.T, s storage.Store) {
	ctx := t.Context()
	must(t, "SetThreadState", s.SetThreadState(ctx, "t1", "task", rawf(`"t1 task"`)))
	must(t, "SetThreadState", s.SetThreadState(ctx, "t1", "notes", rawf(`"t1 notes"`)))
	must(t, "SetThreadState", s.SetThreadState(ctx, "t2", "task", rawf(`"t2 task"`)))
	for _, tc := range []struct{ thread, typ, want string }{
		{"t1", "task", `"t1 task"`},
		{"t1", "notes", `"t1 notes"`},
		{"t2", "task", `"t2 task"`},
	} {
		v, ok, err := s.GetThreadState(ctx, tc.thread, tc.typ)
		must(t, "GetThreadState", err)
		if !ok {
			t.Errorf("GetThreadState(%s, %s): ok = false", tc.thread, tc.typ)
			continue
		}
		checkJSON(t, "state "+tc.thread+"/"+tc.typ, v, []byte(tc.want))
	}
	if _, ok, err := s.GetThreadState(ctx, "t2", "notes"); err != nil || ok {
		t.Errorf("GetThreadState(t2, notes) = ok %v, err %v; want unset", ok, err)
	}
}

func testStateInvalid(t *testing.T, s storage.Store) {
	ctx := t.Context()
	must(t, "SetThreadState", s.SetThreadState(ctx, "t", "task", rawf(`[1]`)))
	if err := s.SetThreadState(ctx, "t", "task", rawf(`[1,`)); err == nil {
		t.Error("SetThreadState with invalid JSON succeeded")
	}
	v, _, err := s.GetThreadState(ctx, "t", "task")
	must(t, "GetThreadState", err)
	checkJSON(t, "state after a failed Set", v, rawf(`[1]`))
}
