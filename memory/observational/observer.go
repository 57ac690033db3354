package observational

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/processors"
)

// callObserver has the observer compress pending, given the existing
// observations and the thread's hints.
func (p *Processor) callObserver(ctx context.Context, existing string, hints ThreadHints, pending []stored) (parsed, error) {
	text, err := p.askObserver(ctx, observerSystemPrompt, observerTaskPrompt(existing, hints.CurrentTask, hints.SuggestedResponse),
		observerHistory(pending, p.cfg.Location), "the observer", fmt.Sprintf("%d messages", len(pending)))
	if err != nil {
		return parsed{}, err
	}
	out := parseObserverOutput(text)
	if strings.TrimSpace(out.Observations) == "" {
		return parsed{}, fmt.Errorf("observational memory: the observer's answer holds no observations (no <observations> block and no list item), so %d messages stay unobserved: %q", len(pending), clip(text, 200))
	}
	return out, nil
}

// askObserver asks the observer model as Mastra's observer calls do
// (temperature 0.3, up to 100,000 output tokens, a thinking budget of
// 215) and returns its answer's text. An answer that repeats itself is
// asked for once more, as Mastra retries it; a second one is an error
// naming who was asked and what (lost) stays unobserved.
func (p *Processor) askObserver(ctx context.Context, system, task string, history model.Message, who, lost string) (string, error) {
	req := &model.Request{
		Messages:        []model.Message{model.System(system), model.UserText(task), history},
		Settings:        model.CallSettings{Temperature: ptr(0.3), MaxOutputTokens: ptr(100_000)},
		ProviderOptions: thinking(215),
	}
	for try := 0; ; try++ {
		resp, err := model.Collect(ctx, p.cfg.Model, req)
		switch {
		case err != nil:
			return "", fmt.Errorf("observational memory: observer: %w", err)
		case !degenerate(resp.Text):
			return resp.Text, nil
		case try == 1:
			return "", fmt.Errorf("observational memory: %s repeated itself (a degenerate answer) twice, so %s stay unobserved: %q", who, lost, clip(resp.Text, 200))
		}
	}
}

// observe has the observer compress pending, messages of threadID, into
// observations added to rec's.
func (p *Processor) observe(ctx context.Context, rec *Record, threadID string, pending []stored, tokens int) error {
	out, err := p.callObserver(ctx, rec.ActiveObservations, rec.Threads[threadID], pending)
	if err != nil {
		return err
	}
	p.apply(rec, threadID, out, ids(pending), tokens, newest(pending, p.cfg.Now))
	return nil
}

// apply adds out, the observations of the messages ids of threadID, of
// tokens tokens, the newest at last, to rec.
func (p *Processor) apply(rec *Record, threadID string, out parsed, msgIDs []string, tokens int, last time.Time) {
	existing := rec.ActiveObservations
	if p.cfg.Scope == ScopeResource {
		section := "<thread id=\"" + threadID + "\">\n" + stripThreadTags(out.Observations) + "\n</thread>"
		rec.ActiveObservations = mergeThreadSection(existing, section, last)
	} else if existing == "" {
		rec.ActiveObservations = out.Observations
	} else {
		rec.ActiveObservations = existing + messageBoundary(last) + out.Observations
	}
	rec.ObservationTokenCount = processors.EstimateTokens(rec.ActiveObservations)
	rec.TotalTokensObserved += tokens
	if rec.LastObservedAt == nil || last.After(*rec.LastObservedAt) {
		rec.LastObservedAt = &last
	}
	rec.ObservedMessageIDs = append(rec.ObservedMessageIDs, msgIDs...)
	hints := rec.Threads[threadID]
	if out.CurrentTask != "" {
		hints.CurrentTask = out.CurrentTask
	}
	if out.SuggestedResponse != "" {
		hints.SuggestedResponse = out.SuggestedResponse
	}
	if rec.Threads == nil {
		rec.Threads = map[string]ThreadHints{}
	}
	rec.Threads[threadID] = hints
}

// newest is the UTC time of the newest of msgs (now when none has one).
func newest(msgs []stored, now func() time.Time) time.Time {
	var last time.Time
	for _, m := range msgs {
		if m.CreatedAt.After(last) {
			last = m.CreatedAt
		}
	}
	if last.IsZero() {
		last = now()
	}
	return last.UTC()
}

func ids(msgs []stored) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.ID
	}
	return out
}
