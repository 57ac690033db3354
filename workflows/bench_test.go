package workflows_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/storage/storagetest"
	"github.com/gomastra/mastra/workflows"
)

// incStep is a trivial typed step: {n} -> {n+1}.
func incStep(id string) *workflows.Step {
	return workflows.NewStep(workflows.StepConfig[num, num]{ID: id, Execute: func(_ workflows.StepContext, in num) (num, error) {
		return num{N: in.N + 1}, nil
	}})
}

// sequence100 is a committed workflow of 100 sequential incStep steps.
func sequence100(b *testing.B, store storage.Runs) *workflows.Workflow {
	b.Helper()
	w := workflows.New(workflows.Config{ID: "seq100", Storage: store})
	for i := range 100 {
		w.Then(incStep(fmt.Sprintf("s%d", i)))
	}
	if err := w.Commit(); err != nil {
		b.Fatal(err)
	}
	return w
}

func benchSequence(b *testing.B, w *workflows.Workflow) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := w.CreateRun().Start(ctx, num{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Status != workflows.StatusSuccess || string(res.Result) != `{"n":100}` {
			b.Fatalf("result %+v", res)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/step")
}

// BenchmarkSequence100 runs 100 sequential steps per op, in memory.
func BenchmarkSequence100(b *testing.B) {
	benchSequence(b, sequence100(b, nil))
}

// BenchmarkSequence100SQLite is BenchmarkSequence100 on a SQLite file:
// the run's snapshot is saved after every step and deleted at the end.
func BenchmarkSequence100SQLite(b *testing.B) {
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = store.Close() })
	benchSequence(b, sequence100(b, store))
}

// BenchmarkForeach1000 runs a step over 1000 items, 10 at a time, per op.
func BenchmarkForeach1000(b *testing.B) {
	w := workflows.New(workflows.Config{ID: "foreach1000"}).Foreach(incStep("inc"), 10)
	if err := w.Commit(); err != nil {
		b.Fatal(err)
	}
	items := make([]num, 1000)
	for i := range items {
		items[i].N = i
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := w.CreateRun().Start(ctx, items, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Status != workflows.StatusSuccess || len(res.Result) < 1000 {
			b.Fatalf("result %+v", res)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/item")
}

// BenchmarkSequenceSQLiteSteps runs a sequential workflow of n steps
// (n = 10, 100, 1000) per op on a SQLite file (synchronous=FULL, as
// sqlite.Open sets it: each save is fsynced), saving the run after every
// step: ns/step is the cost of a step, B/step the bytes of snapshots and
// deltas handed to the store per step.
func BenchmarkSequenceSQLiteSteps(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = store.Close() })
			counting := &storagetest.Counting{Store: store}
			w := workflows.New(workflows.Config{ID: "seq", Storage: counting})
			for i := range n {
				w.Then(incStep(fmt.Sprintf("s%d", i)))
			}
			if err := w.Commit(); err != nil {
				b.Fatal(err)
			}
			want := fmt.Sprintf(`{"n":%d}`, n)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := w.CreateRun().Start(ctx, num{}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if res.Status != workflows.StatusSuccess || string(res.Result) != want {
					b.Fatalf("result %+v", res)
				}
			}
			steps := float64(b.N * n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/steps, "ns/step")
			b.ReportMetric(float64(counting.Bytes())/steps, "B/step")
		})
	}
}

// BenchmarkStoredRunSQLite makes a pending run of a one-step workflow on
// a SQLite file, loads it as another process would and starts it, per
// op: what create-run, then a start on another replica, cost.
func BenchmarkStoredRunSQLite(b *testing.B) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = store.Close() })
	w := workflows.New(workflows.Config{ID: "one", Storage: store, FinishedRunRetention: -1}).Then(incStep("s"))
	if err := w.Commit(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		id := fmt.Sprint("run-", i)
		if _, err := w.CreateStoredRun(ctx, workflows.WithRunID(id)); err != nil {
			b.Fatal(err)
		}
		run, err := w.LoadRun(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if res, err := run.Start(ctx, num{}, nil); err != nil || res.Status != workflows.StatusSuccess {
			b.Fatalf("start: %v %+v", err, res)
		}
	}
}
