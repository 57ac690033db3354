package storage

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gomastra/mastra/internal/wakeup"
)

// NewMemoryEvents returns RunEvents kept in this process's memory, for
// runs whose followers are all in this process. WaitEvents wakes on
// appends without polling. It keeps every contract of RunEvents.
func NewMemoryEvents() RunEvents {
	return &memoryEvents{logs: map[string]*memoryLog{}}
}

type memoryEvents struct {
	mu   sync.Mutex
	logs map[string]*memoryLog
	hub  wakeup.Hub
}

// memoryLog is one run's log. Its events slice is only appended to, so
// a reader may keep a sub-slice of it.
type memoryLog struct {
	events  []Event
	ended   bool
	updated time.Time
}

func (m *memoryEvents) AppendEvents(_ context.Context, runID string, events ...Event) (int64, error) {
	if err := CheckEvents(runID, events); err != nil {
		return 0, fmt.Errorf("memory: %w", err)
	}
	now := time.Now().UTC()
	m.mu.Lock()
	l := m.logs[runID]
	if l == nil {
		l = &memoryLog{}
		m.logs[runID] = l
	}
	if l.ended {
		m.mu.Unlock()
		return 0, fmt.Errorf("memory: append events to run %s: the log has ended: %w", runID, ErrConflict)
	}
	first := int64(len(l.events))
	for i, e := range events {
		e.Index, e.CreatedAt, e.Data = first+int64(i), now, slices.Clone(e.Data)
		l.events = append(l.events, e)
	}
	l.ended = events[len(events)-1].Type == EventEnd
	l.updated = now
	m.mu.Unlock()
	m.hub.Notify(runID)
	return first, nil
}

func (m *memoryEvents) ReadEvents(_ context.Context, runID string, from int64, limit int) ([]Event, error) {
	if err := CheckReadEvents(runID, from); err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[runID]
	if l == nil || from >= int64(len(l.events)) {
		return nil, nil
	}
	out := l.events[from:]
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	out = slices.Clone(out)
	for i := range out {
		out[i].Data = slices.Clone(out[i].Data)
	}
	return out, nil
}

func (m *memoryEvents) WaitEvents(ctx context.Context, runID string, after int64) error {
	if err := CheckReadEvents(runID, after+1); err != nil {
		return fmt.Errorf("memory: wait: %w", err)
	}
	return m.hub.Wait(ctx, runID, 0, func() (bool, error) {
		m.mu.Lock()
		defer m.mu.Unlock()
		l := m.logs[runID]
		return l != nil && (l.ended || int64(len(l.events)) > after+1), nil
	})
}

func (m *memoryEvents) DeleteEvents(_ context.Context, old OldEvents) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	removed := 0
	for id, l := range m.logs {
		if (l.ended && l.updated.Before(old.EndedBefore)) || l.updated.Before(old.IdleBefore) {
			delete(m.logs, id)
			removed++
		}
	}
	return removed, nil
}
