package agent

import (
	"context"
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// Output is what Generate returns: the run drained (a first part of
// Mastra's FullOutput).
type Output struct {
	// Text is the final step's text.
	Text string `json:"text"`
	// FinishReason is the run's: stop, tool-calls (a client tool is
	// pending, or the step limit was reached), error, ...
	FinishReason model.FinishReason `json:"finishReason"`
	// ToolCalls and ToolResults are the final step's tool-call and
	// tool-result chunks, as Mastra returns them.
	ToolCalls   []stream.Chunk `json:"toolCalls"`
	ToolResults []stream.Chunk `json:"toolResults"`
	// TotalUsage adds up every model call.
	TotalUsage model.Usage `json:"totalUsage"`
	RunID      string      `json:"runId"`
	// Chunks is every chunk of the run, in order.
	Chunks []stream.Chunk `json:"-"`
}

// Generate runs the agent to the end and returns its output.
func (a *Agent) Generate(ctx context.Context, input any, opts ...Option) (*Output, error) {
	out := &Output{ToolCalls: []stream.Chunk{}, ToolResults: []stream.Chunk{}}
	var text strings.Builder
	for c, err := range a.Stream(ctx, input, opts...) {
		if err != nil {
			return nil, err
		}
		out.Chunks = append(out.Chunks, c)
		out.RunID = c.RunID
		switch c.Type {
		case stream.TypeStepStart:
			text.Reset()
			out.ToolCalls, out.ToolResults = []stream.Chunk{}, []stream.Chunk{}
		case stream.TypeTextDelta:
			if p, ok := c.Payload.(stream.TextPayload); ok {
				text.WriteString(p.Text)
			}
		case stream.TypeToolCall:
			out.ToolCalls = append(out.ToolCalls, c)
		case stream.TypeToolResult:
			out.ToolResults = append(out.ToolResults, c)
		case stream.TypeFinish:
			if p, ok := c.Payload.(map[string]any); ok {
				if sr, ok := p["stepResult"].(map[string]any); ok {
					if r, ok := sr["reason"].(model.FinishReason); ok {
						out.FinishReason = r
					}
				}
				if o, ok := p["output"].(map[string]any); ok {
					if u, ok := o["usage"].(model.Usage); ok {
						out.TotalUsage = u
					}
				}
			}
		}
	}
	out.Text = text.String()
	return out, ctx.Err()
}
