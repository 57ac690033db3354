package agent

import (
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/workflows"
)

// AgentStepInput is an agent step's input (Mastra's createStep(agent)).
type AgentStepInput struct {
	Prompt string `json:"prompt"`
}

// AgentStepOutput is an agent step's output: the agent's answer.
type AgentStepOutput struct {
	Text string `json:"text"`
}

// AsStep makes the agent a workflow step (Mastra's createStep(agent)):
// its id is the agent's, it runs the agent on {prompt} with the step's
// request context, and its output is {text}. The agent's chunks stream
// through the step's writer.
func AsStep(a *Agent) *workflows.Step {
	return workflows.NewStep(workflows.StepConfig[AgentStepInput, AgentStepOutput]{
		ID: a.cfg.ID, Description: a.cfg.Description,
		Execute: func(ctx workflows.StepContext, in AgentStepInput) (AgentStepOutput, error) {
			var text []byte
			for c, err := range a.Stream(ctx, in.Prompt, WithRequestContext(ctx.RequestContext())) {
				if err != nil {
					return AgentStepOutput{}, err
				}
				if err := ctx.Writer().Write(c); err != nil {
					return AgentStepOutput{}, err
				}
				if p, ok := c.Payload.(stream.TextPayload); ok && c.Type == stream.TypeTextDelta {
					text = append(text, p.Text...)
				}
				if c.Type == stream.TypeStepStart {
					text = text[:0]
				}
				if e, ok := c.Payload.(stream.ErrorPayload); ok {
					return AgentStepOutput{}, &RunError{Message: errorMessage(e.Error)}
				}
			}
			return AgentStepOutput{Text: string(text)}, nil
		},
	})
}
