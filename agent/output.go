package agent

import (
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// Output is what Generate returns: Mastra's FullOutput, whose JSON is the
// body of Mastra's generate route.
type Output struct {
	// Text is the text of every step, joined (as Mastra's getFullOutput).
	Text string `json:"text"`
	// Usage and TotalUsage add up every model call of the run.
	Usage model.Usage `json:"usage"`
	// Steps are the run's steps, in order.
	Steps []Step `json:"steps"`
	// FinishReason is the run's: stop, tool-calls (a client tool is
	// pending, or the step limit was reached), length, error, ...
	FinishReason     model.FinishReason     `json:"finishReason"`
	Warnings         []model.Warning        `json:"warnings"`
	ProviderMetadata model.ProviderMetadata `json:"providerMetadata,omitempty"`
	// Request is redacted ({}).
	Request       any          `json:"request"`
	Reasoning     []model.Part `json:"reasoning"`
	ReasoningText string       `json:"reasoningText,omitempty"`
	// ToolCalls and ToolResults are the tool-call and tool-result chunks
	// of every step, as Mastra returns them; Calls and Results read them
	// typed.
	ToolCalls   []stream.Chunk        `json:"toolCalls"`
	ToolResults []stream.Chunk        `json:"toolResults"`
	Sources     []model.Source        `json:"sources"`
	Files       []model.GeneratedFile `json:"files"`
	// Response names the last step's model and holds every message the
	// run produced (each step's Response has its id and time).
	Response   Response    `json:"response"`
	TotalUsage model.Usage `json:"totalUsage"`
	// Object is the structured output (WithStructuredOutput), decoded from
	// JSON; UsedFallbackValue says it is the configured fallback.
	Object            any  `json:"object,omitempty"`
	UsedFallbackValue bool `json:"usedFallbackValue"`
	// SuspendPayload and ResumeSchema describe the first waiting call of
	// a suspended run (FinishReason "suspended"): the payload of its
	// tool-call-suspended or tool-call-approval chunk, and the JSON
	// Schema (as text) its resume data must match. They are the wire's
	// fields; Waiting and SuspendPayloadAs read them typed.
	SuspendPayload any    `json:"suspendPayload,omitempty"`
	ResumeSchema   string `json:"resumeSchema,omitempty"`
	// Error is why the run failed (FinishReason "error"); Tripwire why a
	// processor stopped it (FinishReason "tripwire").
	Error    *RunError `json:"error,omitempty"`
	Tripwire *Tripwire `json:"tripwire,omitempty"`
	RunID    string    `json:"runId"`
	// Chunks is every chunk of the run, in order.
	Chunks []stream.Chunk `json:"-"`

	// input is the request's input messages, which ContinueMessages
	// sends again unless threaded: the run's memory thread keeps them
	// and its response.
	input    []model.Message
	threaded bool
}

// Step is one model call of a run and the tool calls it made, as Mastra's
// step results (FullOutput.steps, onStepFinish, stop conditions) hold it.
type Step struct {
	// StepNumber counts from 0.
	StepNumber int `json:"-"`
	// StepType is "initial" for the first step, "tool-result" after.
	StepType    string                `json:"stepType"`
	Sources     []model.Source        `json:"sources"`
	Files       []model.GeneratedFile `json:"files"`
	ToolCalls   []stream.Chunk        `json:"toolCalls"`
	ToolResults []stream.Chunk        `json:"toolResults"`
	// Content is the assistant's parts, then the tool results (empty for
	// a step whose model call came after a resume, as Mastra's).
	Content          stream.StepContent     `json:"content"`
	Text             string                 `json:"text"`
	ReasoningText    string                 `json:"reasoningText"`
	Reasoning        []model.Part           `json:"reasoning"`
	FinishReason     model.FinishReason     `json:"finishReason"`
	Usage            model.Usage            `json:"usage"`
	Warnings         []model.Warning        `json:"warnings"`
	Request          any                    `json:"request"`
	Response         Response               `json:"response"`
	ProviderMetadata model.ProviderMetadata `json:"providerMetadata,omitempty"`
}

// Response is a model response's metadata and messages.
type Response struct {
	ID            string               `json:"id,omitempty"`
	Timestamp     string               `json:"timestamp,omitempty"`
	ModelID       string               `json:"modelId,omitempty"`
	ModelMetadata stream.ModelMetadata `json:"modelMetadata"`
	// Messages are the assistant and tool messages of the run up to the
	// step (for Output: all of them).
	Messages []model.Message `json:"messages"`
}

// ToolNames lists the names of the tools the step called.
func (s Step) ToolNames() []string {
	names := make([]string, 0, len(s.ToolCalls))
	for _, c := range s.ToolCalls {
		if p, ok := c.Payload.(stream.ToolCallPayload); ok {
			names = append(names, p.ToolName)
		}
	}
	return names
}

// record is the step as step-finish and finish payloads list it.
func (s Step) record() stream.StepRecord {
	return stream.StepRecord{
		Content: s.Content, Usage: s.Usage, Warnings: s.Warnings, Request: s.Request,
		Response: stream.StepResponse{ID: s.Response.ID, Timestamp: s.Response.Timestamp, ModelID: s.Response.ModelID, Messages: s.Response.Messages},
	}
}

// output assembles the run's FullOutput once the loop has ended.
func (r *run) output() *Output {
	steps, res := r.report.steps, r.result
	out := &Output{
		Steps: steps, FinishReason: res.finishReason, Usage: model.Usage(r.state.Usage), TotalUsage: model.Usage(r.state.Usage),
		Warnings: []model.Warning{}, Request: map[string]any{}, Reasoning: []model.Part{},
		ToolCalls: []stream.Chunk{}, ToolResults: []stream.Chunk{}, Sources: []model.Source{}, Files: []model.GeneratedFile{},
		Object: res.object, UsedFallbackValue: res.usedFallback, Error: res.err, Tripwire: res.tripwire, RunID: r.opts.runID,
		Response: Response{ModelMetadata: r.modelMetadata(), Messages: clip(r.state.Response)},
	}
	if out.Steps == nil {
		out.Steps = []Step{}
	}
	out.input, out.threaded = clip(r.state.User), r.memoryWrites()
	if waiting := r.state.waitingCalls(); res.finishReason == model.FinishSuspended && len(waiting) > 0 {
		c := waiting[0]
		out.SuspendPayload, out.ResumeSchema = r.waitingChunk(c).Payload, c.ResumeSchema
		if c.Status == callApproval {
			out.ResumeSchema = stream.ApprovalResumeSchema
		}
	}
	var text strings.Builder
	for _, s := range steps {
		out.ToolCalls = append(out.ToolCalls, s.ToolCalls...)
		out.ToolResults = append(out.ToolResults, s.ToolResults...)
		out.Sources = append(out.Sources, s.Sources...)
		out.Files = append(out.Files, s.Files...)
		out.ReasoningText += s.ReasoningText
		text.WriteString(s.Text)
	}
	out.Text = text.String()
	if n := len(steps); n > 0 {
		last := steps[n-1]
		out.Warnings, out.Reasoning, out.ProviderMetadata = last.Warnings, last.Reasoning, last.ProviderMetadata
		out.Response.ModelMetadata = last.Response.ModelMetadata
	}
	return out
}
