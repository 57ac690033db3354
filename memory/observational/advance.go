package observational

import (
	"context"
	"slices"
)

// advance brings rec up to date with msgs, the thread's latest
// messages, and others, the other threads' unobserved messages in
// resource scope (observed: those rec covers, updated as it observes), as
// Mastra's observation step does: below MessageTokens it may start a
// buffered observation; at MessageTokens it activates buffered chunks
// or, with none, observes synchronously; then it reflects (maybeReflect).
// It saves rec when it changed. It returns a channel to wait on when
// the step reached MessageTokens while a buffered observation is in
// flight, changing nothing, or ObservationTokens while a buffered
// reflection is, after saving its observation: Mastra waits for either
// before activating it.
func (p *Processor) advance(ctx context.Context, key string, rec *Record, threadID string, msgs []stored, others []threadPending, observed map[string]bool) (<-chan struct{}, error) {
	if p.cfg.Scope == ScopeResource {
		return nil, p.advanceResource(ctx, key, rec, threadID, msgs, others, observed)
	}
	pending, tokens := pendingOf(msgs, observed)
	changed, activated := false, false
	switch {
	case !p.buf.on():
	case tokens < p.cfg.MessageTokens:
		if p.buf.due(tokens, rec.LastBufferedAtTokens, p.cfg.MessageTokens) && p.inflight(key) == nil &&
			p.startBuffer(ctx, key, *rec, threadID, unbuffered(pending, rec.BufferedObservationChunks)) {
			rec.LastBufferedAtTokens = tokens
			changed = true
		}
	default:
		if done := p.inflight(key); done != nil {
			return done, nil
		}
		if activated = p.activate(rec, threadID, tokens, observed); activated {
			pending, tokens = pendingOf(msgs, observed)
			rec.LastBufferedAtTokens = tokens
			changed = true
		}
	}
	if !activated && len(pending) > 0 && tokens >= p.cfg.MessageTokens {
		if err := p.observeSync(ctx, key, rec, threadID, pending, tokens); err != nil {
			return nil, err
		}
		for _, m := range pending {
			observed[m.ID] = true
		}
		dropObserved(rec, observed)
		tokens, changed = 0, true
		rec.LastBufferedAtTokens = 0
	}
	rec.PendingMessageTokens = tokens
	if changed {
		// Kept before reflecting, as Mastra persists an observation
		// first: a failed reflection does not undo it.
		if err := p.save(ctx, *rec); err != nil {
			return nil, err
		}
	}
	return p.maybeReflect(ctx, key, rec, threadID)
}

// observeSync observes pending synchronously, noting the work in
// progress for Load's IsObserving.
func (p *Processor) observeSync(ctx context.Context, key string, rec *Record, threadID string, pending []stored, tokens int) error {
	p.setBusy(key, func(b *busyFlags) { b.observing = true })
	defer p.setBusy(key, func(b *busyFlags) { b.observing = false })
	return p.observe(ctx, rec, threadID, pending, tokens)
}

// maybeReflect reflects as the observations grow: asynchronously when
// reflections are buffered (maybeReflectAsync, whose channel it
// returns), else synchronously (reflectSync).
func (p *Processor) maybeReflect(ctx context.Context, key string, rec *Record, threadID string) (<-chan struct{}, error) {
	if p.buf.reflecting() {
		return p.maybeReflectAsync(ctx, key, rec, threadID)
	}
	return nil, p.reflectSync(ctx, key, rec, threadID)
}

// reflectSync reflects when the observations reach ObservationTokens
// (and a reflection did not already leave them this size), starting a
// new generation.
func (p *Processor) reflectSync(ctx context.Context, key string, rec *Record, threadID string) error {
	if rec.ObservationTokenCount < p.cfg.ObservationTokens || p.unproductive(key, rec.ObservationTokenCount) {
		return nil
	}
	p.setBusy(key, func(b *busyFlags) { b.reflecting = true })
	defer p.setBusy(key, func(b *busyFlags) { b.reflecting = false })
	old := *rec
	ok, err := p.reflect(ctx, rec, threadID)
	if err != nil {
		return err
	}
	p.reflected(key, rec.ObservationTokenCount)
	if !ok {
		return nil
	}
	if err := p.archive(ctx, old); err != nil {
		return err
	}
	return p.save(ctx, *rec)
}

// dropObserved removes from rec's buffered chunks those whose messages
// have all been observed since.
func dropObserved(rec *Record, observed map[string]bool) {
	rec.BufferedObservationChunks = slices.DeleteFunc(rec.BufferedObservationChunks, func(c BufferedChunk) bool {
		for _, id := range c.MessageIDs {
			if !observed[id] {
				return false
			}
		}
		return true
	})
	rec.BufferedObservations = joinChunks(rec.BufferedObservationChunks)
}
