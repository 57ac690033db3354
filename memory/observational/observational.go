// Package observational is Mastra's observational memory (@mastra/memory
// 1.31.0, ObservationalMemory): once the messages of a thread that no
// observation covers reach Config.MessageTokens, an observer model
// compresses them into dated observations, and from then on those
// messages are left out of the prompt while the observations come in
// system messages; when the observations reach Config.ObservationTokens
// a reflector model condenses them.
//
// It is an agent.StepProcessor: add it first in agent.Config.Processors
// of an agent with memory (Config.Memory and Config.Storage), and run the
// agent with agent.WithMemory.
package observational

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/gomastra/mastra/agent"
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
}

// Record is what the processor keeps of a thread's (or resource's)
// observations, under Mastra's field names
// (ObservationalMemoryRecord).
type Record struct {
	ID         string `json:"id"`
	Scope      Scope  `json:"scope"`
	ThreadID   string `json:"threadId,omitempty"`
	ResourceID string `json:"resourceId,omitempty"`
	// OriginType is "initial", or "reflection" once a reflection has
	// replaced the observations; GenerationCount counts reflections.
	OriginType         string `json:"originType"`
	GenerationCount    int    `json:"generationCount"`
	ActiveObservations string `json:"activeObservations"`
	// ObservationTokenCount is the observations' size;
	// TotalTokensObserved the size of every message observed.
	ObservationTokenCount int `json:"observationTokenCount"`
	TotalTokensObserved   int `json:"totalTokensObserved"`
	// LastObservedAt is the time of the newest message observed.
	LastObservedAt *time.Time `json:"lastObservedAt,omitempty"`
	// ObservedMessageIDs are the stored messages the observations cover.
	ObservedMessageIDs []string `json:"observedMessageIds,omitempty"`
	// Threads holds each thread's current task and suggested response
	// (kept by Mastra in the thread's metadata).
	Threads   map[string]ThreadHints `json:"threads,omitempty"`
	CreatedAt time.Time              `json:"createdAt"`
	UpdatedAt time.Time              `json:"updatedAt"`
}

// ThreadHints are the observer's continuation hints for a thread.
type ThreadHints struct {
	CurrentTask       string `json:"currentTask,omitempty"`
	SuggestedResponse string `json:"suggestedResponse,omitempty"`
}

// Processor is the observational-memory step processor. It is safe for
// concurrent use: steps of one thread (or resource) take turns.
type Processor struct {
	cfg   Config
	mu    sync.Mutex
	locks map[string]*keyLock
	// stuck holds, by record, the size of observations a reflection
	// left at or above ObservationTokens: Mastra does not reflect them
	// again until they change.
	stuck map[string]int
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
	return &Processor{cfg: cfg, locks: map[string]*keyLock{}, stuck: map[string]int{}}, nil
}

// ID returns "observational-memory".
func (p *Processor) ID() string { return ProcessorID }

// ProcessStep observes and reflects when their thresholds are reached,
// then leaves the observed messages out of s.Messages and puts the
// observations in after its system messages. A step without a thread is
// left alone. A failed observer call fails the step, as Mastra's
// synchronous observation does, and stores nothing; a failed reflector
// call fails it after the observation is stored.
func (p *Processor) ProcessStep(ctx context.Context, s *agent.StepInput) error {
	if s.ThreadID == "" || (p.cfg.Scope == ScopeResource && s.ResourceID == "") {
		return nil
	}
	key := p.key(s.ThreadID, s.ResourceID)
	unlock := p.lock(key)
	defer unlock()

	rec, err := p.Load(ctx, s.ThreadID, s.ResourceID)
	if err != nil {
		return err
	}
	observed := setOf(rec.ObservedMessageIDs)
	msgs, err := p.threadMessages(ctx, s.ThreadID, observed, len(s.Messages))
	if err != nil {
		return err
	}
	// Counted as Mastra's TokenCounter.countMessages: each message
	// rounded, 24 for the conversation.
	var pending []stored
	tokens := 0.0
	for _, m := range msgs {
		if !observed[m.ID] {
			pending = append(pending, m)
			tokens += math.Round(counter.MessageTokens(m.Msg))
		}
	}
	if len(pending) > 0 {
		tokens += processors.TokensPerConversation
	}
	if len(pending) > 0 && tokens >= float64(p.cfg.MessageTokens) {
		if err := p.observe(ctx, &rec, s.ThreadID, pending, int(tokens)); err != nil {
			return err
		}
		// Kept before reflecting, as Mastra persists an observation
		// first: a failed reflection does not undo it.
		if err := p.save(ctx, rec); err != nil {
			return err
		}
		for _, m := range pending {
			observed[m.ID] = true
		}
	}
	if rec.ObservationTokenCount >= p.cfg.ObservationTokens && !p.unproductive(key, rec.ObservationTokenCount) {
		ok, err := p.reflect(ctx, &rec, s.ThreadID)
		if err != nil {
			return err
		}
		p.reflected(key, rec.ObservationTokenCount)
		if ok {
			if err := p.save(ctx, rec); err != nil {
				return err
			}
		}
	}
	s.Messages = p.prompt(s.Messages, rec, s.ThreadID, msgs, observed)
	return nil
}

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

// observe has the observer compress pending into observations appended
// to rec's.
func (p *Processor) observe(ctx context.Context, rec *Record, threadID string, pending []stored, tokens int) error {
	hints := rec.Threads[threadID]
	existing := rec.ActiveObservations
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
			return fmt.Errorf("observational memory: the observer repeated itself (a degenerate answer) twice, so %d messages stay unobserved: %q", len(pending), clip(resp.Text, 200))
		}
	}
	if err != nil {
		return fmt.Errorf("observational memory: observer: %w", err)
	}
	out := parseObserverOutput(resp.Text)
	if strings.TrimSpace(out.Observations) == "" {
		return fmt.Errorf("observational memory: the observer's answer holds no observations (no <observations> block and no list item), so %d messages stay unobserved: %q", len(pending), clip(resp.Text, 200))
	}
	last := pending[0].CreatedAt
	for _, m := range pending {
		if m.CreatedAt.After(last) {
			last = m.CreatedAt
		}
	}
	if last.IsZero() {
		last = p.cfg.Now()
	}
	last = last.UTC()
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
	rec.LastObservedAt = &last
	for _, m := range pending {
		rec.ObservedMessageIDs = append(rec.ObservedMessageIDs, m.ID)
	}
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
	return nil
}

// messageBoundary is Mastra's createMessageBoundary.
func messageBoundary(t time.Time) string {
	return "\n\n--- message boundary (" + t.UTC().Format("2006-01-02T15:04:05.000Z") + ") ---\n\n"
}

// reflect has the reflector condense rec's observations, retrying at
// higher compression levels while the result is not below
// ObservationTokens (Mastra's callReflector: from level 1, or 2 for
// gemini-2.5-flash, up to three levels more). It reports whether rec
// changed; an answer without observations at every level leaves it as
// it was.
func (p *Processor) reflect(ctx context.Context, rec *Record, threadID string) (bool, error) {
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
				model.UserText(reflectorPrompt(rec.ActiveObservations, level)),
			},
			Settings:        model.CallSettings{Temperature: ptr(0.0), MaxOutputTokens: ptr(100_000)},
			ProviderOptions: thinking(1024),
		}
		resp, err := model.Collect(ctx, p.cfg.Model, req)
		if err != nil {
			return false, fmt.Errorf("observational memory: reflector: %w", err)
		}
		out := parseReflectorOutput(resp.Text)
		if degenerate(resp.Text) || strings.TrimSpace(out.Observations) == "" {
			continue // a failed compression, as Mastra counts it
		}
		best, bestTokens = &out, processors.EstimateTokens(out.Observations)
		if bestTokens < p.cfg.ObservationTokens {
			break
		}
	}
	if best == nil {
		return false, nil
	}
	rec.ActiveObservations = best.Observations
	rec.ObservationTokenCount = bestTokens
	rec.OriginType = "reflection"
	rec.GenerationCount++
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

// prompt leaves out of msgs the observed messages at the start of the
// conversation and puts the observations' system messages and the
// continuation reminder after msgs' system messages.
func (p *Processor) prompt(msgs []model.Message, rec Record, threadID string, thread []stored, observed map[string]bool) []model.Message {
	if rec.ActiveObservations == "" {
		return msgs
	}
	gone := map[[32]byte]int{}
	for _, m := range thread {
		if observed[m.ID] {
			gone[fingerprint(m.Msg)]++
		}
	}
	n := 0
	for n < len(msgs) && msgs[n].Role == model.RoleSystem {
		n++
	}
	rest := msgs[n:]
	for len(rest) > 0 {
		f := fingerprint(rest[0])
		if gone[f] == 0 {
			break
		}
		gone[f]--
		rest = rest[1:]
	}
	hints := rec.Threads[threadID]
	ctxMsgs := contextMessages(rec.ActiveObservations, hints.CurrentTask, hints.SuggestedResponse, p.cfg.Now(), p.cfg.Location)
	out := make([]model.Message, 0, n+len(ctxMsgs)+1+len(rest))
	out = append(out, msgs[:n]...)
	for _, t := range ctxMsgs {
		out = append(out, model.System(t))
	}
	out = append(out, model.UserText("<system-reminder>"+continuationHint+"</system-reminder>"))
	return append(out, rest...)
}

// fingerprint identifies a message by its stored form.
func fingerprint(m model.Message) [32]byte {
	b, err := json.Marshal(m)
	if err != nil {
		return [32]byte{}
	}
	return sha256.Sum256(b)
}

// Load returns the record of a thread (or of its resource, in resource
// scope); an empty one when none is stored.
func (p *Processor) Load(ctx context.Context, threadID, resourceID string) (Record, error) {
	var raw json.RawMessage
	if p.cfg.Scope == ScopeResource {
		r, err := p.cfg.Storage.GetResource(ctx, resourceID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
		case err != nil:
			return Record{}, fmt.Errorf("observational memory: reading resource %s: %w", resourceID, err)
		case r.Metadata[MetadataKey] != nil:
			if raw, err = json.Marshal(r.Metadata[MetadataKey]); err != nil {
				return Record{}, fmt.Errorf("observational memory: resource %s: %w", resourceID, err)
			}
		}
	} else {
		v, ok, err := p.cfg.Storage.GetThreadState(ctx, threadID, StateType)
		if err != nil {
			return Record{}, fmt.Errorf("observational memory: reading thread %s: %w", threadID, err)
		}
		if ok {
			raw = v
		}
	}
	if len(raw) == 0 {
		now := p.cfg.Now().UTC()
		rec := Record{ID: p.key(threadID, resourceID), Scope: p.cfg.Scope, ResourceID: resourceID, OriginType: "initial", CreatedAt: now, UpdatedAt: now}
		if p.cfg.Scope == ScopeThread {
			rec.ThreadID = threadID
		}
		return rec, nil
	}
	var rec Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return Record{}, fmt.Errorf("observational memory: the stored record is unreadable: %w", err)
	}
	return rec, nil
}

func (p *Processor) save(ctx context.Context, rec Record) error {
	rec.UpdatedAt = p.cfg.Now().UTC()
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("observational memory: %w", err)
	}
	if p.cfg.Scope == ScopeThread {
		if err := p.cfg.Storage.SetThreadState(ctx, rec.ThreadID, StateType, raw); err != nil {
			return fmt.Errorf("observational memory: saving: %w", err)
		}
		return nil
	}
	r, err := p.cfg.Storage.GetResource(ctx, rec.ResourceID)
	if errors.Is(err, storage.ErrNotFound) {
		r, err = &storage.Resource{ID: rec.ResourceID}, nil
	}
	if err != nil {
		return fmt.Errorf("observational memory: reading resource %s: %w", rec.ResourceID, err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("observational memory: %w", err)
	}
	if r.Metadata == nil {
		r.Metadata = map[string]any{}
	}
	r.Metadata[MetadataKey] = v
	if err := p.cfg.Storage.SaveResource(ctx, *r); err != nil {
		return fmt.Errorf("observational memory: saving: %w", err)
	}
	return nil
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
