package serve

import (
	"context"
	"log/slog"
	"sync"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/workflows"
)

// recoverRuns finishes in the background the runs a dead process left
// running, and returns a function that waits for them.
func recoverRuns(ctx context.Context, m *mastra.Mastra, log *slog.Logger) func() {
	var wg sync.WaitGroup
	for key, a := range m.ListAgents() {
		runs, _, err := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{})
		if err != nil {
			log.Warn("mastra: listing interrupted runs", "agent", key, "err", err)
			continue
		}
		for _, r := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := a.ResumeGenerate(ctx, r.RunID, nil)
				if err != nil {
					log.Warn("mastra: recovering a run", "agent", key, "runId", r.RunID, "err", err)
					return
				}
				log.Info("mastra: recovered a run", "agent", key, "runId", r.RunID, "finishReason", out.FinishReason)
			}()
		}
	}
	for key, w := range m.ListWorkflows() {
		runs, err := w.ListRuns(ctx, workflows.StatusRunning)
		if err != nil {
			log.Warn("mastra: listing interrupted runs", "workflow", key, "err", err)
			continue
		}
		for _, stored := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run, err := w.LoadRun(ctx, stored.RunID)
				if err == nil {
					var res *workflows.Result
					if res, err = run.Resume(ctx, workflows.ResumeOptions{}); err == nil {
						log.Info("mastra: recovered a run", "workflow", key, "runId", stored.RunID, "status", res.Status)
						return
					}
				}
				log.Warn("mastra: recovering a run", "workflow", key, "runId", stored.RunID, "err", err)
			}()
		}
	}
	return wg.Wait
}
