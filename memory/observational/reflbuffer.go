package observational

import (
	"context"
	"math"
	"strings"

	"github.com/gomastra/mastra/processors"
)

// maybeReflectAsync is maybeReflect with asynchronous reflection, as
// Mastra's: from ReflectionBufferActivation of ObservationTokens a
// reflection of the observations up to that point is prepared in the
// background (one at a time, none while one waits in the record); at
// ObservationTokens a step waits for the one in flight (the returned
// channel, rec left as it is), then activates the buffered reflection;
// with none it starts one, reflecting synchronously only from
// ReflectionBlockAfter on.
func (p *Processor) maybeReflectAsync(ctx context.Context, key string, rec *Record, threadID string) (<-chan struct{}, error) {
	tokens := rec.ObservationTokenCount
	if tokens < p.cfg.ObservationTokens {
		if rec.BufferedReflection == "" && p.reflInflight(key) == nil &&
			float64(tokens) >= float64(p.cfg.ObservationTokens)*p.buf.reflActivation {
			p.startReflection(ctx, key, *rec)
		}
		return nil, nil
	}
	if done := p.reflInflight(key); done != nil {
		return done, nil
	}
	if rec.BufferedReflection != "" {
		return nil, p.activateReflection(ctx, rec)
	}
	if tokens < p.buf.reflBlockAfter {
		p.startReflection(ctx, key, *rec)
		return nil, nil
	}
	return nil, p.reflectSync(ctx, key, rec, threadID)
}

// startReflection starts, in the background, a buffered reflection of
// the first lines of rec's observations, as many as hold about
// ReflectionBufferActivation of ObservationTokens (Mastra's
// doAsyncBufferedReflection: lines of average size, condensed towards
// three quarters of their size). The result is stored in the record's
// BufferedReflection when the reflector answers, unless a new
// generation replaced rec meanwhile; a failed reflection is dropped.
// The work outlives the step and its run: it ends with the reflector's
// answer, not with ctx.
func (p *Processor) startReflection(ctx context.Context, key string, rec Record) {
	lines := strings.Split(rec.ActiveObservations, "\n")
	n := len(lines)
	avg := float64(rec.ObservationTokenCount) / float64(n)
	if avg > 0 {
		n = min(int(math.Floor(float64(p.cfg.ObservationTokens)*p.buf.reflActivation/avg)), n)
	}
	slice := strings.Join(lines[:n], "\n")
	input := int(math.Round(avg * float64(n)))
	op := &bufferOp{done: make(chan struct{})}
	p.mu.Lock()
	p.reflections[key] = op
	p.mu.Unlock()
	bctx := context.WithoutCancel(ctx)
	go func() {
		defer func() {
			p.mu.Lock()
			delete(p.reflections, key)
			p.mu.Unlock()
			close(op.done)
		}()
		out, tokens, err := p.condense(bctx, slice, int(math.Round(float64(input)*0.75)))
		if err != nil || out == nil {
			return
		}
		p.storeReflection(bctx, key, rec, bufferedReflection{out.Observations, tokens, input, n})
	}()
}

// bufferedReflection is a reflection made in the background: its
// observations and their size, the size of the observations it
// condensed and their number of lines.
type bufferedReflection struct {
	observations  string
	tokens, input int
	lines         int
}

// storeReflection stores r as the buffered reflection of the current
// record when it is still the generation of from.
func (p *Processor) storeReflection(ctx context.Context, key string, from Record, r bufferedReflection) {
	unlock := p.lock(key)
	defer unlock()
	rec, ok, err := p.load(ctx, from.ThreadID, from.ResourceID)
	if err != nil || !ok || rec.ID != from.ID {
		return
	}
	rec.BufferedReflection, rec.BufferedReflectionTokens = r.observations, r.tokens
	rec.BufferedReflectionInputTokens, rec.ReflectedObservationLineCount = r.input, r.lines
	_ = p.save(ctx, rec)
}

// activateReflection makes rec's buffered reflection, followed by the
// observations it did not cover (the lines after
// ReflectedObservationLineCount), a new generation, stored with the
// previous one archived (Mastra's swapBufferedReflectionToActive).
func (p *Processor) activateReflection(ctx context.Context, rec *Record) error {
	lines := strings.Split(rec.ActiveObservations, "\n")
	rest := strings.TrimSpace(strings.Join(lines[min(rec.ReflectedObservationLineCount, len(lines)):], "\n"))
	obs := rec.BufferedReflection
	if rest != "" {
		obs += "\n\n" + rest
	}
	old := *rec
	clearBufferedReflection(&old)
	p.newGeneration(rec, obs, processors.EstimateTokens(obs))
	if err := p.archive(ctx, old); err != nil {
		return err
	}
	return p.save(ctx, *rec)
}

// clearBufferedReflection removes rec's buffered reflection.
func clearBufferedReflection(rec *Record) {
	rec.BufferedReflection, rec.BufferedReflectionTokens = "", 0
	rec.BufferedReflectionInputTokens, rec.ReflectedObservationLineCount = 0, 0
}
