package aisdk

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gomastra/mastra/agent"
)

// activeStream is what a resumable chat route remembers of the run a chat
// is streaming: the run, the memory thread and resource it was started
// for, and the message id its UI stream's start part carries, so that a
// reconnect converts the run's chunks into the same parts.
type activeStream struct {
	RunID      string `json:"runId"`
	ThreadID   string `json:"threadId,omitempty"`
	ResourceID string `json:"resourceId,omitempty"`
	MessageID  string `json:"messageId,omitempty"`
}

// activeStreamType prefixes the thread-state type under which an agent
// with storage keeps a chat's active stream (the chat id is the
// thread-state key; the thread need not exist).
const activeStreamType = "aisdk-active-stream:"

// activeStreams maps (agent, chat id) to the chat's active stream. An
// agent with storage keeps the map in its thread state, so that every
// process sharing the store finds it; an agent without keeps it here,
// in this process.
type activeStreams struct {
	mu    sync.Mutex
	local map[string]activeStream
}

func newActiveStreams() *activeStreams {
	return &activeStreams{local: map[string]activeStream{}}
}

func localKey(a *agent.Agent, chatID string) string { return a.ID() + "\x00" + chatID }

// put records rec as the chat's active stream, replacing any earlier one.
func (s *activeStreams) put(ctx context.Context, a *agent.Agent, chatID string, rec activeStream) error {
	if st := a.Storage(); st != nil {
		raw, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := st.SetThreadState(ctx, chatID, activeStreamType+a.ID(), raw); err != nil {
			return fmt.Errorf("aisdk: recording the active stream of chat %s: %w", chatID, err)
		}
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.local[localKey(a, chatID)] = rec
	return nil
}

// get returns the chat's active stream; ok is false when it has none.
func (s *activeStreams) get(ctx context.Context, a *agent.Agent, chatID string) (rec activeStream, ok bool, err error) {
	if st := a.Storage(); st != nil {
		raw, found, err := st.GetThreadState(ctx, chatID, activeStreamType+a.ID())
		if err != nil {
			return activeStream{}, false, fmt.Errorf("aisdk: reading the active stream of chat %s: %w", chatID, err)
		}
		if !found || len(raw) == 0 {
			return activeStream{}, false, nil
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return activeStream{}, false, fmt.Errorf("aisdk: reading the active stream of chat %s: %w", chatID, err)
		}
		return rec, rec.RunID != "", nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok = s.local[localKey(a, chatID)]
	return rec, ok, nil
}

// clear forgets the chat's active stream when it is still run runID's (a
// newer run of the chat keeps its own). With storage, the check and the
// write are two steps: a run started for the chat between them loses its
// record, and a reconnect to it answers that nothing is streaming.
func (s *activeStreams) clear(ctx context.Context, a *agent.Agent, chatID, runID string) error {
	if st := a.Storage(); st != nil {
		rec, ok, err := s.get(ctx, a, chatID)
		if err != nil || !ok || rec.RunID != runID {
			return err
		}
		if err := st.SetThreadState(ctx, chatID, activeStreamType+a.ID(), json.RawMessage(`{}`)); err != nil {
			return fmt.Errorf("aisdk: clearing the active stream of chat %s: %w", chatID, err)
		}
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.local[localKey(a, chatID)]; ok && rec.RunID == runID {
		delete(s.local, localKey(a, chatID))
	}
	return nil
}
