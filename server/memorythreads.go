package server

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/storage"
)

// threadJSON is a memory thread as Mastra's memory routes answer it.
type threadJSON struct {
	ID         string         `json:"id"`
	Title      string         `json:"title"`
	ResourceID string         `json:"resourceId"`
	CreatedAt  string         `json:"createdAt"`
	UpdatedAt  string         `json:"updatedAt"`
	Metadata   map[string]any `json:"metadata,omitempty"`
}

func toThreadJSON(t storage.Thread) threadJSON {
	return threadJSON{ID: t.ID, Title: t.Title, ResourceID: t.ResourceID,
		CreatedAt: isoTime(t.CreatedAt), UpdatedAt: isoTime(t.UpdatedAt), Metadata: t.Metadata}
}

// threadPage is GET /memory/threads's answer.
type threadPage struct {
	Threads []threadJSON `json:"threads"`
	Total   int          `json:"total"`
	Page    int          `json:"page"`
	PerPage any          `json:"perPage"`
	HasMore bool         `json:"hasMore"`
}

var errMemoryNotInitialized = errorf(http.StatusBadRequest, "Memory is not initialized")

// memoryReader is the agent whose memory a memory read goes to, as
// Mastra resolves it: named (the agent ?agentId= names, or nil) when it
// keeps memory, else the server's fallback (see fallbackAgent), or nil
// when there is none.
func (s *Server) memoryReader(named *agent.Agent) *agent.Agent {
	if named != nil && named.HasMemory() {
		return named
	}
	return s.fallbackAgent()
}

// namedAgent is the agent ?agentId= names, or nil.
func (s *Server) namedAgent(r *http.Request) *agent.Agent {
	if id := r.URL.Query().Get("agentId"); id != "" {
		return s.agentByID(id)
	}
	return nil
}

// fallbackAgent stands in for Mastra's own storage, which memory reads
// fall back to when no agent's memory answers: the first agent (in
// registration order) that keeps memory, or nil.
func (s *Server) fallbackAgent() *agent.Agent {
	for _, key := range s.m.AgentKeys() {
		if a, err := s.m.GetAgent(key); err == nil && a.HasMemory() {
			return a
		}
	}
	return nil
}

// memoryWriter is the agent a memory write names with ?agentId=: a 400
// without one, a 404 for an unknown agent, and Mastra's 400 "Memory is
// not initialized" for an agent that keeps no memory.
func (s *Server) memoryWriter(r *http.Request) (*agent.Agent, error) {
	a, err := s.memoryAgent(r)
	switch {
	case err != nil:
		return nil, err
	case a == nil:
		return nil, errorf(http.StatusNotFound, "Agent not found")
	case !a.HasMemory():
		return nil, errMemoryNotInitialized
	}
	return a, nil
}

// ownedThread reads a's thread and checks it against the caller's
// resource (the authenticated one, else ?resourceId= or the body's
// resourceId given as resource) by the agent routes' rule
// (agent.CheckThreadResource, as Mastra's enforceThreadAccess): 404
// "Thread not found", 403 for a thread of another resource; a thread
// without a resource, or no resource given, passes.
func ownedThread(r *http.Request, a *agent.Agent, threadID, resource string) (*storage.Thread, error) {
	th, err := a.Storage().GetThread(r.Context(), threadID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "Thread not found")
	}
	if err != nil {
		return nil, err
	}
	if auth := authResource(r); auth != "" {
		resource = auth
	}
	if resource != "" && th.ResourceID != resource {
		// The rule reads the thread again; only a mismatch needs it.
		if err := checkThreadOwner(r.Context(), a, threadID, resource); err != nil {
			return nil, err
		}
	}
	return th, nil
}

// GET /memory/threads?resourceId=&agentId=&metadata=&page=&perPage=&orderBy=
// -> threadPage: the resource's threads (every thread without one; the
// authenticated resource's with Options.Auth), those whose metadata holds
// every member of ?metadata= (a JSON object), newest first unless
// orderBy says otherwise, 100 a page.
func (s *Server) listThreads(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, err := readPageQuery(q, 100, true)
	var filter map[string]any
	if err == nil {
		filter, err = metadataFilter(q.Get("metadata"))
	}
	reader := s.memoryReader(s.namedAgent(r))
	if err == nil && reader == nil {
		err = errMemoryNotInitialized
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	resource := q.Get("resourceId")
	if auth := authResource(r); auth != "" {
		resource = auth
	}
	threads, err := reader.Storage().ListThreads(r.Context(), resource)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	threads = slices.DeleteFunc(threads, func(t storage.Thread) bool { return !metadataMatches(t.Metadata, filter) })
	sortThreads(threads, page)
	start, end, more := page.window(len(threads))
	out := threadPage{Threads: []threadJSON{}, Total: len(threads), Page: page.Page, PerPage: page.perPageJSON(), HasMore: more}
	for _, t := range threads[start:end] {
		out.Threads = append(out.Threads, toThreadJSON(t))
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// sortThreads orders threads (listed newest created first) as p asks.
func sortThreads(threads []storage.Thread, p pageQuery) {
	if p.ByUpdated {
		slices.SortStableFunc(threads, func(a, b storage.Thread) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	}
	if !p.Descending {
		slices.Reverse(threads)
	}
}

// GET /memory/threads/{threadId}?agentId=&resourceId= -> the thread.
func (s *Server) getThread(w http.ResponseWriter, r *http.Request) {
	reader := s.memoryReader(s.namedAgent(r))
	if reader == nil {
		s.writeError(w, r, errMemoryNotInitialized)
		return
	}
	th, err := ownedThread(r, reader, r.PathValue("threadId"), r.URL.Query().Get("resourceId"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, toThreadJSON(*th))
}

// POST /memory/threads?agentId= with {resourceId, title?, metadata?,
// threadId?} -> the thread, created (or, for an existing threadId of the
// same resource, given the new title and metadata). A new id is made
// when threadId is missing.
func (s *Server) createThread(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryWriter(r)
	var th storage.Thread
	if err == nil {
		th, err = s.readNewThread(r)
	}
	if err == nil {
		err = keepThreadCreation(r, a.Storage(), &th)
	}
	if err == nil {
		err = a.Storage().SaveThread(r.Context(), th)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, toThreadJSON(th))
}

// keepThreadCreation gives th, about to be saved, the creation time of
// the thread it replaces, if any; a thread of another resource is a 403.
func keepThreadCreation(r *http.Request, store storage.Store, th *storage.Thread) error {
	old, err := store.GetThread(r.Context(), th.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil
	case err != nil:
		return err
	case old.ResourceID != th.ResourceID:
		return errForbiddenThread
	}
	th.CreatedAt = old.CreatedAt
	return nil
}

// readNewThread reads createThread's body.
func (s *Server) readNewThread(r *http.Request) (storage.Thread, error) {
	f, err := s.readFields(r)
	if err != nil {
		return storage.Thread{}, err
	}
	v := &validator{f: f}
	resource, _ := v.str("resourceId", true)
	title, _ := v.str("title", false)
	metadata, _ := v.record("metadata")
	id, _ := v.str("threadId", false)
	if err := v.err(); err != nil {
		return storage.Thread{}, err
	}
	if auth := authResource(r); auth != "" {
		resource = auth
	}
	if id == "" {
		id = uuid.New()
	}
	now := time.Now().UTC()
	return storage.Thread{ID: id, ResourceID: resource, Title: title, Metadata: metadata, CreatedAt: now, UpdatedAt: now}, nil
}

// PATCH /memory/threads/{threadId}?agentId= with {title?, metadata?,
// resourceId?} -> the thread with the fields given replaced (metadata
// as a whole) and updatedAt now. With Options.Auth the thread keeps
// its resource.
func (s *Server) updateThread(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryWriter(r)
	var f fields
	if err == nil {
		f, err = s.readFields(r)
	}
	v := &validator{f: f}
	title, hasTitle := v.str("title", false)
	metadata, hasMetadata := v.record("metadata")
	resource, _ := v.str("resourceId", false)
	if err == nil {
		err = v.err()
	}
	var th *storage.Thread
	if err == nil {
		th, err = ownedThread(r, a, r.PathValue("threadId"), resource)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if hasTitle {
		th.Title = title
	}
	if hasMetadata {
		th.Metadata = metadata
	}
	if resource != "" && authResource(r) == "" {
		th.ResourceID = resource
	}
	th.UpdatedAt = time.Now().UTC()
	if err := a.Storage().SaveThread(r.Context(), *th); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, toThreadJSON(*th))
}

// DELETE /memory/threads/{threadId}?agentId=&resourceId= -> {"result":
// "Thread deleted"}: the thread, its messages and its state removed.
func (s *Server) deleteThread(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryWriter(r)
	if err == nil {
		_, err = ownedThread(r, a, r.PathValue("threadId"), r.URL.Query().Get("resourceId"))
	}
	if err == nil {
		err = a.DeleteThread(r.Context(), r.PathValue("threadId"))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, struct {
		Result string `json:"result"`
	}{"Thread deleted"})
}
