package server

import (
	"errors"
	"net/http"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/storage"
)

// workingMemoryState is GET .../working-memory's answer: the document
// (null when none), where it lives, the agent's template (null without
// working memory) and whether the thread exists.
type workingMemoryState struct {
	WorkingMemory         *string                      `json:"workingMemory"`
	Source                string                       `json:"source"`
	WorkingMemoryTemplate *agent.WorkingMemoryTemplate `json:"workingMemoryTemplate"`
	ThreadExists          bool                         `json:"threadExists"`
}

// memoryAgent is the agent ?agentId= names (a missing one is a 400), or
// nil when no agent has that id.
func (s *Server) memoryAgent(r *http.Request) (*agent.Agent, error) {
	id := r.URL.Query().Get("agentId")
	if id == "" {
		return nil, invalidQuery(wire.Issue{Field: "agentId", Message: zodmsg.Expected("string", nil)})
	}
	return s.agentByID(id), nil
}

// GET /memory/threads/{threadId}/working-memory?agentId=&resourceId= ->
// workingMemoryState. An agent that is unknown or keeps no memory
// answers the empty state; a thread of another resource is a 403.
func (s *Server) getWorkingMemory(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryAgent(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if a == nil || !a.HasMemory() {
		s.writeJSON(w, r, http.StatusOK, workingMemoryState{Source: "thread"})
		return
	}
	threadID, resourceID := r.PathValue("threadId"), r.URL.Query().Get("resourceId")
	if auth := authResource(r); auth != "" {
		resourceID = auth
	}
	state := workingMemoryState{Source: "thread", WorkingMemoryTemplate: a.WorkingMemoryTemplate()}
	if a.WorkingMemoryScope() != agent.ScopeThread && resourceID != "" {
		state.Source = "resource"
	}
	_, err = ownedThread(r, a, threadID, resourceID)
	var he *httpError
	switch {
	case err == nil:
		state.ThreadExists = true
	case !errors.As(err, &he) || he.status != http.StatusNotFound:
		s.writeError(w, r, err)
		return
	}
	if state.WorkingMemoryTemplate != nil {
		doc, err := a.WorkingMemory(r.Context(), threadID, resourceID)
		if err != nil {
			s.writeError(w, r, errorf(http.StatusInternalServerError, err.Error()))
			return
		}
		if doc != "" {
			state.WorkingMemory = &doc
		}
	}
	s.writeJSON(w, r, http.StatusOK, state)
}

// POST /memory/threads/{threadId}/working-memory?agentId= with
// {workingMemory, resourceId?} -> {"success": true}: the document
// replaced by workingMemory as given. The agent must keep working
// memory and the thread must exist (404), of the caller's resource
// (403).
func (s *Server) updateWorkingMemory(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryAgent(r)
	var doc, resourceID string
	if err == nil && a == nil {
		err = errorf(http.StatusNotFound, "Agent not found")
	}
	if err == nil {
		var f fields
		if f, err = s.readFields(r); err == nil {
			v := &validator{f: f}
			doc, _ = v.str("workingMemory", true)
			resourceID, _ = v.str("resourceId", false)
			err = v.err()
		}
	}
	if err == nil && doc == "" {
		err = errorf(http.StatusBadRequest, `Argument "workingMemory" is required`)
	}
	if err == nil && !a.HasMemory() {
		err = errorf(http.StatusBadRequest, "Memory is not initialized")
	}
	if auth := authResource(r); auth != "" {
		resourceID = auth
	}
	threadID := r.PathValue("threadId")
	if err == nil {
		_, err = ownedThread(r, a, threadID, resourceID)
	}
	if err == nil && a.WorkingMemoryTemplate() == nil {
		err = errorf(http.StatusInternalServerError, "Working memory is not enabled for this memory instance")
	}
	if err == nil {
		if err = a.SetWorkingMemory(r.Context(), threadID, resourceID, doc); err != nil && !errors.Is(err, storage.ErrNotFound) {
			err = errorf(http.StatusInternalServerError, err.Error())
		}
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, []byte(`{"success":true}`))
}
