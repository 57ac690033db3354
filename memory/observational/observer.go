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
	req := &model.Request{
		Messages: []model.Message{
			model.System(observerSystemPrompt),
			model.UserText(observerTaskPrompt(existing, hints.CurrentTask, hints.SuggestedResponse)),
			observerHistory(pending, p.cfg.Location),
		},
		Settings:        model.CallSettings{Temperature: ptr(0.3), MaxOutputTokens: ptr(100_000)},
		ProviderOptions: thinking(215),
	}
	resp, err := model.Collect(ctx, p.cfg.Model, req)
	if err == nil && degenerate(resp.Text) {
		// Mastra retries a looping answer once.
		resp, err = model.Collect(ctx, p.cfg.Model, req)
		if err == nil && degenerate(resp.Text) {
			return parsed{}, fmt.Errorf("observational memory: the observer repeated itself (a degenerate answer) twice, so %d messages stay unobserved: %q", len(pending), clip(resp.Text, 200))
		}
	}
	if err != nil {
		return parsed{}, fmt.Errorf("observational memory: observer: %w", err)
	}
	out := parseObserverOutput(resp.Text)
	if strings.TrimSpace(out.Observations) == "" {
		return parsed{}, fmt.Errorf("observational memory: the observer's answer holds no observations (no <observations> block and no list item), so %d messages stay unobserved: %q", len(pending), clip(resp.Text, 200))
	}
	return out, nil
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
