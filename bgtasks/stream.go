package bgtasks

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/gomastra/mastra/storage"
)

// subscribers are the live readers of a Manager's events (Stream,
// WaitForNextTask). Each has its own unbounded queue, so a slow reader
// never holds up a task.
type subscribers struct {
	mu   sync.Mutex
	next int
	subs map[int]*subscriber
}

type subscriber struct {
	filter StreamFilter
	mu     sync.Mutex
	queue  []Event
	signal chan struct{} // buffered 1: the queue grew
}

func (s *subscribers) add(f StreamFilter) (*subscriber, func()) {
	sub := &subscriber{filter: f, signal: make(chan struct{}, 1)}
	s.mu.Lock()
	if s.subs == nil {
		s.subs = map[int]*subscriber{}
	}
	id := s.next
	s.next++
	s.subs[id] = sub
	s.mu.Unlock()
	return sub, func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

func (s *subscribers) send(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sub := range s.subs {
		if sub.filter.matches(e.Task) {
			sub.push(e)
		}
	}
}

func (sub *subscriber) push(e Event) {
	sub.mu.Lock()
	sub.queue = append(sub.queue, e)
	sub.mu.Unlock()
	select {
	case sub.signal <- struct{}{}:
	default:
	}
}

// take returns the queued events, waiting for one until ctx ends (nil
// then).
func (sub *subscriber) take(ctx context.Context, poll <-chan time.Time) []Event {
	for {
		sub.mu.Lock()
		q := sub.queue
		sub.queue = nil
		sub.mu.Unlock()
		if len(q) > 0 {
			return q
		}
		select {
		case <-sub.signal:
		case <-poll:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

func (f StreamFilter) matches(t Task) bool {
	return (f.AgentID == "" || f.AgentID == t.AgentID) &&
		(f.RunID == "" || f.RunID == t.RunID) &&
		(f.ThreadID == "" || f.ThreadID == t.ThreadID) &&
		(f.ResourceID == "" || f.ResourceID == t.ResourceID) &&
		(len(f.TaskIDs) == 0 || slices.Contains(f.TaskIDs, t.ID))
}

// publish sends e to the task's OnEvent hook and to the subscribers.
func (m *Manager) publish(e Event) {
	if h := m.hooksOf(e.Task.ID); h != nil && h.OnEvent != nil {
		h.OnEvent(e)
	}
	m.subs.send(e)
}

// Stream yields the lifecycle events of the tasks filter selects, for
// dashboards: first a TypeRunning event for each task Running now (its
// snapshot), then the events of each task's changes, until ctx ends
// (then it ends without an error) or the reader stops. The events this
// Manager publishes come at once; the changes other processes sharing
// the store make are read from it every Config.PollInterval (their
// record's new state: no output events). Each state of a task is
// yielded once. A store error ends it with the error.
func (m *Manager) Stream(ctx context.Context, filter StreamFilter) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		sub, remove := m.subs.add(filter)
		defer remove()
		st := &streamState{filter: filter, seen: map[string]int64{}, started: time.Now()}
		snapshot, err := st.read(ctx, m.store, Filter{Status: []Status{Running}})
		if err != nil {
			yield(Event{}, err)
			return
		}
		if !st.yieldAll(snapshot, yield) {
			return
		}
		poll := time.NewTicker(m.cfg.PollInterval)
		defer poll.Stop()
		for ctx.Err() == nil {
			events := sub.take(ctx, poll.C)
			if time.Since(st.polled) >= m.cfg.PollInterval && ctx.Err() == nil {
				changed, err := st.poll(ctx, m.store)
				if err != nil {
					yield(Event{}, err)
					return
				}
				events = append(events, changed...)
			}
			if !st.yieldAll(events, yield) {
				return
			}
		}
	}
}

// WaitForNextTask returns the first of the tasks ids to be finished
// (Terminal): at once when one already is, else when this Manager
// publishes one's end or, for tasks run elsewhere, when the store shows
// it (checked every Config.PollInterval). It fails with ctx's error
// when ctx ends first, at once when ids is empty, with storage.ErrNotFound
// ("Task not found: <id>") when one of the tasks does not exist (or was
// deleted meanwhile), and with the store's error when reading fails.
func (m *Manager) WaitForNextTask(ctx context.Context, ids []string) (Task, error) {
	if len(ids) == 0 {
		return Task{}, errors.New("bgtasks: WaitForNextTask: no task ids")
	}
	sub, remove := m.subs.add(StreamFilter{TaskIDs: ids})
	defer remove()
	poll := time.NewTicker(m.cfg.PollInterval)
	defer poll.Stop()
	for {
		if t, err := m.firstTerminal(ctx, ids); err != nil || t.Status.Terminal() {
			return t, err
		}
		for _, e := range sub.take(ctx, poll.C) {
			if e.Task.Status.Terminal() {
				return e.Task, nil
			}
		}
	}
}

// firstTerminal returns the first of the tasks ids whose record is
// terminal (a zero Task when none is), or ctx's error, or the error of
// reading one.
func (m *Manager) firstTerminal(ctx context.Context, ids []string) (Task, error) {
	for _, id := range ids {
		t, err := m.store.GetTask(ctx, id)
		if cerr := ctx.Err(); cerr != nil {
			return Task{}, cerr
		}
		if errors.Is(err, storage.ErrNotFound) {
			return Task{}, taskNotFound(id)
		}
		if err != nil {
			return Task{}, fmt.Errorf("bgtasks: WaitForNextTask: %w", err)
		}
		if t.Status.Terminal() {
			return t, nil
		}
	}
	return Task{}, ctx.Err()
}
