package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// BenchmarkBackgroundDispatch runs one call of an eligible tool then a
// final text step, inline (disposition foreground) and as a deferred
// task (the run ends before the task; each op waits for its task to
// finish so that tasks do not pile up), with a memory manager.
func BenchmarkBackgroundDispatch(b *testing.B) {
	mgr := bgtasks.New(bgtasks.Config{GlobalConcurrency: 100, PerAgentConcurrency: 100})
	if err := mgr.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer mgr.Shutdown(context.Background())
	set := tools.Set{"research": researchTool(nil, &tools.BackgroundConfig{Enabled: true})}
	for _, disposition := range []string{"foreground", "deferred", "awaited"} {
		steps := []mock.Step{
			{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: fmt.Sprintf(`{"topic":"owls","_background":{"disposition":%q}}`, disposition)}}},
			{Text: "ok"},
		}
		b.Run(disposition, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, _ := New(Config{ID: "bench", Model: mock.New(steps...), Tools: set, Logger: slog.New(slog.DiscardHandler)})
				a.UseBackgroundTasks(mgr)
				out, err := a.Generate(context.Background(), "go")
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range out.Chunks {
					if c.Type == bgtasks.TypeStarted && disposition == "deferred" {
						if _, err := mgr.WaitForNextTask(context.Background(), []string{c.Payload.(bgtasks.StartedPayload).TaskID}); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

// BenchmarkSplitBackground is the cost every tool call pays for the
// "_background" check: arguments without it, and with it.
func BenchmarkSplitBackground(b *testing.B) {
	without := json.RawMessage(`{"topic":"owls","depth":3,"sources":["a","b","c"]}`)
	with := json.RawMessage(`{"topic":"owls","depth":3,"sources":["a","b","c"],"_background":{"disposition":"deferred"}}`)
	b.Run("without", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			splitBackground(without)
		}
	})
	b.Run("with", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			splitBackground(with)
		}
	})
}
