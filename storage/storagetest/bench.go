package storagetest

import (
	"encoding/json"
	"fmt"
	"strings"
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
