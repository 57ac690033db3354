package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// The logs a run has besides its events in a shared store: who it is
// for (one event, written when it starts) and the abort requests for it.
const (
	ownerLogSuffix = "#owner"
	abortLogSuffix = "#abort"
)

// storeLog is a run event log in a storage.RunEvents, which other
// processes sharing the store read (and abort runs through). Events are
// appended by a goroutine per run, in batches, so that a run does not
// wait for the store on each chunk; a run's first event is appended
// before the run goes on, so that a reader finds the run as soon as it
// has started.
type storeLog struct {
	events storage.RunEvents
	log    *slog.Logger
}

func (s *storeLog) shared() bool { return true }

func (s *storeLog) publisher(runID string, owner RunOwner) publisher {
	return &storePublisher{store: s, runID: runID, owner: owner, first: true}
}

// storeLinger is how long a run's events wait to be appended with the
// ones that follow them: a shared store gets one write per linger, not
// one per chunk, and readers in other processes see events this much
// later at most.
const storeLinger = 20 * time.Millisecond

// storePublisher appends one run's events: the first one at once, the
// others by its goroutine, in batches, in order.
type storePublisher struct {
	store   *storeLog
	runID   string
	owner   RunOwner
	first   bool
	failed  bool
	mu      sync.Mutex
	pending []storage.Event
	closing bool
	wake    chan struct{} // an event is pending
	closed  chan struct{} // closed by close: write what is pending now
	done    chan struct{} // closed once the goroutine has written all
}

func (p *storePublisher) publish(e RunEvent) {
	se, err := encodeEvent(e)
	if err != nil {
		p.store.log.Warn("agent: a run event that cannot be encoded is not logged", "runId", p.runID, "type", e.Type, "error", err)
		return
	}
	if p.first {
		p.first = false
		p.publishFirst(se)
		return
	}
	p.mu.Lock()
	p.pending = append(p.pending, se)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// publishFirst appends the run's owner (when it has one) and first
// event, then starts the goroutine that appends the others.
func (p *storePublisher) publishFirst(e storage.Event) {
	p.logOwner()
	if err := p.append(p.runID, e); err != nil {
		p.fail(err)
	}
	p.wake, p.closed, p.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	go p.loop()
}

// logOwner appends the run's owner, when it has one, to its owner log
// (once: a second append finds the log ended).
func (p *storePublisher) logOwner() {
	if p.owner == (RunOwner{}) {
		return
	}
	owner, _ := json.Marshal(p.owner)
	if err := p.append(p.runID+ownerLogSuffix, storage.Event{Type: "owner", Data: owner}, storage.Event{Type: storage.EventEnd}); err != nil && !errors.Is(err, storage.ErrConflict) {
		p.store.log.Warn("agent: cannot log the run's owner", "runId", p.runID, "error", storage.ErrorDetail(err))
	}
}

// loop appends the pending events a linger after the first of them is
// published, or at once when the run ends, until it has appended the
// final one.
func (p *storePublisher) loop() {
	defer close(p.done)
	linger := time.NewTimer(storeLinger)
	defer linger.Stop()
	for {
		select {
		case <-p.wake:
			linger.Reset(storeLinger)
			select {
			case <-linger.C:
			case <-p.closed:
			}
		case <-p.closed:
		}
		p.mu.Lock()
		batch, closing := p.pending, p.closing
		p.pending = nil
		p.mu.Unlock()
		if len(batch) > 0 && !p.failed {
			if err := p.append(p.runID, batch...); err != nil {
				p.fail(err)
			}
		}
		if closing {
			return
		}
	}
}

// storeAppendTimeout bounds one append to the store: a store that hangs
// fails the run's publishing (the run goes on without it) instead of
// holding the run at its first chunk and at its end.
var storeAppendTimeout = 30 * time.Second

// append appends events to the log logID, within storeAppendTimeout.
func (p *storePublisher) append(logID string, events ...storage.Event) error {
	ctx, cancel := context.WithTimeout(context.Background(), storeAppendTimeout)
	defer cancel()
	_, err := p.store.events.AppendEvents(ctx, logID, events...)
	return err
}

// fail stops the publishing of a run whose log refuses appends (the
// run goes on without it).
func (p *storePublisher) fail(err error) {
	p.failed = true
	p.store.log.Error("agent: the run's events are no longer logged", "runId", p.runID, "error", storage.ErrorDetail(err))
}

// close appends the final event after the pending ones, at once, and
// waits until they are written. No publish follows it.
func (p *storePublisher) close(final string, _ bool) {
	if p.first {
		return // nothing was published
	}
	p.mu.Lock()
	p.pending = append(p.pending, storage.Event{Type: final})
	p.closing = true
	p.mu.Unlock()
	close(p.closed)
	<-p.done
}

// encodeEvent is e as the store keeps it: its chunk's JSON, or its
// iteration's.
func encodeEvent(e RunEvent) (storage.Event, error) {
	var data any
	switch {
	case e.Iteration != nil:
		data = e.Iteration
	case e.Type != eventEnd && e.Type != eventPause:
		data = e.Chunk
	default:
		return storage.Event{Type: e.Type}, nil
	}
	b, err := json.Marshal(data)
	return storage.Event{Type: e.Type, Data: b}, err
}

// decodeEvent is the RunEvent a stored event holds.
func decodeEvent(se storage.Event) (RunEvent, error) {
	e := RunEvent{Index: se.Index, Type: se.Type, CreatedAt: se.CreatedAt}
	switch se.Type {
	case eventEnd, eventPause:
		return e, nil
	case RunEventIterationComplete:
		e.Iteration = &Iteration{}
		if err := json.Unmarshal(se.Data, e.Iteration); err != nil {
			return e, fmt.Errorf("agent: event %d: %w", se.Index, err)
		}
		return e, nil
	}
	var c stream.Chunk
	if err := json.Unmarshal(se.Data, &c); err != nil {
		return e, fmt.Errorf("agent: event %d: %w", se.Index, err)
	}
	e.Chunk = c
	return e, nil
}

func (s *storeLog) read(ctx context.Context, runID string, from int64, limit int) ([]RunEvent, error) {
	stored, err := s.events.ReadEvents(ctx, runID, from, limit)
	if err != nil {
		return nil, err
	}
	out := make([]RunEvent, 0, len(stored))
	for _, se := range stored {
		e, err := decodeEvent(se)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func (s *storeLog) wait(ctx context.Context, runID string, after int64) error {
	return s.events.WaitEvents(ctx, runID, after)
}

func (s *storeLog) owner(ctx context.Context, runID string) (RunOwner, error) {
	events, err := s.events.ReadEvents(ctx, runID+ownerLogSuffix, 0, 1)
	if err != nil {
		return RunOwner{}, err
	}
	if len(events) == 0 {
		// A run without thread or resource logs no owner.
		if first, err := s.events.ReadEvents(ctx, runID, 0, 1); err != nil || len(first) == 0 {
			return RunOwner{}, cmp.Or(err, ErrRunNotFound)
		}
		return RunOwner{}, nil
	}
	var o RunOwner
	err = json.Unmarshal(events[0].Data, &o)
	return o, err
}

func (s *storeLog) sweep(ctx context.Context, old storage.OldEvents) error {
	_, err := s.events.DeleteEvents(ctx, old)
	return err
}

// requestAbort appends an abort request to the run's abort log, which
// the process running it watches. A second request finds the log ended:
// the run has been asked already.
func (s *storeLog) requestAbort(ctx context.Context, runID string) error {
	_, err := s.events.AppendEvents(ctx, runID+abortLogSuffix, storage.Event{Type: "abort"}, storage.Event{Type: storage.EventEnd})
	if errors.Is(err, storage.ErrConflict) {
		return nil
	}
	return err
}

// watchAborts calls abort when the run's abort log gets a request,
// until ctx ends. A store that fails is retried: a watch must not end
// while its run goes on.
func (s *storeLog) watchAborts(ctx context.Context, runID string, abort func()) {
	go func() {
		for ctx.Err() == nil {
			err := s.events.WaitEvents(ctx, runID+abortLogSuffix, -1)
			if err == nil {
				abort()
				return
			}
			if ctx.Err() == nil {
				s.log.Warn("agent: watching the run's abort requests failed", "runId", runID, "error", storage.ErrorDetail(err))
				select {
				case <-ctx.Done():
				case <-retryAfter():
				}
			}
		}
	}()
}
