package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// observeIdleTimeout ends an observe stream that has had no event for
// this long (a run that stopped without an end), as Mastra's route does.
var observeIdleTimeout = 5 * time.Minute

var (
	errAgentRunNotFound = errorf(http.StatusNotFound, "Agent run not found")
	errForbiddenRun     = errorf(http.StatusForbidden, "Access denied: run belongs to a different resource")
)

// observeRequest is the body of POST /agents/{agentId}/observe.
type observeRequest struct {
	runID  string
	offset int64
}

// parseObserve reads {runId: string, offset?: number}. A fraction is
// truncated (Mastra slices its history at it); a negative offset, which
// Mastra reads from the end, is refused.
func parseObserve(f fields) (observeRequest, error) {
	v := &validator{f: f}
	runID, _ := v.str("runId", true)
	offset, hasOffset := v.number("offset")
	if hasOffset && offset < 0 {
		v.add("offset", "Too small: expected number to be >=0")
	}
	if err := v.err(); err != nil {
		return observeRequest{}, err
	}
	return observeRequest{runID: runID, offset: int64(math.Min(math.Trunc(offset), math.MaxInt64))}, nil
}

// checkAgentRunOwner refuses (403) a run of another resource than the
// caller's, as checkThreadOwner refuses a thread: a run with no
// resource is anyone's. An unknown run is a 404.
func checkAgentRunOwner(ctx context.Context, a *agent.Agent, runID, resource string) error {
	owner, err := a.OwnerOfRun(ctx, runID)
	if errors.Is(err, agent.ErrRunNotFound) {
		return errAgentRunNotFound
	}
	if err != nil {
		return err
	}
	if resource != "" && owner.ResourceID != "" && owner.ResourceID != resource {
		return errForbiddenRun
	}
	return nil
}

// observeError is the answer to an error Observe yields before any
// event.
func observeError(err error) error {
	var oe *agent.OffsetError
	switch {
	case errors.Is(err, agent.ErrRunNotFound):
		return errAgentRunNotFound
	case errors.As(err, &oe):
		return invalidBody(wire.Issue{Field: "offset", Message: fmt.Sprintf("Offset %d is past the end of run %s, which has %d events", oe.Offset, oe.RunID, oe.Count)})
	}
	return err
}

// POST /agents/{agentId}/observe: the run's events from offset (default
// 0), then live ones, as SSE frames {type, runId, data, id, createdAt,
// index[, deliveryAttempt]}, then [DONE] after the run's last event.
func (s *Server) observeAgent(w http.ResponseWriter, r *http.Request) {
	f, err := s.readFields(r)
	var req observeRequest
	if err == nil {
		req, err = parseObserve(f)
	}
	var a *agent.Agent
	if err == nil {
		a, err = s.agent(r)
	}
	if err == nil {
		err = checkAgentRunOwner(r.Context(), a, req.runID, authResource(r))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	idle := time.AfterFunc(observeIdleTimeout, cancel)
	defer idle.Stop()
	var fw *wire.Framer
	for e, err := range a.Observe(ctx, req.runID, req.offset) {
		if err != nil {
			switch {
			case ctx.Err() != nil:
				if fw == nil && r.Context().Err() == nil {
					startStream(w, r, formatSSE) // idle: an empty stream
				}
			case fw == nil:
				s.writeError(w, r, observeError(err))
			default:
				s.log.ErrorContext(r.Context(), "observing an agent run failed", "path", r.URL.Path, "error", storage.ErrorDetail(err))
			}
			return
		}
		idle.Reset(observeIdleTimeout)
		if fw == nil {
			fw = startStream(w, r, formatSSE)
		}
		b, err := observeFrame(req.runID, e)
		if err != nil {
			s.log.WarnContext(r.Context(), "skipping a run event that cannot be encoded", "type", e.Type, "error", err)
			continue
		}
		if fw.Data(b) != nil {
			return
		}
	}
	if fw == nil {
		fw = startStream(w, r, formatSSE)
	}
	_ = fw.Done()
}

// observeFrame is Mastra's observe event: type, runId, data (the chunk
// as /stream sends it; a finish's payload; an iteration's summary), id
// (derived from the run and index, the same on every read), createdAt,
// index, and deliveryAttempt 1 on live events.
func observeFrame(runID string, e agent.RunEvent) ([]byte, error) {
	var data any
	switch {
	case e.Iteration != nil:
		data = e.Iteration
	case e.Type == agent.RunEventFinish:
		data = stream.Redact(e.Chunk).Payload
	default:
		data = stream.Redact(e.Chunk)
	}
	d, err := wire.MarshalNoHTML(data)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(d)+160)
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, e.Type)
	b = append(b, `,"runId":`...)
	b, _ = appendJSONString(b, runID)
	b = append(append(b, `,"data":`...), d...)
	b = append(b, `,"id":"`...)
	b = append(b, uuid.Derived("run-event", runID, strconv.FormatInt(e.Index, 10))...)
	b = append(b, `","createdAt":"`...)
	b = append(b, isoTime(e.CreatedAt)...)
	b = append(b, `","index":`...)
	b = strconv.AppendInt(b, e.Index, 10)
	if e.Live {
		b = append(b, `,"deliveryAttempt":1`...)
	}
	return append(b, '}'), nil
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) ([]byte, error) {
	q, err := wire.MarshalNoHTML(s)
	return append(b, q...), err
}
