package observational

import (
	"context"
	"fmt"
	"math"
)

// Mastra's buffering defaults (OBSERVATIONAL_MEMORY_DEFAULTS).
const (
	DefaultBufferTokens     = 0.2
	DefaultBufferActivation = 0.8
	DefaultBlockAfter       = 1.2
)

// BufferingOff, as Config.BufferTokens, turns buffering off (Mastra's
// bufferTokens: false).
const BufferingOff = -1

// buffering is the resolved buffering configuration, in tokens; zero
// when buffering is off.
type buffering struct {
	tokens     int     // a buffered observation starts every tokens of unobserved messages
	activation float64 // Config.BufferActivation as given (a ratio, or tokens kept)
	blockAfter int     // from it, activation takes chunks past its target
}

func (b buffering) on() bool { return b.tokens > 0 }

// resolveBuffering checks and resolves cfg's buffering fields as
// Mastra's constructor and validateBufferConfig do. Resource scope has
// buffering off unless asked for, which Mastra refuses.
func resolveBuffering(cfg Config) (buffering, error) {
	asked := cfg.BufferTokens > 0 || cfg.BufferActivation != 0 || cfg.BlockAfter != 0
	if cfg.BufferTokens < 0 || (cfg.Scope == ScopeResource && !asked) {
		if cfg.BufferTokens < 0 && (cfg.BufferActivation != 0 || cfg.BlockAfter != 0) {
			return buffering{}, fmt.Errorf("observational memory: BufferActivation and BlockAfter need buffering, which BufferTokens turns off")
		}
		return buffering{}, nil
	}
	if cfg.Scope == ScopeResource {
		return buffering{}, fmt.Errorf("observational memory: buffering is not supported in resource scope (as in Mastra): set BufferTokens to BufferingOff")
	}
	threshold := float64(cfg.MessageTokens)
	b := buffering{activation: cfg.BufferActivation}
	bt := cfg.BufferTokens
	if bt == 0 {
		bt = DefaultBufferTokens
	}
	if bt < 1 {
		b.tokens = int(math.Round(threshold * bt))
	} else {
		b.tokens = int(bt)
	}
	if b.activation == 0 {
		b.activation = DefaultBufferActivation
	}
	ba := cfg.BlockAfter
	if ba == 0 {
		ba = DefaultBlockAfter
	}
	if ba >= 1 && ba < 100 {
		b.blockAfter = int(math.Round(threshold * ba))
	} else {
		b.blockAfter = int(ba)
	}
	switch {
	case b.tokens <= 0 || b.tokens >= cfg.MessageTokens:
		return buffering{}, fmt.Errorf("observational memory: BufferTokens (%d tokens) must be above 0 and below MessageTokens (%d)", b.tokens, cfg.MessageTokens)
	case b.activation < 0 || (b.activation > 1 && b.activation < 1000):
		return buffering{}, fmt.Errorf("observational memory: BufferActivation must be in (0, 1] (a ratio) or at least 1000 (tokens kept), got %v", b.activation)
	case b.activation >= 1000 && b.activation >= threshold:
		return buffering{}, fmt.Errorf("observational memory: BufferActivation as tokens kept (%v) must be below MessageTokens (%d)", b.activation, cfg.MessageTokens)
	case b.blockAfter < cfg.MessageTokens:
		return buffering{}, fmt.Errorf("observational memory: BlockAfter (%d tokens) must be at least MessageTokens (%d)", b.blockAfter, cfg.MessageTokens)
	}
	return b, nil
}

// retention is how many tokens of unobserved messages an activation
// leaves unobserved (Mastra's resolveRetentionFloor).
func (b buffering) retention(threshold int) float64 {
	if b.activation >= 1000 {
		return b.activation
	}
	return float64(threshold) * (1 - math.Max(0, math.Min(1, b.activation)))
}

// WaitForBuffering blocks until the buffered observation in flight for
// the record of threadID (or, in resource scope, of resourceID) has
// ended, and returns at once when none is. It returns ctx's error when
// ctx ends first (Mastra's waitForBuffering, whose route gives up after
// 30 s: give ctx that deadline).
func (p *Processor) WaitForBuffering(ctx context.Context, threadID, resourceID string) error {
	done := p.inflight(p.key(threadID, resourceID))
	if done == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// inflight returns the channel closed when the record's buffered
// observation in flight ends, nil when none is.
func (p *Processor) inflight(key string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if op := p.buffers[key]; op != nil {
		return op.done
	}
	return nil
}

// bufferOp is a buffered observation in flight.
type bufferOp struct {
	done chan struct{}
}
