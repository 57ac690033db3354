package bgtasks

import (
	"context"
	"time"
)

// streamState is what one Stream has yielded: the version of each
// task's last state, so that a state seen both as this Manager's event
// and in the store is yielded once, and when it last read the store.
type streamState struct {
	filter  StreamFilter
	seen    map[string]int64
	started time.Time // tasks finished before it are not news
	polled  time.Time
}

// pollMargin widens each read of the store's recently finished tasks
// back in time, for clocks of other processes a little behind ours.
const pollMargin = 5 * time.Second

// yieldAll yields the events not yielded before; false when the reader
// stopped.
func (st *streamState) yieldAll(events []Event, yield func(Event, error) bool) bool {
	for _, e := range events {
		if st.fresh(e) && !yield(e, nil) {
			return false
		}
	}
	return true
}

// fresh reports whether e is news to the stream, and notes it: an
// output event always is, another only for a newer version of its task.
func (st *streamState) fresh(e Event) bool {
	if e.Type == TypeOutput {
		return true
	}
	if e.Task.Version <= st.seen[e.Task.ID] && e.Task.Version != 0 {
		return false
	}
	st.seen[e.Task.ID] = e.Task.Version
	return true
}

// poll reads the changes of the filter's tasks since the last poll: the
// ones running or suspended now, and those finished since.
func (st *streamState) poll(ctx context.Context, store Store) ([]Event, error) {
	since := st.polled.Add(-pollMargin)
	if since.Before(st.started) {
		since = st.started
	}
	live, err := st.read(ctx, store, Filter{Status: []Status{Running, Suspended}})
	if err != nil {
		return nil, err
	}
	done, err := st.read(ctx, store, Filter{
		Status:   []Status{Completed, Failed, TimedOut, Cancelled},
		FromDate: since, DateFilterBy: ByCompletedAt, OrderBy: ByCompletedAt,
	})
	return append(live, done...), err
}

// read returns the events of the state of the tasks f and the stream's
// filter select, and notes the time.
func (st *streamState) read(ctx context.Context, store Store, f Filter) ([]Event, error) {
	st.polled = time.Now()
	f.AgentID, f.RunID, f.ThreadID, f.ResourceID = st.filter.AgentID, st.filter.RunID, st.filter.ThreadID, st.filter.ResourceID
	tasks, _, err := store.ListTasks(ctx, f)
	if err != nil {
		return nil, err
	}
	var events []Event
	for _, t := range tasks {
		if st.filter.matches(t) {
			events = append(events, Event{Type: stateEvent(t), Task: t})
		}
	}
	return events, nil
}

// stateEvent is the type of the event of a task's state.
func stateEvent(t Task) string {
	switch t.Status {
	case Running:
		if !t.SuspendedAt.IsZero() {
			return TypeResumed
		}
		return TypeRunning
	case Suspended:
		return TypeSuspended
	case Completed:
		return TypeCompleted
	case Cancelled:
		return TypeCancelled
	}
	return TypeFailed
}
