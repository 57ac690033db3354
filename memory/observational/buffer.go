package observational

import (
	"context"
	"math"
	"strings"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/processors"
)

// due reports whether tokens of unobserved messages cross a new
// interval of BufferTokens since last, as Mastra's
// shouldTriggerAsyncObservation: intervals halve from BufferTokens × 1.1
// below the threshold on.
func (b buffering) due(tokens, last, threshold int) bool {
	step := float64(b.tokens)
	if float64(tokens) >= float64(threshold)-step*1.1 {
		step /= 2
	}
	return math.Floor(float64(tokens)/step) > math.Floor(float64(last)/step)
}

// startBuffer starts, in the background, a buffered observation of
// msgs, given rec's observations and buffered chunks; it reports whether
// it started one (not when msgs is empty). Its chunk is added to the
// stored record when the observer answers; a failed observation is
// dropped (its messages are buffered again at the next interval, or
// observed synchronously at the threshold). The work outlives the step
// and its run: it ends with the observer's answer, not with ctx.
func (p *Processor) startBuffer(ctx context.Context, key string, rec Record, threadID string, msgs []stored) bool {
	if len(msgs) == 0 {
		return false
	}
	op := &bufferOp{done: make(chan struct{})}
	p.mu.Lock()
	p.buffers[key] = op
	p.mu.Unlock()
	existing := rec.ActiveObservations
	if b := joinChunks(rec.BufferedObservationChunks); b != "" {
		existing = strings.TrimSpace(existing + "\n\n" + b)
	}
	hints := rec.Threads[threadID]
	bctx := context.WithoutCancel(ctx)
	go func() {
		defer func() {
			p.mu.Lock()
			delete(p.buffers, key)
			p.mu.Unlock()
			close(op.done)
		}()
		out, err := p.callObserver(bctx, existing, hints, msgs)
		if err != nil {
			return
		}
		p.addChunk(bctx, key, threadID, rec.ResourceID, out, msgs)
	}()
	return true
}

// addChunk stores the buffered observation out of msgs as a chunk of
// the current record, leaving out the messages observed meanwhile.
func (p *Processor) addChunk(ctx context.Context, key, threadID, resourceID string, out parsed, msgs []stored) {
	unlock := p.lock(key)
	defer unlock()
	rec, _, err := p.load(ctx, threadID, resourceID)
	if err != nil {
		return
	}
	if rec.ID == "" {
		rec = p.newRecord(threadID, resourceID)
	}
	observed := setOf(rec.ObservedMessageIDs)
	var fresh []stored
	for _, m := range msgs {
		if !observed[m.ID] {
			fresh = append(fresh, m)
		}
	}
	if len(fresh) == 0 {
		return
	}
	_, tokens := pendingOf(fresh, nil)
	now := p.cfg.Now().UTC()
	rec.BufferedObservationChunks = append(rec.BufferedObservationChunks, BufferedChunk{
		ID: uuid.New(), CycleID: uuid.New(), Observations: out.Observations,
		TokenCount: processors.EstimateTokens(out.Observations), MessageIDs: ids(fresh), MessageTokens: tokens,
		LastObservedAt: newest(fresh, p.cfg.Now), CreatedAt: now,
		SuggestedContinuation: out.SuggestedResponse, CurrentTask: out.CurrentTask,
	})
	rec.BufferedObservations = joinChunks(rec.BufferedObservationChunks)
	_ = p.save(ctx, rec)
}

// activate moves buffered chunks into rec's observations, oldest first,
// as many as Mastra's swapBufferedToActive picks to leave about
// BufferActivation's retention of the tokens unobserved (more from
// BlockAfter on: its forceMaxActivation), and marks their messages
// observed. It reports whether it activated any.
func (p *Processor) activate(rec *Record, threadID string, tokens int, observed map[string]bool) bool {
	chunks := rec.BufferedObservationChunks
	n := p.buf.activationCount(chunks, p.cfg.MessageTokens, tokens, tokens >= p.buf.blockAfter)
	if n == 0 {
		return false
	}
	act := chunks[:n]
	last := act[n-1].LastObservedAt.UTC()
	out := parsed{Observations: joinChunks(act), CurrentTask: act[n-1].CurrentTask, SuggestedResponse: act[n-1].SuggestedContinuation}
	var msgIDs []string
	msgTokens := 0
	for _, c := range act {
		msgIDs = append(msgIDs, c.MessageIDs...)
		msgTokens += c.MessageTokens
	}
	p.apply(rec, threadID, out, msgIDs, msgTokens, last)
	for _, id := range msgIDs {
		observed[id] = true
	}
	rec.BufferedObservationChunks = append([]BufferedChunk(nil), chunks[n:]...)
	dropObserved(rec, observed)
	return true
}

// activationCount is how many of chunks, oldest first, an activation at
// tokens of unobserved messages takes (Mastra's chunk boundary choice:
// the smallest prefix reaching the tokens to remove, unless it
// overshoots by more than 95% of the retention (unless force) or leaves
// too little, else the largest prefix below them).
func (b buffering) activationCount(chunks []BufferedChunk, threshold, tokens int, force bool) int {
	if len(chunks) == 0 {
		return 0
	}
	retention := b.retention(threshold)
	target := math.Max(0, float64(tokens)-retention)
	if target == 0 {
		return 0
	}
	overN, underN := 0, 0
	overT, underT, cum := 0.0, 0.0, 0.0
	for i, c := range chunks {
		cum += float64(c.MessageTokens)
		if cum >= target {
			if overN == 0 || cum < overT {
				overN, overT = i+1, cum
			}
		} else if cum > underT {
			underN, underT = i+1, cum
		}
	}
	minLeft := math.Min(1000, retention)
	switch {
	case force && overN > 0 && float64(tokens)-overT >= minLeft:
		return overN
	case overN > 0 && overT-target <= retention*0.95 && float64(tokens)-overT >= minLeft:
		return overN
	case underN > 0 && float64(tokens)-underT >= minLeft:
		return underN
	case overN > 0:
		return overN
	}
	return 1
}

// unbuffered returns the messages of msgs no chunk holds.
func unbuffered(msgs []stored, chunks []BufferedChunk) []stored {
	held := map[string]bool{}
	for _, c := range chunks {
		for _, id := range c.MessageIDs {
			held[id] = true
		}
	}
	var out []stored
	for _, m := range msgs {
		if !held[m.ID] {
			out = append(out, m)
		}
	}
	return out
}

// joinChunks joins the chunks' observations as Mastra activates them.
func joinChunks(chunks []BufferedChunk) string {
	parts := make([]string, len(chunks))
	for i, c := range chunks {
		parts[i] = c.Observations
	}
	return strings.Join(parts, "\n\n")
}
