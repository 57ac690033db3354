package storagetest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// BenchSaveRunAndClaim benchmarks the storage part of a suspend and
// resume on s: save a new run's snapshot (about 2 KB, shaped like an
// agent's), read it back, claim its resume, save the resumed run. Each
// iteration uses a new run id, also across calls on one store (runs of
// -count may share it). A backend's benchmark opens the store and calls
// it:
//
//	func BenchmarkSaveRunAndClaim(b *testing.B) {
//		s, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "mastra.db"))
//		if err != nil {
//			b.Fatal(err)
//		}
//		defer s.Close()
//		storagetest.BenchSaveRunAndClaim(b, s)
//	}
func BenchSaveRunAndClaim(b *testing.B, s storage.Store) {
	ctx := b.Context()
	snap := benchSnapshot()
	b.SetBytes(int64(len(snap)))
	b.ReportAllocs()
	prefix := time.Now().Format("150405.000000000") // unique per call: runs of -count share a store
	i := 0
	for b.Loop() {
		i++
		id := fmt.Sprintf("run-%s-%d", prefix, i)
		v, err := s.SaveRun(ctx, storage.Run{RunID: id, Kind: storage.KindAgent, Name: "weather-agent", ThreadID: "thread-1",
			ResourceID: "user-1", Status: storage.RunSuspended, Snapshot: snap})
		if err != nil {
			b.Fatal(err)
		}
		r, err := s.GetRun(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.ClaimResume(ctx, id, "call-1", "bench"); err != nil {
			b.Fatal(err)
		}
		r.Status, r.Version = storage.RunRunning, v
		if _, err := s.SaveRun(ctx, *r); err != nil {
			b.Fatal(err)
		}
	}
}

// benchSnapshot is a run snapshot of about 2 KB, shaped like an agent's.
func benchSnapshot() json.RawMessage {
	snap := map[string]any{
		"agentId": "weather-agent", "step": 2, "maxSteps": 5, "threadId": "thread-1", "resourceId": "user-1",
		"instructions": "You are a helpful weather assistant. Use the weatherTool to fetch current weather data.",
		"history": []any{
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Weather in Paris?"}}},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool-call", "toolCallId": "call-1",
				"toolName": "weatherTool", "input": map[string]any{"location": "Paris"}}}},
		},
		"pending": []any{map[string]any{"id": "call-1", "name": "weatherTool", "status": "suspended",
			"suspendPayload": map[string]any{"reason": strings.Repeat("needs confirmation ", 60)}}},
		"usage": map[string]any{"inputTokens": 1234, "outputTokens": 56},
	}
	b, err := json.Marshal(snap)
	if err != nil {
		panic(err)
	}
	return b
}

// BenchAppend benchmarks what saving a run costs as it grows: AppendRun
// of a change of about 1 KB to a run that already has 0, 100 or 1,000
// deltas (sub-benchmarks AppendRun/deltas=N), and to a run of no deltas
// whose snapshot is 1 MB (AppendRun/snapshot=1MB), beside SaveRun of the
// whole snapshot, which is what saving every change whole writes
// instead: SaveRun/snapshot=1KB, =100KB and =1MB are a snapshot of 1 KB
// with 0, 100 and 1,000 such changes folded in. GetRun/deltas=N loads a
// run of 1 KB with N such changes.
//
// Appends alternate the run's status between running and suspended (a
// row whose size changes, for backends that care). A run's deltas stay
// within 10% (or 50) of the number named: each time the loop has added
// that many, the run is compacted (SaveRun) and filled again, with the
// timer stopped. Snapshots and deltas are JSON strings of random
// letters, which compress as little as the text of real runs does, so
// that a backend's compression does not shrink what is written; each
// SaveRun saves a snapshot other than the stored one.
//
// written, when not nil, returns how many bytes the backend has written
// (its write-ahead log) since it was last called; BenchAppend reports
// them per operation of the loop (wal-B/op), leaving out the refills.
// A backend's benchmark opens the store and calls it:
//
//	func BenchmarkAppend(b *testing.B) {
//		s, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "mastra.db"))
//		if err != nil {
//			b.Fatal(err)
//		}
//		defer s.Close()
//		storagetest.BenchAppend(b, s, nil)
//	}
func BenchAppend(b *testing.B, s storage.Store, written func() (int64, error)) {
	const kb = 1024
	rng := rand.New(rand.NewPCG(1, 2))
	delta := benchJSON(rng, kb)
	statuses := [2]string{storage.RunRunning, storage.RunSuspended}

	for _, tc := range []struct {
		name          string
		snapshot, has int
	}{
		{"deltas=0", kb, 0},
		{"deltas=100", kb, 100},
		{"deltas=1000", kb, 1000},
		{"snapshot=1MB", 1024 * kb, 0},
	} {
		b.Run("AppendRun/"+tc.name, func(b *testing.B) {
			ctx := b.Context()
			id := benchRunID("append")
			r := storage.Run{RunID: id, Kind: storage.KindAgent, Name: "bench-agent", ThreadID: "thread-1", ResourceID: "user-1",
				Status: storage.RunRunning, Snapshot: benchJSON(rng, tc.snapshot)}
			// fill compacts the run (or creates it) and appends tc.has
			// deltas.
			fill := func() {
				v, err := s.SaveRun(ctx, r)
				if err != nil {
					b.Fatal(err)
				}
				for range tc.has {
					if v, err = s.AppendRun(ctx, id, v, storage.RunRunning, delta); err != nil {
						b.Fatal(err)
					}
				}
				r.Version = v
			}
			fill()
			window := max(50, tc.has/10)
			m := &byteMeter{written: written}
			m.skip(b)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				v, err := s.AppendRun(ctx, id, r.Version, statuses[i%2], delta)
				if err != nil {
					b.Fatal(err)
				}
				r.Version = v
				if i++; i%window == 0 {
					b.StopTimer()
					m.count(b)
					fill()
					m.skip(b)
					b.StartTimer()
				}
			}
			m.count(b)
			m.report(b)
		})
	}

	for _, tc := range []struct {
		name string
		size int
	}{
		{"snapshot=1KB", kb},
		{"snapshot=100KB", 100 * kb},
		{"snapshot=1MB", 1000 * kb},
	} {
		b.Run("SaveRun/"+tc.name, func(b *testing.B) {
			ctx := b.Context()
			// Two snapshots, saved in turn: each save writes a snapshot
			// other than the stored one, as a run's saves do.
			snaps := [2]json.RawMessage{benchJSON(rng, tc.size), benchJSON(rng, tc.size)}
			r := storage.Run{RunID: benchRunID("save"), Kind: storage.KindAgent, Name: "bench-agent",
				ThreadID: "thread-1", ResourceID: "user-1", Status: storage.RunRunning, Snapshot: snaps[1]}
			v, err := s.SaveRun(ctx, r)
			if err != nil {
				b.Fatal(err)
			}
			m := &byteMeter{written: written}
			m.skip(b)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r.Version, r.Status, r.Snapshot = v, statuses[i%2], snaps[i%2]
				if v, err = s.SaveRun(ctx, r); err != nil {
					b.Fatal(err)
				}
				i++
			}
			m.count(b)
			m.report(b)
		})
	}

	// Loading a run costs what it holds: GetRun of a run of 1 KB with
	// 0, 100 and 1,000 deltas of 1 KB, which the caller folds back.
	for _, has := range []int{0, 100, 1000} {
		b.Run(fmt.Sprintf("GetRun/deltas=%d", has), func(b *testing.B) {
			ctx := b.Context()
			id := benchRunID("get")
			v, err := s.SaveRun(ctx, storage.Run{RunID: id, Kind: storage.KindAgent, Name: "bench-agent", Status: storage.RunRunning,
				Snapshot: benchJSON(rng, kb)})
			if err != nil {
				b.Fatal(err)
			}
			for range has {
				if v, err = s.AppendRun(ctx, id, v, storage.RunRunning, delta); err != nil {
					b.Fatal(err)
				}
			}
			(&byteMeter{written: written}).skip(b) // a backend may settle its log
			b.ReportAllocs()
			for b.Loop() {
				r, err := s.GetRun(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				if len(r.Deltas) != has {
					b.Fatalf("GetRun: %d deltas, want %d", len(r.Deltas), has)
				}
			}
		})
	}
}

// benchRuns counts the runs benchmarks create.
var benchRuns atomic.Int64

// benchRunID is a new run id, unique in the store: -count runs a
// benchmark function again on the same store.
func benchRunID(what string) string {
	return fmt.Sprintf("%s-%s-%d", what, time.Now().Format("150405.000000000"), benchRuns.Add(1))
}

// byteMeter adds up what a backend reports it has written, leaving out
// what it skips.
type byteMeter struct {
	written func() (int64, error) // nil: nothing to report
	total   int64
}

// read returns what was written since the last read.
func (m *byteMeter) read(b *testing.B) int64 {
	if m.written == nil {
		return 0
	}
	n, err := m.written()
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// count adds what was written since the last read to the total.
func (m *byteMeter) count(b *testing.B) { m.total += m.read(b) }

// skip leaves out what was written since the last read.
func (m *byteMeter) skip(b *testing.B) { m.read(b) }

// report reports the total per operation, as wal-B/op.
func (m *byteMeter) report(b *testing.B) {
	if m.written != nil {
		b.ReportMetric(float64(m.total)/float64(b.N), "wal-B/op")
	}
}

// benchJSON is a JSON object of about size bytes: mostly a string of
// random letters and digits.
func benchJSON(rng *rand.Rand, size int) json.RawMessage {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
	text := make([]byte, max(size-24, 0))
	for i := range text {
		text[i] = letters[rng.IntN(len(letters))]
	}
	return json.RawMessage(`{"step":1,"text":"` + string(text) + `"}`)
}

// BenchListFinished measures listing a workflow's runs among n stored
// finished ones (each a 1 KB snapshot and three deltas), as GET
// /api/workflows/:id/runs does: the newest page of 20 by creation, a
// page filtered by status, and the last page. s must be empty.
func BenchListFinished(b *testing.B, s storage.Runs, n int) {
	ctx := b.Context()
	statuses := []string{storage.RunSuccess, storage.RunFailed, storage.RunCanceled, storage.RunSuccess}
	for i := range n {
		id := fmt.Sprintf("run-%06d", i)
		v, err := s.SaveRun(ctx, storage.Run{RunID: id, Kind: storage.KindWorkflow, Name: "w", ResourceID: "u",
			Status: storage.RunRunning, Snapshot: snapshot(i, 1024)})
		for d := 0; err == nil && d < 3; d++ {
			st := storage.RunRunning
			if d == 2 {
				st = statuses[i%len(statuses)]
			}
			v, err = s.AppendRun(ctx, id, v, st, rawf(`[{"at":{"position":%d}}]`, d+1))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		f    storage.RunFilter
	}{
		{"newest-20", storage.RunFilter{PerPage: 20}},
		{"status-failed-20", storage.RunFilter{Status: storage.RunFailed, PerPage: 20}},
		{"last-page-20", storage.RunFilter{Page: n/20 - 1, PerPage: 20}},
	} {
		tc.f.Kind, tc.f.Name, tc.f.ByCreation = storage.KindWorkflow, "w", true
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				runs, total, err := s.ListRuns(ctx, tc.f)
				if err != nil || len(runs) != 20 || total < n/4 {
					b.Fatalf("%v: %d runs of %d", err, len(runs), total)
				}
			}
		})
	}
}
