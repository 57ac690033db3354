package agent

import (
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// report is what a run's stream has reported, kept for the payloads
// that list it (step-finish, finish, Generate's Output) and for tools'
// callbacks. It is not saved as such: the run's state keeps each
// finished step (runState.Done), and a resumed run's report starts from
// them (restoreSteps).
type report struct {
	// messageID is the stream's message id (Mastra's messageId).
	messageID string
	// seen is the conversation the current step's model call was given
	// (system messages excluded), as tools and callbacks see it.
	seen []any
	// steps are the finished steps; records the same as payloads list
	// them.
	steps   []Step
	records []stream.StepRecord
	// conversation is the payloads' Messages.All.
	conversation conversation
	// resumedStep says the next step-finish is the one of the step a
	// resume completed; stepObject that the current step produced the
	// structured object.
	resumedStep, stepObject bool
}

// see brings seen up to a step's messages. Steps only add messages after
// the system one, so only the new ones are added (and boxed once).
func (rp *report) see(messages []model.Message) {
	rest := messages
	if len(rest) > 0 && rest[0].Role == model.RoleSystem {
		rest = rest[1:]
	}
	if len(rest) < len(rp.seen) {
		rp.seen = rp.seen[:0:0]
	}
	for _, m := range rest[len(rp.seen):] {
		rp.seen = append(rp.seen, m)
	}
}

// addStep records finished step n (d, as the run's state keeps it): its
// chunks, content and response.
func (r *run) addStep(n int, d doneStep) {
	rp := &r.report
	p := d.Step
	stepType := "initial"
	if n > 0 {
		stepType = "tool-result"
	}
	content := stream.StepContent{}
	if !p.AfterResume {
		results, _ := stepResults(p)
		content = append(content, p.Assistant.Content...)
		for i := range results {
			content = append(content, model.Part{Type: model.MessageToolResult, ToolResult: &results[i]})
		}
	}
	m := d.Report.Response
	calls, toolResults := stepChunks(r.opts.runID, p)
	s := Step{
		StepNumber: n, StepType: stepType, Sources: clip(p.Sources), Files: clip(p.Files),
		ToolCalls: calls, ToolResults: toolResults, Content: content,
		Text: p.Text, ReasoningText: p.Reasoning, Reasoning: []model.Part{},
		FinishReason: d.Report.Reason, Usage: model.Usage(p.Usage), Warnings: clip(p.Warnings), Request: map[string]any{},
		Response: Response{ID: m.ID, Timestamp: m.Timestamp, ModelID: m.ModelID, ModelMetadata: m.ModelMetadata,
			Messages: clip(r.state.Response[:min(d.Messages, len(r.state.Response))])},
		ProviderMetadata: p.ProviderMetadata,
	}
	if p.Reasoning != "" {
		s.Reasoning = []model.Part{model.Reasoning(p.Reasoning)}
	}
	rp.steps = append(rp.steps, s)
	rp.records = append(rp.records, s.record())
}

// stepReport is how the pending step is reported once it ends with
// reason: its response's metadata (the provider's, or the model's id and
// now).
func (r *run) stepReport(reason model.FinishReason, meta *responseStamp) *stepReport {
	m := responseMeta{ModelID: r.models.step.ModelID(), ModelMetadata: r.modelMetadata()}
	ts := r.engine.Now()
	if meta != nil {
		m.ID = meta.ID
		if meta.ModelID != "" {
			m.ModelID = meta.ModelID
		}
		if !meta.Timestamp.IsZero() {
			ts = meta.Timestamp
		}
	}
	m.Timestamp = ts.UTC().Format("2006-01-02T15:04:05.000Z")
	return &stepReport{Reason: reason, Response: m}
}

// modelMetadata names the current step's model.
func (r *run) modelMetadata() stream.ModelMetadata {
	m := r.models.step
	return stream.ModelMetadata{ModelID: m.ModelID(), ModelVersion: "v3", ModelProvider: m.Provider()}
}

// clip returns s with no room to grow, so that chunks and outputs holding
// it never see later appends.
func clip[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s[:len(s):len(s)]
}
