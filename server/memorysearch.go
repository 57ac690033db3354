package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/storage"
)

// searchQuery is GET /memory/search's query.
type searchQuery struct {
	agentID string
	search  agent.MemorySearch
	// limit is the query's limit (20 when missing), applied to the
	// results as JavaScript's slice(0, limit) does.
	limit float64
}

// GET /memory/search?agentId=&searchQuery=&resourceId=&threadId=&limit=&memoryConfig=
// -> agent.MemorySearchResult: the agent's memory searched (see
// Agent.SearchMemory). Mastra's errors: 400 for a query that fails its
// schema or an empty searchQuery or resourceId, 404 for an unknown
// agent, 400 "Memory is not initialized" for an agent without memory,
// and the 403 and 500s of checkSearchedThread. With Options.Auth the
// authenticated resource replaces resourceId. memoryConfig is checked
// (a JSON object) but not applied.
func (s *Server) searchMemory(w http.ResponseWriter, r *http.Request) {
	q, err := readSearchQuery(r.URL.Query())
	if auth := authResource(r); auth != "" {
		q.search.ResourceID = auth
	}
	switch {
	case err != nil:
	case q.search.Query == "":
		err = errorf(http.StatusBadRequest, `Argument "searchQuery" is required`)
	case q.search.ResourceID == "":
		err = errorf(http.StatusBadRequest, `Argument "resourceId" is required`)
	}
	var a *agent.Agent
	if err == nil {
		a, err = s.memoryWriter(r)
	}
	if err == nil {
		err = checkSearchedThread(r, a, q.search.ThreadID, q.search.ResourceID)
	}
	var res *agent.MemorySearchResult
	if err == nil {
		res, err = a.SearchMemory(r.Context(), q.search)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res.Results = jsSlice(res.Results, q.limit)
	res.Count = len(res.Results)
	s.writeJSON(w, r, http.StatusOK, res)
}

// checkSearchedThread fails a search of threadID as Mastra's does:
// with semantic recall of thread scope, a thread of another resource is
// a 403 (enforceThreadAccess); otherwise, a thread not stored (without
// semantic recall) or of another resource is Mastra's memory error, a
// 500. An agent that reads no memory at all checks nothing.
func checkSearchedThread(r *http.Request, a *agent.Agent, threadID, resourceID string) error {
	sr := a.RecallSettings()
	if threadID == "" || (sr == nil && a.LastMessages() < 0) {
		return nil
	}
	th, err := a.Storage().GetThread(r.Context(), threadID)
	switch {
	case errors.Is(err, storage.ErrNotFound) && sr == nil:
		return errorf(http.StatusInternalServerError, "No thread found with id "+threadID)
	case errors.Is(err, storage.ErrNotFound):
		return nil
	case err != nil:
		return err
	case sr != nil && sr.Scope == agent.ScopeThread && th.ResourceID != resourceID:
		if err := checkThreadOwner(r.Context(), a, threadID, resourceID); err != nil {
			return err
		}
	}
	if th.ResourceID != resourceID {
		return errorf(http.StatusInternalServerError, fmt.Sprintf("Thread with id %s is for resource with id %s but resource %s was queried.", threadID, th.ResourceID, resourceID))
	}
	return nil
}

// readSearchQuery reads and checks GET /memory/search's query as
// Mastra's schema does: agentId, searchQuery and resourceId strings;
// limit a number (20 when missing); memoryConfig a JSON object.
func readSearchQuery(q url.Values) (searchQuery, error) {
	out := searchQuery{agentID: q.Get("agentId"), limit: agent.DefaultMemorySearchLimit, search: agent.MemorySearch{
		Query: q.Get("searchQuery"), ResourceID: q.Get("resourceId"), ThreadID: q.Get("threadId")}}
	var issues wire.Issues
	for _, key := range []string{"agentId", "searchQuery", "resourceId"} {
		if !q.Has(key) {
			issues.Add(key, zodmsg.Expected("string", nil))
		}
	}
	if q.Has("limit") {
		out.limit = 0
		if s := q.Get("limit"); s != "" {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(f) {
				issues.Add("limit", "Invalid input: expected number, received NaN")
			}
			out.limit = f
		}
	}
	if q.Has("memoryConfig") {
		raw := json.RawMessage(q.Get("memoryConfig"))
		if !json.Valid(raw) { // Mastra's JSON.parse fails: the string itself is checked
			raw = json.RawMessage(strconv.Quote(string(raw)))
		}
		if zodmsg.TypeOf(raw) != "object" {
			issues.Add("memoryConfig", zodmsg.Expected("record", raw))
		}
	}
	if len(issues) > 0 {
		return out, invalidQuery(issues...)
	}
	if out.limit >= 1 {
		out.search.Limit = int(min(out.limit, math.MaxInt32))
	}
	return out, nil
}

// jsSlice is JavaScript's list.slice(0, end): end truncated toward
// zero, a negative end counting from the back.
func jsSlice[T any](list []T, end float64) []T {
	n := float64(len(list))
	switch end = math.Trunc(end); {
	case end < 0:
		end = max(n+end, 0)
	case end > n:
		end = n
	}
	return list[:int(end)]
}
