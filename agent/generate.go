package agent

import (
	"context"

	"github.com/gomastra/mastra/stream"
)

// Generate runs the agent to the end and returns Mastra's FullOutput. A
// model call that fails ends the run with FinishReason "error" and the
// error in Output.Error; the returned error is for input the agent cannot
// take and for ctx's end.
func (a *Agent) Generate(ctx context.Context, input any, opts ...Option) (*Output, error) {
	r, msgs, err := a.start(ctx, input, opts)
	if err != nil {
		return nil, err
	}
	defer r.cancel()
	var chunks []stream.Chunk
	r.yield = func(c stream.Chunk, _ error) bool {
		chunks = append(chunks, c)
		return true
	}
	r.loop(msgs)
	out := r.output()
	out.Chunks = chunks
	return out, ctx.Err()
}
