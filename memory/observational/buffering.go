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
	// DefaultReflectionBufferActivation is Mastra's
	// reflection.bufferActivation.
	DefaultReflectionBufferActivation = 0.5
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
	// reflActivation is the fraction of ObservationTokens from which a
	// reflection is buffered, reflBlockAfter the size of observations
	// from which one is made synchronously; zero when asynchronous
	// reflection is off.
	reflActivation float64
	reflBlockAfter int
}

// reflecting reports whether reflections are buffered.
func (b buffering) reflecting() bool { return b.reflActivation > 0 }

func (b buffering) on() bool { return b.tokens > 0 }

// resolveBuffering checks and resolves cfg's buffering fields as
// Mastra's constructor and validateBufferConfig do. Resource scope has
// buffering off unless asked for, which Mastra refuses.
func resolveBuffering(cfg Config) (buffering, error) {
	asked := cfg.BufferTokens > 0 || cfg.BufferActivation != 0 || cfg.BlockAfter != 0 ||
		cfg.ReflectionBufferActivation > 0 || cfg.ReflectionBlockAfter != 0
	if cfg.BufferTokens < 0 || (cfg.Scope == ScopeResource && !asked) {
		if cfg.BufferTokens < 0 && asked {
			return buffering{}, fmt.Errorf("observational memory: BufferActivation, BlockAfter, ReflectionBufferActivation and ReflectionBlockAfter need buffering, which BufferTokens turns off")
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
	return b, resolveReflectionBuffering(cfg, &b)
}

// resolveReflectionBuffering checks and resolves cfg's asynchronous
// reflection fields into b, as Mastra's constructor does.
func resolveReflectionBuffering(cfg Config, b *buffering) error {
	act := cfg.ReflectionBufferActivation
	if act < 0 {
		if cfg.ReflectionBlockAfter != 0 {
			return fmt.Errorf("observational memory: ReflectionBlockAfter needs asynchronous reflection, which ReflectionBufferActivation turns off")
		}
		return nil
	}
	if act == 0 {
		act = DefaultReflectionBufferActivation
	}
	if act > 1 {
		return fmt.Errorf("observational memory: ReflectionBufferActivation must be in (0, 1], got %v", act)
	}
	ba := cfg.ReflectionBlockAfter
	if ba == 0 {
		ba = DefaultBlockAfter
	}
	threshold := float64(cfg.ObservationTokens)
	if ba >= 1 && ba < 100 {
		b.reflBlockAfter = int(math.Round(threshold * ba))
	} else {
		b.reflBlockAfter = int(ba)
	}
	if b.reflBlockAfter < cfg.ObservationTokens {
		return fmt.Errorf("observational memory: ReflectionBlockAfter (%d tokens) must be at least ObservationTokens (%d)", b.reflBlockAfter, cfg.ObservationTokens)
	}
	b.reflActivation = act
	return nil
}

// retention is how many tokens of unobserved messages an activation
// leaves unobserved (Mastra's resolveRetentionFloor).
func (b buffering) retention(threshold int) float64 {
	if b.activation >= 1000 {
		return b.activation
	}
	return float64(threshold) * (1 - math.Max(0, math.Min(1, b.activation)))
}

// WaitForBuffering blocks until the buffered observation and the
// buffered reflection in flight for the record of threadID (or, in
// resource scope, of resourceID) have ended, including any started
// meanwhile, and returns at once when none is. It returns ctx's error
// when ctx ends first (Mastra's waitForBuffering, whose route gives up
// after 30 s: give ctx that deadline).
func (p *Processor) WaitForBuffering(ctx context.Context, threadID, resourceID string) error {
	key := p.key(threadID, resourceID)
	for {
		done := p.inflight(key)
		if done == nil {
			if done = p.reflInflight(key); done == nil {
				return nil
			}
		}
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// inflight returns the channel closed when the record's buffered
// observation in flight ends, nil when none is.
func (p *Processor) inflight(key string) <-chan struct{} {
	return p.opDone(p.buffers, key)
}

// reflInflight returns the channel closed when the record's buffered
// reflection in flight ends, nil when none is.
func (p *Processor) reflInflight(key string) <-chan struct{} {
	return p.opDone(p.reflections, key)
}

func (p *Processor) opDone(ops map[string]*bufferOp, key string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if op := ops[key]; op != nil {
		return op.done
	}
	return nil
}

// bufferOp is a buffered observation in flight.
type bufferOp struct {
	done chan struct{}
}
