package agent

import (
	"context"

	"github.com/gomastra/mastra/stream"
)

// Generate runs the agent to the end and returns Mastra's FullOutput. An
// input the agent cannot take is an error with no output. A run that
// failed (a model call that failed, a structured answer that did not
// match under the strict strategy; FinishReason "error") returns its
// output and its *RunError, as Mastra's generate throws; a run cut short
// by ctx returns its output and ctx's error.
func (a *Agent) Generate(ctx context.Context, input any, opts ...Option) (*Output, error) {
	if l := a.launcherFor(opts); l != nil {
		return a.generateLaunched(ctx, a.launch(ctx, l, input, opts))
	}
	r, msgs, err := a.start(ctx, input, opts)
	if err != nil {
		return nil, err
	}
	return r.drain(ctx, func(out sink) { r.begin(out, msgs) })
}

// drain runs the run (body) collecting its chunks, and returns its
// output: with the run's error when it failed, or ctx's when it ended.
func (r *run) drain(ctx context.Context, body func(out sink)) (*Output, error) {
	defer r.cancel(nil)
	var chunks []stream.Chunk
	publishing, end := r.live(func(c stream.Chunk) bool {
		chunks = append(chunks, c)
		return true
	})
	func() {
		defer end() // also when body panics, as Stream's deferred end
		body(publishing)
	}()
	r.settleBackground()
	out := r.output()
	out.Chunks = chunks
	if r.result.err != nil {
		return out, r.result.err
	}
	return out, ctx.Err()
}
