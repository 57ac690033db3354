package temporal

import (
	"context"
	"encoding/json"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/tools"
)

// Signals a run's workflow takes.
const (
	// SignalAnswer carries an agent.Answer: a person's answer to one of
	// the run's waiting calls.
	SignalAnswer = "gomastra.answer"
	// SignalAbort aborts the run (agent.AbortRun).
	SignalAbort = "gomastra.abort"
)

// runners are the Temporal workflows that run the registry's agents and
// workflows.
type runners struct {
	mastra *mastra.Mastra
	opts   Options
}

// agentRun is the workflow of one agent run: the agent's loop on an
// engine whose effects are this workflow's activities.
func (w *runners) agentRun(wctx workflow.Context, in RunInput) (RunResult, error) {
	a, err := w.mastra.GetAgent(in.AgentKey)
	if err != nil {
		return RunResult{}, temporal.NewNonRetryableApplicationError(err.Error(), errPermanent, nil)
	}
	opts, err := runOptions(in)
	if err != nil {
		return RunResult{}, temporal.NewNonRetryableApplicationError(err.Error(), errPermanent, nil)
	}
	e := newEngine(wctx, in, w.opts)
	listen(wctx, e)
	kids := listenForChildren(wctx)
	out, err := a.Generate(context.Background(), in.Messages, append(opts, agent.WithEngine(e))...)
	e.awaitEndings(wctx)
	kids.await(wctx)
	if err != nil {
		return RunResult{RunID: in.RunID, Error: err.Error()}, nil
	}
	res := RunResult{RunID: in.RunID, Text: out.Text, FinishReason: out.FinishReason, Usage: out.TotalUsage}
	if out.Error != nil {
		res.Error = out.Error.Message
	}
	if out.Object != nil {
		res.Object, _ = json.Marshal(out.Object)
	}
	return res, nil
}

// runOptions are the agent options of the run in.
func runOptions(in RunInput) ([]agent.Option, error) {
	opts := []agent.Option{agent.WithRunID(in.RunID)}
	if in.ThreadID != "" {
		opts = append(opts, agent.WithMemory(in.ThreadID, in.ResourceID))
	}
	if in.MaxSteps > 0 {
		opts = append(opts, agent.WithMaxSteps(in.MaxSteps))
	}
	if in.Instructions != nil {
		opts = append(opts, agent.WithInstructions(*in.Instructions))
	}
	if in.RequestContext != nil {
		opts = append(opts, agent.WithRequestContext(tools.NewRequestContext(in.RequestContext)))
	}
	if len(in.Context) > 0 {
		opts = append(opts, agent.WithContextMessages(in.Context...))
	}
	if in.Output != nil {
		so, err := in.Output.StructuredOutput()
		if err != nil {
			return nil, err
		}
		opts = append(opts, agent.WithStructuredOutput(so))
	}
	return opts, nil
}

// listen takes the run's signals until the workflow ends: answers queue
// for the engine's Await; a sub-run a call launches starts as a child;
// an abort, or the workflow's cancellation, aborts the run and its calls
// in flight.
func listen(wctx workflow.Context, e *engine) {
	abort := func(ctx workflow.Context) {
		if !e.aborted {
			e.abort(ctx)
		}
	}
	workflow.Go(wctx, func(ctx workflow.Context) {
		answers := workflow.GetSignalChannel(ctx, SignalAnswer)
		aborts := workflow.GetSignalChannel(ctx, SignalAbort)
		cancelled := false
		for !cancelled {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(answers, func(c workflow.ReceiveChannel, _ bool) {
				var ans agent.Answer
				c.Receive(ctx, &ans)
				e.answers = append(e.answers, ans)
			})
			sel.AddReceive(aborts, func(c workflow.ReceiveChannel, _ bool) {
				c.Receive(ctx, nil)
				abort(ctx)
			})
			sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {
				cancelled = true
				abort(ctx)
			})
			sel.Select(ctx)
		}
	})
}
