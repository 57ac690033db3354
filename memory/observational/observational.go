// Package observational is Mastra's observational memory (@mastra/memory
// 1.31.0, ObservationalMemory): once the messages of a thread that no
// observation covers reach Config.MessageTokens, an observer model
// compresses them into dated observations, and from then on those
// messages are left out of the prompt while the observations come in
// system messages; when the observations reach Config.ObservationTokens
// a reflector model condenses them, starting a new generation of the
// record (History).
//
// It is an agent.StepProcessor: add it first in agent.Config.Processors
// of an agent with memory (Config.Memory and Config.Storage), and run the
// agent with agent.WithMemory.
//
// Buffering (Mastra's default in thread scope; Config.BufferTokens,
// BufferActivation, BlockAfter): as unobserved messages grow by
// BufferTokens, they are observed in the background into buffered
// chunks of the record; at MessageTokens a step waits for the buffered
// observation in flight and activates chunks without a model call,
// observing synchronously only when there is no chunk to activate.
// WaitForBuffering waits for the buffered observation in flight.
//
// Asynchronous reflection (Mastra's default wherever buffering is on;
// Config.ReflectionBufferActivation, ReflectionBlockAfter): from
// ReflectionBufferActivation of ObservationTokens, the first lines of
// the observations are condensed in the background into the record's
// BufferedReflection; at ObservationTokens a step waits for the
// reflection in flight, then activates it (the buffered reflection and
// the lines it did not cover become the new generation) without a model
// call. With nothing buffered a step at the threshold starts one and
// goes on, reflecting synchronously only from ReflectionBlockAfter.
// WaitForBuffering waits for it too.
//
// In resource scope the other threads' unobserved messages are shown to
// the model (Mastra's other-conversations block) and, with the current
// thread's, counted and observed together by Mastra's multi-thread
// observer (threads batched up to 10,000 tokens, one call a batch, each
// thread's answer read from its <thread id> block into its own section);
// buffering, and so asynchronous reflection, is off there.
//
// A read-only run (agent.StepInput.ReadOnly) is given the observations
// but changes nothing. Each step's reading and updating of the record,
// model calls included, runs in one agent.StepInput.Record, so on a
// replaying engine (Temporal) a replayed step calls no model and is
// given the prompt the first execution built; a buffered observation or
// reflection is started inside that recorded part and is not started
// again on replay.
//
// Not done of Mastra's: the observer's view of earlier observations cut
// to previousObserverTokens, early activation of a buffered reflection
// (activateAfterIdle, activateOnProviderChange), retries, custom
// instructions and extractors, thread titles, retrieval and stream
// markers (docs/memory.md lists them).
package observational

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/processors"
	"github.com/gomastra/mastra/storage"
)

// ProcessorID is the processor's id, Mastra's.
const ProcessorID = "observational-memory"

// Mastra's defaults (OBSERVATIONAL_MEMORY_DEFAULTS, constants.ts).
const (
	DefaultMessageTokens     = 30_000
	DefaultObservationTokens = 40_000
)

// StateType is the thread-state type of a thread-scoped record; resource
// scope keeps the record in the resource's Metadata under MetadataKey.
const (
	StateType   = "observational-memory"
	MetadataKey = "observationalMemory"
)

// Scope is whose observations a record holds.
type Scope string

// Scopes: ScopeThread (Mastra's default) keeps one record per thread;
// ScopeResource one per resource, its threads' observations in
// <thread id="..."> sections.
const (
	ScopeThread   Scope = "thread"
	ScopeResource Scope = "resource"
)

// Config configures New.
type Config struct {
	// Model is the observer's and the reflector's model (required).
	Model model.LanguageModel
	// MessageTokens is how many tokens of unobserved messages trigger an
	// observation (0: DefaultMessageTokens).
	MessageTokens int
	// ObservationTokens is how many tokens of observations trigger a
	// reflection (0: DefaultObservationTokens).
	ObservationTokens int
	// Scope is ScopeThread when empty.
	Scope Scope
	// Storage keeps the records and is read for the thread's messages
	// (the agent's, normally; required).
	Storage storage.Store
	// Location is the time zone of the dates and times the observer is
	// shown (time.Local when nil, as Mastra uses the server's).
	Location *time.Location
	// Now is the clock of the records' times (time.Now when nil).
	Now func() time.Time

	// BufferTokens, BufferActivation and BlockAfter configure buffering
	// (Mastra's observation.bufferTokens, bufferActivation, blockAfter),
	// on by default in thread scope and off in resource scope, where
	// Mastra does not support it: see the package documentation.
	//
	// BufferTokens is how many tokens of new unobserved messages start a
	// buffered observation: below 1, a fraction of MessageTokens (0:
	// DefaultBufferTokens); BufferingOff turns buffering off.
	BufferTokens float64
	// BufferActivation is how much of MessageTokens an activation
	// observes: up to 1, the fraction (0: DefaultBufferActivation); from
	// 1000 on, the tokens of unobserved messages an activation leaves.
	BufferActivation float64
	// BlockAfter is the size of unobserved messages from which an
	// activation takes the chunks up to past its target even when they
	// overshoot it (Mastra's forceMaxActivation): below 100, a multiple
	// of MessageTokens (0: DefaultBlockAfter).
	BlockAfter float64

	// ReflectionBufferActivation and ReflectionBlockAfter configure
	// asynchronous reflection (Mastra's reflection.bufferActivation and
	// blockAfter), on wherever buffering is (it is off with it):
	// see the package documentation.
	//
	// ReflectionBufferActivation is the fraction of ObservationTokens,
	// in (0, 1], from which a reflection is prepared in the background
	// (0: DefaultReflectionBufferActivation); BufferingOff turns
	// asynchronous reflection off, leaving observation buffering on.
	ReflectionBufferActivation float64
	// ReflectionBlockAfter is the size of observations from which a
	// step with no buffered reflection reflects synchronously: below
	// 100, a multiple of ObservationTokens (0: DefaultBlockAfter).
	ReflectionBlockAfter float64
}

// Processor is the observational-memory step processor. It is safe for
// concurrent use: steps of one thread (or resource) take turns.
type Processor struct {
	cfg   Config
	buf   buffering
	mu    sync.Mutex
	locks map[string]*keyLock
	// buffers holds, by record, the buffered observation in flight;
	// busy the synchronous work in progress.
	buffers map[string]*bufferOp
	busy    map[string]busyFlags
	// stuck holds, by record, the size of observations a reflection
	// left at or above ObservationTokens: Mastra does not reflect them
	// again until they change.
	stuck map[string]int
	// reflections holds, by record, the buffered reflection in flight.
	reflections map[string]*bufferOp
	// waiting, when set (by tests), is called with the record's key
	// when a step starts waiting for a buffered operation in flight.
	waiting func(key string)
}

type keyLock struct {
	mu   sync.Mutex
	refs int
}

var _ agent.StepProcessor = (*Processor)(nil)

// New returns the processor.
func New(cfg Config) (*Processor, error) {
	if cfg.Model == nil {
		return nil, errors.New("observational memory: Config.Model is required")
	}
	if cfg.Storage == nil {
		return nil, errors.New("observational memory: Config.Storage is required")
	}
	switch cfg.Scope {
	case "":
		cfg.Scope = ScopeThread
	case ScopeThread, ScopeResource:
	default:
		return nil, fmt.Errorf("observational memory: unknown scope %q", cfg.Scope)
	}
	if cfg.MessageTokens <= 0 {
		cfg.MessageTokens = DefaultMessageTokens
	}
	if cfg.ObservationTokens <= 0 {
		cfg.ObservationTokens = DefaultObservationTokens
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	buf, err := resolveBuffering(cfg)
	if err != nil {
		return nil, err
	}
	return &Processor{cfg: cfg, buf: buf, locks: map[string]*keyLock{}, stuck: map[string]int{},
		buffers: map[string]*bufferOp{}, reflections: map[string]*bufferOp{}, busy: map[string]busyFlags{}}, nil
}

// ID returns "observational-memory".
func (p *Processor) ID() string { return ProcessorID }

// counter counts messages as Mastra's TokenLimiter does (processors'
// estimate, Mastra 1.71's).
var counter = &processors.TokenLimiter{}

func (p *Processor) key(threadID, resourceID string) string {
	if p.cfg.Scope == ScopeResource {
		return "resource:" + resourceID
	}
	return "thread:" + threadID
}

// lock serialises the steps of one record.
func (p *Processor) lock(key string) func() {
	p.mu.Lock()
	l := p.locks[key]
	if l == nil {
		l = &keyLock{}
		p.locks[key] = l
	}
	l.refs++
	p.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		p.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(p.locks, key)
		}
		p.mu.Unlock()
	}
}

// unproductive reports whether a reflection already left observations of
// this size above the threshold.
func (p *Processor) unproductive(key string, tokens int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	n, ok := p.stuck[key]
	return ok && n == tokens
}

// reflected notes the size of the observations a reflection left.
func (p *Processor) reflected(key string, tokens int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if tokens >= p.cfg.ObservationTokens {
		p.stuck[key] = tokens
	} else {
		delete(p.stuck, key)
	}
}

// threadMessages reads the thread's latest stored messages, oldest
// first: at least the prompt's number and 64 more, and more until the
// oldest read is observed (observations cover a prefix of the thread,
// since each observes every message not yet observed) or the thread is
// read whole.
func (p *Processor) threadMessages(ctx context.Context, threadID string, observed map[string]bool, prompt int) ([]stored, error) {
	var list []storage.Message
	for n := prompt + 64; ; n *= 2 {
		var err error
		if list, err = p.cfg.Storage.ListMessages(ctx, threadID, n); err != nil {
			return nil, fmt.Errorf("observational memory: reading thread %s: %w", threadID, err)
		}
		if len(list) < n || observed[list[0].ID] {
			break
		}
	}
	out := make([]stored, 0, len(list))
	for _, m := range list {
		var msg model.Message
		if err := json.Unmarshal(m.Content, &msg); err != nil {
			return nil, fmt.Errorf("observational memory: message %s: %w", m.ID, err)
		}
		out = append(out, stored{ID: m.ID, ThreadID: m.ThreadID, CreatedAt: m.CreatedAt, Msg: msg, Raw: m.Content})
	}
	return out, nil
}

// messageBoundary is Mastra's createMessageBoundary.
func messageBoundary(t time.Time) string {
	return "\n\n--- message boundary (" + t.UTC().Format("2006-01-02T15:04:05.000Z") + ") ---\n\n"
}

// reflect has the reflector condense rec's observations below
// ObservationTokens and, when it did, makes them a new generation of
// rec (keeping the reflector's suggested response for threadID). It
// reports whether rec changed; an answer without observations at every
// level leaves it as it was.
func (p *Processor) reflect(ctx context.Context, rec *Record, threadID string) (bool, error) {
	best, bestTokens, err := p.condense(ctx, rec.ActiveObservations, p.cfg.ObservationTokens)
	if err != nil || best == nil {
		return false, err
	}
	p.newGeneration(rec, best.Observations, bestTokens)
	if best.SuggestedResponse != "" {
		h := rec.Threads[threadID]
		h.SuggestedResponse = best.SuggestedResponse
		if rec.Threads == nil {
			rec.Threads = map[string]ThreadHints{}
		}
		rec.Threads[threadID] = h
	}
	return true, nil
}

// condense has the reflector condense observations, retrying at higher
// compression levels while the result is not below target (Mastra's
// callReflector: from level 1, or 2 for gemini-2.5-flash, up to three
// levels more). It returns the last answer with observations and their
// size; nil when no level gave observations.
func (p *Processor) condense(ctx context.Context, observations string, target int) (*parsed, int, error) {
	start := 1
	if strings.Contains(p.cfg.Model.ModelID(), "gemini-2.5-flash") {
		start = 2
	}
	maxLevel := min(maxCompressionLevel, start+3)
	var best *parsed
	bestTokens := 0
	for level := start; level <= maxLevel; level++ {
		req := &model.Request{
			Messages: []model.Message{
				model.System(reflectorSystemPrompt),
				model.UserText(reflectorPrompt(observations, level)),
			},
			Settings:        model.CallSettings{Temperature: ptr(0.0), MaxOutputTokens: ptr(100_000)},
			ProviderOptions: thinking(1024),
		}
		resp, err := model.Collect(ctx, p.cfg.Model, req)
		if err != nil {
			return nil, 0, fmt.Errorf("observational memory: reflector: %w", err)
		}
		out := parseReflectorOutput(resp.Text)
		if degenerate(resp.Text) || strings.TrimSpace(out.Observations) == "" {
			continue // a failed compression, as Mastra counts it
		}
		best, bestTokens = &out, processors.EstimateTokens(out.Observations)
		if bestTokens < target {
			break
		}
	}
	return best, bestTokens, nil
}

// newGeneration makes rec a new generation whose observations are
// observations, of tokens tokens (Mastra's createReflectionGeneration);
// the buffered chunks are kept for activation, a buffered reflection
// is not.
func (p *Processor) newGeneration(rec *Record, observations string, tokens int) {
	now := p.cfg.Now().UTC()
	rec.ID, rec.CreatedAt = uuid.New(), now
	rec.ActiveObservations = observations
	rec.ObservationTokenCount = tokens
	rec.OriginType = OriginReflection
	rec.GenerationCount++
	rec.LastBufferedAtTokens = 0
	clearBufferedReflection(rec)
	if rec.LastObservedAt == nil {
		rec.LastObservedAt = &now
	}
}

func setOf(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8Start(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func ptr[T any](v T) *T { return &v }

// thinking is Mastra's default providerOptions of the observer (a budget
// of 215) and the reflector (1024): Google's thinking budget, which other
// providers ignore.
func thinking(budget int) model.ProviderOptions {
	return model.ProviderOptions{"google": {"thinkingConfig": map[string]any{"thinkingBudget": budget}}}
}
