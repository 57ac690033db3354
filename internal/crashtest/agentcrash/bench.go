package agentcrash

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/model"
)

// BenchSuspendResume measures a suspend→resume round trip on a fresh
// store of backend: a run that calls pay, which suspends (the snapshot
// is saved), then ResumeGenerate, which claims it, runs pay again and
// answers (the snapshot is deleted). snapshot-B/op is the size of the
// suspended run's snapshot.
func BenchSuspendResume(b *testing.B, backend crashtest.Backend) {
	store := backend.OpenStore(b, backend.New(b))
	env := crashtest.Env{} // no execution log: fsyncs would dominate
	a := durableAgent(b, env, store, nil)
	ctx := context.Background()
	var size int
	b.ReportAllocs()
	for b.Loop() {
		out, err := a.Generate(ctx, "pay", agent.WithMemory("bench-thread", "bench-user"))
		if err != nil || out.FinishReason != model.FinishSuspended {
			b.Fatal(err, out.FinishReason)
		}
		if size == 0 {
			r, err := store.GetRun(ctx, out.RunID)
			if err != nil {
				b.Fatal(err)
			}
			size = len(r.Snapshot)
		}
		res, err := a.ResumeGenerate(ctx, out.RunID, approval{OK: true})
		if err != nil || res.Text != "done" {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "snapshot-B/op")
}
