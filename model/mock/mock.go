// Package mock is a scripted language model for tests: the Go counterpart
// of the AI SDK's MockLanguageModel. Each call of Stream plays the next
// scripted Step (text, reasoning, tool calls with streamed arguments,
// usage, errors, delays) exactly as a real provider would stream it, and
// records the request it was given.
//
// [Embedder] is a deterministic embedding model for tests of semantic
// recall: a text's vector is computed from its words, so texts sharing
// words are similar, with no script and no network.
package mock

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomastra/mastra/model"
)

// Step is the answer to one model call.
type Step struct {
	// Text is streamed as text deltas: TextChunks if given, else split
	// after each space ("The sum is 5." gives "The ", "sum ", "is ", "5.").
	Text       string
	TextChunks []string
	// Reasoning is streamed as one reasoning delta before the text.
	Reasoning string
	// ToolCalls are streamed after the text, in order.
	ToolCalls []ToolCall
	// FinishReason defaults to tool-calls when there are tool calls, stop
	// otherwise.
	FinishReason model.FinishReason
	// Usage is reported with the finish part.
	Usage model.Usage
	// Err makes the call fail before any part (a refused request).
	Err error
	// ErrorPart is streamed as an error part after the other parts, in
	// place of the finish part.
	ErrorPart error
	// Delay waits before the first part; PartDelay between parts. Both
	// give up when the context is done.
	Delay, PartDelay time.Duration
	// Response, when set, is the response metadata reported (default: id
	// "mock-response-<n>", the Unix epoch, the model's id).
	Response *model.ResponseMetadata
	// Parts, when set, are streamed as they are instead of everything
	// above (for exact provider behaviour in tests).
	Parts []model.StreamPart
}

// ToolCall is a scripted tool call.
type ToolCall struct {
	ID   string
	Name string
	// Args is the arguments' JSON text, sent as it is (it may be invalid,
	// to test how a run copes).
	Args string
	// ChunkSize splits Args into deltas of this many bytes; 0 sends one
	// delta.
	ChunkSize int
	// NoInputStreaming sends only the tool-call part, as providers that do
	// not stream tool inputs do.
	NoInputStreaming bool
}

// ErrNoMoreSteps is returned when the model is called more often than it
// has steps (and Repeat is off).
var ErrNoMoreSteps = errors.New("mock: no scripted step left for this call")

// Model is a scripted model. It is safe for concurrent use; calls take the
// steps in the order they arrive.
type Model struct {
	provider, modelID string
	steps             []Step
	repeatLast        bool
	answer            func(*model.Request) Step
	answered          atomic.Int64

	mu    sync.Mutex
	calls []*model.Request
}

var _ model.LanguageModel = (*Model)(nil)

// New returns a model that answers its calls with steps, in order.
func New(steps ...Step) *Model {
	return &Model{provider: "mock-provider", modelID: "mock-model-id", steps: steps}
}

// NewFunc returns a model that answers each call with answer(req): a
// stateless script that reacts to the prompt (say, a tool call while the
// prompt holds no tool result, text after), so one model serves any
// number of runs, concurrent ones included. answer must be safe for
// concurrent use. Such a model does not record its calls (Calls is
// empty), so its memory stays flat under load.
func NewFunc(answer func(req *model.Request) Step) *Model {
	return &Model{provider: "mock-provider", modelID: "mock-model-id", answer: answer}
}

// WithID sets the provider and model ids the model reports.
func (m *Model) WithID(provider, modelID string) *Model {
	m.provider, m.modelID = provider, modelID
	return m
}

// RepeatLast makes calls past the script replay its last step (for
// endless-loop tests).
func (m *Model) RepeatLast() *Model {
	m.repeatLast = true
	return m
}

// Provider implements model.LanguageModel.
func (m *Model) Provider() string { return m.provider }

// ModelID implements model.LanguageModel.
func (m *Model) ModelID() string { return m.modelID }

// Calls returns the requests received so far.
func (m *Model) Calls() []*model.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*model.Request(nil), m.calls...)
}

// Stream implements model.LanguageModel.
func (m *Model) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	if m.answer != nil {
		return m.play(ctx, m.answer(req), int(m.answered.Add(1)-1))
	}
	m.mu.Lock()
	n := len(m.calls)
	m.calls = append(m.calls, req)
	var step Step
	ok := n < len(m.steps)
	switch {
	case ok:
		step = m.steps[n]
	case m.repeatLast && len(m.steps) > 0:
		step, ok = m.steps[len(m.steps)-1], true
	}
	m.mu.Unlock()
	if !ok {
		return func(yield func(model.StreamPart, error) bool) {
			yield(model.StreamPart{}, fmt.Errorf("%w (call %d of %d steps)", ErrNoMoreSteps, n+1, len(m.steps)))
		}
	}
	return m.play(ctx, step, n)
}

// play streams step as the answer to call number n (from 0).
func (m *Model) play(ctx context.Context, step Step, n int) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		if step.Err != nil {
			yield(model.StreamPart{}, step.Err)
			return
		}
		if !wait(ctx, step.Delay) {
			yield(model.StreamPart{}, ctx.Err())
			return
		}
		for i, p := range step.parts(n, m.modelID) {
			if i > 0 && !wait(ctx, step.PartDelay) {
				yield(model.StreamPart{}, ctx.Err())
				return
			}
			if !yield(p, nil) {
				return
			}
		}
	}
}

func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// parts renders the step as a provider's stream.
func (s Step) parts(call int, modelID string) []model.StreamPart {
	if s.Parts != nil {
		return s.Parts
	}
	meta := s.Response
	if meta == nil {
		meta = &model.ResponseMetadata{ID: fmt.Sprintf("mock-response-%d", call+1), Timestamp: time.Unix(0, 0).UTC(), ModelID: modelID}
	}
	ps := []model.StreamPart{{Type: model.PartStreamStart}, {Type: model.PartResponseMetadata, Response: meta}}
	if s.Reasoning != "" {
		ps = append(ps,
			model.StreamPart{Type: model.PartReasoningStart, ID: "r1"},
			model.StreamPart{Type: model.PartReasoningDelta, ID: "r1", Delta: s.Reasoning},
			model.StreamPart{Type: model.PartReasoningEnd, ID: "r1"})
	}
	if chunks := s.textChunks(); len(chunks) > 0 {
		ps = append(ps, model.StreamPart{Type: model.PartTextStart, ID: "t1"})
		for _, c := range chunks {
			ps = append(ps, model.StreamPart{Type: model.PartTextDelta, ID: "t1", Delta: c})
		}
		ps = append(ps, model.StreamPart{Type: model.PartTextEnd, ID: "t1"})
	}
	for i, tc := range s.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call-%d-%d", call+1, i+1)
		}
		if !tc.NoInputStreaming {
			ps = append(ps, model.StreamPart{Type: model.PartToolInputStart, ID: id, ToolName: tc.Name})
			for _, d := range split(tc.Args, tc.ChunkSize) {
				ps = append(ps, model.StreamPart{Type: model.PartToolInputDelta, ID: id, Delta: d})
			}
			ps = append(ps, model.StreamPart{Type: model.PartToolInputEnd, ID: id})
		}
		ps = append(ps, model.StreamPart{Type: model.PartToolCall, ToolCallID: id, ToolName: tc.Name, Input: tc.Args})
	}
	if s.ErrorPart != nil {
		return append(ps, model.StreamPart{Type: model.PartError, Err: s.ErrorPart})
	}
	reason := s.FinishReason
	if reason == "" {
		reason = model.FinishStop
		if len(s.ToolCalls) > 0 {
			reason = model.FinishToolCalls
		}
	}
	return append(ps, model.StreamPart{Type: model.PartFinish, FinishReason: reason, RawFinishReason: string(reason), Usage: s.Usage})
}

func (s Step) textChunks() []string {
	if s.TextChunks != nil {
		return s.TextChunks
	}
	if s.Text == "" {
		return nil
	}
	var out []string
	rest := s.Text
	for rest != "" {
		i := strings.IndexByte(rest, ' ')
		if i < 0 {
			out = append(out, rest)
			break
		}
		out = append(out, rest[:i+1])
		rest = rest[i+1:]
	}
	return out
}

func split(s string, size int) []string {
	if s == "" {
		return nil
	}
	if size <= 0 || size >= len(s) {
		return []string{s}
	}
	var out []string
	for len(s) > size {
		out = append(out, s[:size])
		s = s[size:]
	}
	return append(out, s)
}
