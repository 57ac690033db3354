package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Event is one entry of a run's event log: a chunk of the run's stream,
// as the run produced it.
type Event struct {
	// Index is the event's place in its run's log: 0 for the first
	// event, then each next one. The store assigns it (AppendEvents
	// ignores the given one).
	Index int64 `json:"index"`
	// Type names the event (a chunk's type); EventEnd ends the log.
	Type string `json:"type"`
	// Data is the event's JSON, opaque to the store; it may be empty.
	Data json.RawMessage `json:"data,omitempty"`
	// CreatedAt is the time of the append, in UTC (set by the store).
	CreatedAt time.Time `json:"createdAt"`
}

// EventEnd is the Type of the event that ends a run's log: the last
// event a log holds. A reader that reads it has read the whole log; an
// append after it fails with ErrConflict.
const EventEnd = "end"

// RunEvents keeps each run's event log: the events of the run, in order,
// numbered from 0, which readers read from any offset and follow while
// they are appended, in this process or, on PostgreSQL, in any process
// sharing the database. A follower reads, and waits when it has read
// everything so far:
//
//	next := int64(0)
//	for {
//		events, err := log.ReadEvents(ctx, runID, next, 100)
//		if err != nil {
//			return err
//		}
//		for _, e := range events {
//			if e.Type == storage.EventEnd {
//				return nil
//			}
//			send(e)
//			next = e.Index + 1
//		}
//		if len(events) == 0 {
//			if err := log.WaitEvents(ctx, runID, next-1); err != nil {
//				return err
//			}
//		}
//	}
type RunEvents interface {
	// AppendEvents appends events to the run's log, all or none, and
	// returns the index the first of them got; the others follow it.
	// Indexes are the store's: concurrent appends to one run, from any
	// goroutine or process, get contiguous, distinct indexes. An event
	// of type EventEnd ends the log and must be the last of its batch;
	// an append to an ended log fails with ErrConflict. The run id must
	// not be empty, each event needs a Type, and Data must be empty or
	// valid JSON.
	AppendEvents(ctx context.Context, runID string, events ...Event) (first int64, err error)
	// ReadEvents returns the run's events from index from on, in order,
	// at most limit of them (all when limit <= 0): none when from is at
	// or past the end of the log, or the run has no log. A negative
	// from is an error.
	ReadEvents(ctx context.Context, runID string, from int64, limit int) ([]Event, error)
	// WaitEvents returns nil as soon as the run's log holds an event of
	// index above after (after -1: any event) or has ended, or ctx's
	// error when ctx ends first. It does not read the events. It waits
	// for a log that does not exist yet. after below -1 is an error.
	WaitEvents(ctx context.Context, runID string, after int64) error
	// DeleteEvents removes the logs old selects, with all their events,
	// and returns how many logs it removed.
	DeleteEvents(ctx context.Context, old OldEvents) (int, error)
}

// OldEvents selects the run event logs DeleteEvents removes: those
// ended before EndedBefore, and those, ended or not, last appended to
// before IdleBefore (the logs of runs that stopped without an end). A
// zero time selects nothing.
type OldEvents struct {
	EndedBefore time.Time
	IdleBefore  time.Time
}

// CheckEvents checks the arguments of AppendEvents: runID must be a
// non-empty id (CheckID), there must be at least one event, each with a
// Type and with Data empty or valid JSON, and an EventEnd only last.
func CheckEvents(runID string, events []Event) error {
	switch {
	case runID == "":
		return errors.New("append events: empty run id")
	case len(events) == 0:
		return fmt.Errorf("append events to run %s: no events", runID)
	}
	if err := CheckID(runID); err != nil {
		return fmt.Errorf("append events: run id: %w", err)
	}
	for i, e := range events {
		switch {
		case e.Type == "":
			return fmt.Errorf("append events to run %s: event %d: empty type", runID, i)
		case e.Type == EventEnd && i != len(events)-1:
			return fmt.Errorf("append events to run %s: event %d: %q must be the last event", runID, i, EventEnd)
		}
		if err := CheckJSON(e.Data); err != nil {
			return fmt.Errorf("append events to run %s: event %d: data: %w", runID, i, err)
		}
	}
	return nil
}

// CheckReadEvents checks the arguments of ReadEvents (from must not be
// negative) and of WaitEvents (after must be -1 or more: pass from-1).
func CheckReadEvents(runID string, from int64) error {
	if from < 0 {
		return fmt.Errorf("read events of run %s: negative offset %d", runID, from)
	}
	return nil
}
