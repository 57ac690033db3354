package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/memory/observational"
)

// bufferWait is how long POST /memory/observational-memory/buffer-status
// waits for a buffered observation in flight, as Mastra's
// waitForBuffering: after it the route answers the record as it is.
const bufferWait = 30 * time.Second

// omProcessor is a's observational-memory processor (its ID is
// "observational-memory"), or nil.
func omProcessor(a *agent.Agent) *observational.Processor {
	for _, p := range a.Processors() {
		if om, ok := p.(*observational.Processor); ok && om.ID() == observational.ProcessorID {
			return om
		}
	}
	return nil
}

// observationalOf is the observational memory of the agent with that
// id: 404 "Agent not found" for none, Mastra's 400 for an agent without
// observational memory.
func (s *Server) observationalOf(id string) (*observational.Processor, error) {
	a := s.agentByID(id)
	if a == nil {
		return nil, errorf(http.StatusNotFound, "Agent not found")
	}
	if om := omProcessor(a); om != nil {
		return om, nil
	}
	return nil, errorf(http.StatusBadRequest, "Observational Memory is not enabled for this agent")
}

// omAnswer is the observational-memory routes' answer: the current
// record (null when none is stored) and, for GET, the generations the
// query selects (left out when none).
type omAnswer struct {
	Record  *observational.Record  `json:"record"`
	History []observational.Record `json:"history,omitempty"`
}

// omQuery is GET /memory/observational-memory's query.
type omQuery struct {
	agentID, resourceID, threadID string
	history                       observational.HistoryQuery
}

// GET /memory/observational-memory?agentId=&resourceId=&threadId=&from=&to=&offset=&limit=
// -> omAnswer: the record of the thread's observations (in resource
// scope, the resource's; in thread scope without threadId, none) and up
// to limit (5) of its generations, newest first, created within
// [from, to], offset skipped. Mastra's errors: 400 for a query that
// fails its schema, 404 for an unknown agent, 400 for an agent without
// observational memory and for a missing resourceId. With Options.Auth
// the authenticated resource replaces resourceId.
func (s *Server) getObservationalMemory(w http.ResponseWriter, r *http.Request) {
	q, err := readOMQuery(r.URL.Query())
	var om *observational.Processor
	if err == nil {
		om, err = s.observationalOf(q.agentID)
	}
	if auth := authResource(r); auth != "" {
		q.resourceID = auth
	}
	if err == nil && q.resourceID == "" {
		err = errorf(http.StatusBadRequest, "resourceId is required for observational memory lookup")
	}
	var out omAnswer
	if err == nil {
		out.Record, err = omRecord(r.Context(), om, q.threadID, q.resourceID)
	}
	if err == nil && out.Record != nil {
		out.History, err = om.History(r.Context(), q.threadID, q.resourceID, q.history)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// POST /memory/observational-memory/buffer-status with {agentId,
// resourceId?, threadId?} -> {record}: the record (null when none is
// stored) once the buffered observation in flight for it has ended, or
// bufferWait has passed. Mastra's errors: 400 for a body that fails its
// schema, 404 for an unknown agent, 400 for an agent without
// observational memory and, after the wait, for a missing resourceId.
// With Options.Auth the authenticated resource replaces resourceId.
func (s *Server) awaitBufferStatus(w http.ResponseWriter, r *http.Request) {
	f, err := s.readFields(r)
	v := &validator{f: f}
	agentID, _ := v.str("agentId", true)
	resourceID, _ := v.str("resourceId", false)
	threadID, _ := v.str("threadId", false)
	if err == nil {
		err = v.err()
	}
	var om *observational.Processor
	if err == nil {
		om, err = s.observationalOf(agentID)
	}
	if auth := authResource(r); auth != "" {
		resourceID = auth
	}
	if err == nil {
		err = waitForBuffering(r.Context(), om, threadID, resourceID)
	}
	if err == nil && resourceID == "" {
		err = errorf(http.StatusBadRequest, "resourceId is required")
	}
	var out omAnswer
	if err == nil {
		out.Record, err = omRecord(r.Context(), om, threadID, resourceID)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// waitForBuffering waits, at most bufferWait, for om's buffered
// observation of the record in flight; only the request's own end is an
// error.
func waitForBuffering(ctx context.Context, om *observational.Processor, threadID, resourceID string) error {
	wait, cancel := context.WithTimeout(ctx, bufferWait)
	defer cancel()
	err := om.WaitForBuffering(wait, threadID, resourceID)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return nil
	}
	return err
}

// omRecord is the stored record of threadID's observations (of
// resourceID's in resource scope), with its flags, or nil when none is
// stored, as Mastra's getObservationalMemory(scope == "resource" ? null
// : threadId, resourceId) finds it: in thread scope without a thread,
// none.
func omRecord(ctx context.Context, om *observational.Processor, threadID, resourceID string) (*observational.Record, error) {
	if threadID == "" && om.Settings().Scope != observational.ScopeResource {
		return nil, nil
	}
	rec, ok, err := om.Stored(ctx, threadID, resourceID)
	if err != nil || !ok {
		return nil, err
	}
	return &rec, nil
}

// readOMQuery reads and checks GET /memory/observational-memory's
// query as Mastra's schema does (agentId required; from and to dates;
// offset an integer >= 0, limit one >= 1, 5 when missing).
func readOMQuery(q url.Values) (omQuery, error) {
	out := omQuery{agentID: q.Get("agentId"), resourceID: q.Get("resourceId"), threadID: q.Get("threadId")}
	var issues wire.Issues
	if !q.Has("agentId") {
		issues.Add("agentId", zodmsg.Expected("string", nil))
	}
	for _, d := range []struct {
		key string
		t   **time.Time
	}{{"from", &out.history.From}, {"to", &out.history.To}} {
		if !q.Has(d.key) {
			continue
		}
		t, ok := parseJSDate(q.Get(d.key))
		if !ok {
			issues.Add(d.key, "Invalid input: expected date, received Date")
		}
		*d.t = &t
	}
	out.history.Offset = coercedInt(q, "offset", 0, &issues)
	out.history.Limit = coercedInt(q, "limit", 1, &issues)
	if !q.Has("limit") {
		out.history.Limit = observational.DefaultHistoryLimit
	}
	if len(issues) > 0 {
		return out, invalidQuery(issues...)
	}
	return out, nil
}

// coercedInt reads query parameter key as zod's
// z.coerce.number().int().min(min) does ("" is 0); 0 when it is
// missing, with an issue added when it is not such a number.
func coercedInt(q url.Values, key string, min int, issues *wire.Issues) int {
	if !q.Has(key) {
		return 0
	}
	f := 0.0
	if s := q.Get(key); s != "" {
		var err error
		if f, err = strconv.ParseFloat(s, 64); err != nil || math.IsNaN(f) {
			issues.Add(key, "Invalid input: expected number, received NaN")
			return 0
		}
	}
	switch {
	case f != math.Trunc(f):
		issues.Add(key, "Invalid input: expected int, received number")
	case f < float64(min):
		issues.Add(key, "Too small: expected number to be >="+strconv.Itoa(min))
	}
	return int(math.Min(f, math.MaxInt32)) // past any list
}

// localStatus is GET /memory/status's answer for an agent with
// observational memory.
type localStatus struct {
	Result              bool     `json:"result"`
	MemoryType          string   `json:"memoryType"`
	ObservationalMemory omStatus `json:"observationalMemory"`
}

// omStatus is what GET /memory/status tells of an agent's observational
// memory, as Mastra's getOMStatus: enabled alone without ?resourceId=;
// else whether a record is stored (false when it cannot be read) and,
// if so, its state.
type omStatus struct {
	Enabled               bool    `json:"enabled"`
	HasRecord             *bool   `json:"hasRecord,omitempty"`
	OriginType            string  `json:"originType,omitempty"`
	LastObservedAt        *string `json:"lastObservedAt,omitempty"`
	TokenCount            *int    `json:"tokenCount,omitempty"`
	ObservationTokenCount *int    `json:"observationTokenCount,omitempty"`
	IsObserving           *bool   `json:"isObserving,omitempty"`
	IsReflecting          *bool   `json:"isReflecting,omitempty"`
}

// omStatusOf is om's status for the record of ?threadId= (of
// ?resourceId= in resource scope; the authenticated resource with
// Options.Auth).
func omStatusOf(r *http.Request, om *observational.Processor) omStatus {
	q := r.URL.Query()
	resourceID := q.Get("resourceId")
	if auth := authResource(r); auth != "" {
		resourceID = auth
	}
	st := omStatus{Enabled: true}
	if resourceID == "" {
		return st
	}
	rec, err := omRecord(r.Context(), om, q.Get("threadId"), resourceID)
	st.HasRecord = ptrTo(err == nil && rec != nil)
	if !*st.HasRecord {
		return st
	}
	st.OriginType = rec.OriginType
	if rec.LastObservedAt != nil {
		st.LastObservedAt = ptrTo(isoTime(*rec.LastObservedAt))
	}
	st.TokenCount, st.ObservationTokenCount = &rec.TotalTokensObserved, &rec.ObservationTokenCount
	st.IsObserving, st.IsReflecting = &rec.IsObserving, &rec.IsReflecting
	return st
}

func ptrTo[T any](v T) *T { return &v }
