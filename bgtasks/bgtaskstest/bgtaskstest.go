// Package bgtaskstest is the conformance suite of bgtasks.Store: every
// store runs it from its tests.
//
//	func TestTasks(t *testing.T) {
//		bgtaskstest.Run(t, func(t *testing.T) bgtasks.Store { return open(t) })
//	}
package bgtaskstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/storage"
)

// Run checks every contract of bgtasks.Store on fresh stores open
// returns.
func Run(t *testing.T, open func(t *testing.T) bgtasks.Store) {
	t.Run("CreateGet", func(t *testing.T) { testCreateGet(t, open(t)) })
	t.Run("UpdateVersion", func(t *testing.T) { testUpdateVersion(t, open(t)) })
	t.Run("ListFilters", func(t *testing.T) { testListFilters(t, open(t)) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, open(t)) })
	t.Run("ClaimLimits", func(t *testing.T) { testClaimLimits(t, open(t)) })
	t.Run("ClaimIDsAndNotBefore", func(t *testing.T) { testClaimIDs(t, open(t)) })
	t.Run("ClaimConcurrent", func(t *testing.T) { testClaimConcurrent(t, open(t)) })
	t.Run("ClaimPastFullAgent", func(t *testing.T) { testClaimPastFullAgent(t, open(t)) })
	t.Run("RenewLeases", func(t *testing.T) { testRenew(t, open(t)) })
}

var base = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// task is a Pending task of agent created ms after base.
func task(id, agent string, ms int) bgtasks.Task {
	return bgtasks.Task{
		ID: id, Status: bgtasks.Pending, ToolName: "tool", ToolCallID: "call-" + id,
		Args: json.RawMessage(`{"n":1}`), AgentID: agent, RunID: "run-" + agent,
		CreatedAt: base.Add(time.Duration(ms) * time.Millisecond), MaxRetries: 1, Timeout: 5 * time.Second,
	}
}

func create(t *testing.T, s bgtasks.Store, tasks ...bgtasks.Task) {
	t.Helper()
	for _, tk := range tasks {
		if err := s.CreateTask(context.Background(), tk); err != nil {
			t.Fatalf("CreateTask %s: %v", tk.ID, err)
		}
	}
}

func get(t *testing.T, s bgtasks.Store, id string) bgtasks.Task {
	t.Helper()
	got, err := s.GetTask(context.Background(), id)
	if err != nil {
		t.Fatalf("GetTask %s: %v", id, err)
	}
	return got
}

func testCreateGet(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	in := task("t1", "a", 0)
	in.ThreadID, in.ResourceID, in.Producer = "th", "res", "m0"
	create(t, s, in)
	got := get(t, s, "t1")
	if got.Producer != "m0" {
		t.Errorf("Producer = %q, want m0", got.Producer)
	}
	if got.Version != 1 {
		t.Errorf("Version = %d, want 1", got.Version)
	}
	in.Version = 1
	if a, b := mustJSON(t, got), mustJSON(t, in); a != b || !got.CreatedAt.Equal(in.CreatedAt) || got.Timeout != in.Timeout {
		t.Errorf("GetTask = %s, want %s", a, b)
	}
	if err := s.CreateTask(ctx, in); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("CreateTask twice: %v, want ErrConflict", err)
	}
	if _, err := s.GetTask(ctx, "nope"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("GetTask unknown: %v, want ErrNotFound", err)
	}
	if err := s.CreateTask(ctx, bgtasks.Task{Status: bgtasks.Pending}); err == nil {
		t.Errorf("CreateTask without an id succeeded")
	}
}

func testUpdateVersion(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	create(t, s, task("t1", "a", 0))
	cur := get(t, s, "t1")
	next := cur
	next.Status, next.Result = bgtasks.Completed, json.RawMessage(`{"ok":true}`)
	next.CompletedAt = base.Add(time.Second)
	next.Error = &bgtasks.TaskError{Message: "m"}
	next.SuspendPayload, next.ResumeData = json.RawMessage(`1`), json.RawMessage(`"r"`)
	next.RetryCount, next.NotBefore = 1, base.Add(2*time.Second)
	next.ToolName, next.Producer = "changed", "other" // identity never changes
	stored, err := s.UpdateTask(ctx, next)
	if err != nil {
		t.Fatalf("UpdateTask: %v", err)
	}
	if stored.Version != 2 || stored.ToolName != "tool" || stored.Producer != "" {
		t.Errorf("UpdateTask = version %d tool %q, want 2 and %q", stored.Version, stored.ToolName, "tool")
	}
	got := get(t, s, "t1")
	if got.Status != bgtasks.Completed || string(got.Result) != `{"ok":true}` || got.Error == nil || got.Error.Message != "m" ||
		string(got.ResumeData) != `"r"` || got.RetryCount != 1 || !got.NotBefore.Equal(next.NotBefore) || !got.CompletedAt.Equal(next.CompletedAt) {
		t.Errorf("after UpdateTask: %+v", got)
	}
	if _, err := s.UpdateTask(ctx, cur); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("UpdateTask over an old version: %v, want ErrConflict", err)
	}
	if _, err := s.UpdateTask(ctx, task("nope", "a", 0)); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("UpdateTask unknown: %v, want ErrNotFound", err)
	}
}

func testListFilters(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	a, b, c := task("t1", "a", 0), task("t2", "b", 10), task("t3", "a", 20)
	c.ThreadID, c.ResourceID, c.ToolName = "th", "res", "other"
	create(t, s, c, a, b)
	done := get(t, s, "t2")
	done.Status, done.CompletedAt = bgtasks.Completed, base.Add(time.Minute)
	if _, err := s.UpdateTask(ctx, done); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		f    bgtasks.Filter
		want string
	}{
		{bgtasks.Filter{}, "t1 t2 t3"},
		{bgtasks.Filter{Descending: true}, "t3 t2 t1"},
		{bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Pending}}, "t1 t3"},
		{bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Completed, bgtasks.Failed}}, "t2"},
		{bgtasks.Filter{AgentID: "a"}, "t1 t3"},
		{bgtasks.Filter{ThreadID: "th", ResourceID: "res", ToolName: "other", RunID: "run-a"}, "t3"},
		{bgtasks.Filter{FromDate: base.Add(10 * time.Millisecond)}, "t2 t3"},
		{bgtasks.Filter{ToDate: base.Add(10 * time.Millisecond)}, "t1"},
		{bgtasks.Filter{DateFilterBy: bgtasks.ByCompletedAt, FromDate: base}, "t2"},
		{bgtasks.Filter{PerPage: 2}, "t1 t2"},
		{bgtasks.Filter{Page: 1, PerPage: 2}, "t3"},
		{bgtasks.Filter{OrderBy: bgtasks.ByCompletedAt, Descending: true}, "t2 t3 t1"},
	}
	for _, tc := range cases {
		got, total, err := s.ListTasks(ctx, tc.f)
		if err != nil {
			t.Fatalf("ListTasks(%+v): %v", tc.f, err)
		}
		if ids(got) != tc.want {
			t.Errorf("ListTasks(%+v) = %s, want %s", tc.f, ids(got), tc.want)
		}
		if tc.f.PerPage == 0 && total != len(got) || tc.f.PerPage > 0 && total != 3 {
			t.Errorf("ListTasks(%+v) total = %d", tc.f, total)
		}
	}
}

func testDelete(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	create(t, s, task("t1", "a", 0), task("t2", "a", 10), task("t3", "b", 20))
	n, err := s.DeleteTasks(ctx, bgtasks.Filter{AgentID: "a", PerPage: 1})
	if err != nil || n != 2 {
		t.Fatalf("DeleteTasks = %d, %v; want 2 (paging ignored)", n, err)
	}
	if err := s.DeleteTask(ctx, "t3"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTask(ctx, "t3"); err != nil {
		t.Errorf("DeleteTask of a missing task: %v", err)
	}
	if got, _, _ := s.ListTasks(ctx, bgtasks.Filter{}); len(got) != 0 {
		t.Errorf("left %s", ids(got))
	}
}

func claimOf(owner string) bgtasks.Claim {
	return bgtasks.Claim{Owner: owner, LeaseUntil: time.Now().Add(time.Minute), Global: 3, PerAgent: 2}
}

func testClaimLimits(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	create(t, s, task("t1", "a", 0), task("t2", "a", 10), task("t3", "a", 20), task("t4", "b", 30), task("t5", "b", 40))
	got, err := s.ClaimTasks(ctx, claimOf("m1"))
	if err != nil {
		t.Fatal(err)
	}
	if ids(got) != "t1 t2 t4" {
		t.Fatalf("claimed %s, want t1 t2 t4 (2 per agent, 3 in all)", ids(got))
	}
	for _, c := range got {
		if c.Status != bgtasks.Running || c.Owner != "m1" || c.Version != 2 || c.StartedAt.IsZero() || c.LeaseUntil.IsZero() {
			t.Errorf("claimed %+v", c)
		}
	}
	if more, _ := s.ClaimTasks(ctx, claimOf("m2")); len(more) != 0 {
		t.Errorf("claimed %s beyond the global limit", ids(more))
	}
	c := claimOf("m2")
	c.AgentLimits = map[string]int{"a": 3}
	c.Global = 0
	if more, _ := s.ClaimTasks(ctx, c); ids(more) != "t3 t5" {
		t.Errorf("claimed %s, want t3 t5 (a's own limit, no global limit)", ids(more))
	}
}

func testClaimIDs(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	later := task("t2", "a", 10)
	later.NotBefore = time.Now().Add(time.Hour)
	create(t, s, task("t1", "a", 0), later, task("t3", "a", 20))
	c := claimOf("m1")
	c.IDs = []string{"t3"}
	if got, _ := s.ClaimTasks(ctx, c); ids(got) != "t3" {
		t.Errorf("claim of t3 = %s", ids(got))
	}
	c.IDs, c.Max = nil, 5
	if got, _ := s.ClaimTasks(ctx, c); ids(got) != "t1" {
		t.Errorf("claim = %s, want t1 (t2 not due yet)", ids(got))
	}
	c.IDs, c.PerAgent = []string{"t2"}, 3
	c.Accept = func(tk bgtasks.Task) bool { return false }
	if got, _ := s.ClaimTasks(ctx, c); len(got) != 0 {
		t.Errorf("claim = %s, want none (Accept refuses all)", ids(got))
	}
	c.Accept = func(tk bgtasks.Task) bool { return tk.ID == "t2" }
	if got, _ := s.ClaimTasks(ctx, c); ids(got) != "t2" {
		t.Errorf("claim of t2 by id = %s, want t2 (due or not)", ids(got))
	}
}

// testClaimConcurrent claims from many goroutines at once: each task is
// claimed once, and the global limit holds.
func testClaimConcurrent(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	for i := range 40 {
		create(t, s, task(fmt.Sprintf("t%02d", i), fmt.Sprintf("a%d", i%4), i))
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := bgtasks.Claim{Owner: fmt.Sprintf("m%d", g), LeaseUntil: time.Now().Add(time.Minute), Global: 10, PerAgent: 100, Max: 2}
			got, err := s.ClaimTasks(ctx, c)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			for _, tk := range got {
				seen[tk.ID]++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(seen) != 10 {
		t.Errorf("claimed %d tasks, want 10 (the global limit)", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("task %s claimed %d times", id, n)
		}
	}
}

// testClaimPastFullAgent: an agent at its limit with a long queue (more
// than a store may read in one claim) does not hold up the tasks of
// other agents queued after it: the next claim takes them.
func testClaimPastFullAgent(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	const queued = 1500
	for i := range queued {
		create(t, s, task(fmt.Sprintf("a%04d", i), "a", i))
	}
	create(t, s, task("b", "b", queued))
	c := bgtasks.Claim{Owner: "m1", LeaseUntil: time.Now().Add(time.Minute), PerAgent: 1}
	var claimed []bgtasks.Task
	for range 2 {
		got, err := s.ClaimTasks(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		claimed = append(claimed, got...)
	}
	if ids(claimed) != "a0000 b" {
		t.Errorf("two claims took %s; want a0000 b (one per agent)", ids(claimed))
	}
}

func testRenew(t *testing.T, s bgtasks.Store) {
	ctx := context.Background()
	create(t, s, task("t1", "a", 0), task("t2", "b", 10), task("t3", "c", 20))
	if _, err := s.ClaimTasks(ctx, bgtasks.Claim{Owner: "m1", LeaseUntil: base, IDs: []string{"t1", "t3"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimTasks(ctx, bgtasks.Claim{Owner: "m2", LeaseUntil: base, IDs: []string{"t2"}}); err != nil {
		t.Fatal(err)
	}
	lapsed, _, _ := s.ListTasks(ctx, bgtasks.Filter{LeaseBefore: base.Add(time.Second)})
	if ids(lapsed) != "t1 t2 t3" {
		t.Errorf("lapsed = %s", ids(lapsed))
	}
	until := time.Now().Add(time.Hour)
	// t2 is m2's, and "gone" does not exist: m1 renews only t1, and not
	// t3, which it holds but did not name.
	held, err := s.RenewLeases(ctx, "m1", []string{"t1", "t2", "gone"}, until)
	if err != nil || fmt.Sprint(held) != "[t1]" {
		t.Fatalf("RenewLeases = %v, %v", held, err)
	}
	if held, err := s.RenewLeases(ctx, "m1", nil, until); err != nil || len(held) != 0 {
		t.Errorf("RenewLeases of no ids = %v, %v", held, err)
	}
	if got := get(t, s, "t1"); !got.LeaseUntil.Equal(until.Truncate(time.Microsecond)) && !got.LeaseUntil.Equal(until) || got.Version != 2 {
		t.Errorf("renewed t1: lease %v version %d", got.LeaseUntil, got.Version)
	}
	lapsed, _, _ = s.ListTasks(ctx, bgtasks.Filter{LeaseBefore: base.Add(time.Second)})
	if ids(lapsed) != "t2 t3" {
		t.Errorf("lapsed after renewal = %s", ids(lapsed))
	}
	owned, _, _ := s.ListTasks(ctx, bgtasks.Filter{Owner: "m2"})
	if ids(owned) != "t2" {
		t.Errorf("owned by m2 = %s", ids(owned))
	}
}

func ids(tasks []bgtasks.Task) string {
	s := ""
	for i, t := range tasks {
		if i > 0 {
			s += " "
		}
		s += t.ID
	}
	return s
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// RunShared checks two Stores of one database (two processes): tasks
// created through a are seen through b, and claims from both at once
// take each task once, within one global limit.
func RunShared(t *testing.T, a, b bgtasks.Store) {
	ctx := context.Background()
	for i := range 30 {
		create(t, a, task(fmt.Sprintf("t%02d", i), fmt.Sprintf("a%d", i%3), i))
	}
	seen := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g, s := range []bgtasks.Store{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got, err := s.ClaimTasks(ctx, bgtasks.Claim{Owner: fmt.Sprintf("m%d", g), LeaseUntil: time.Now().Add(time.Minute), Global: 12, Max: 1})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, tk := range got {
					seen[tk.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 12 {
		t.Errorf("claimed %d tasks, want 12 (the global limit)", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("task %s claimed %d times", id, n)
		}
	}
	running, total, err := b.ListTasks(ctx, bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Running}})
	if err != nil || total != 12 || len(running) != 12 {
		t.Errorf("running through b: %d, %v", total, err)
	}
}
