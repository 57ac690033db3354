package bgtasks

import (
	"context"
	"time"
)

// streamState is what one Stream has yielded: the version of each
// task's last state, so that a state seen both as this Manager's event
// and in the store is yielded once, and when it last read the store.
// A finished task is forgotten once no read of the store can show it
// again (it finished before the reads' window).
type streamState struct {
	filter   StreamFilter
	seen     map[string]int64
	finished map[string]time.Time // by task id: when a task seen finished did
	started  time.Time            // tasks finished before it are not news
	polled   time.Time
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
	if e.Task.Status.Terminal() {
		if st.finished == nil {
			st.finished = map[string]time.Time{}
		}
		st.finished[e.Task.ID] = e.Task.CompletedAt
	}
	return true
}

// forgetFinishedBefore forgets the finished tasks that finished before
// since: the reads of the store from since on do not show them.
func (st *streamState) forgetFinishedBefore(since time.Time) {
	for id, at := range st.finished {
		if at.Before(since) {
			delete(st.finished, id)
			delete(st.seen, id)
		}
	}
}

// poll reads the changes of the filter's tasks since the last poll: the
// ones running or suspended now, and those finished since.
func (st *streamState) poll(ctx context.Context, store Store) ([]Event, error) {
	since := st.polled.Add(-pollMargin)
	if since.Before(st.started) {
		since = st.started
	}
	st.forgetFinishedBefore(since)
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
