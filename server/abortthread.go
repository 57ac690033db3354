package server

import (
	"net/http"

	"github.com/gomastra/mastra/agent"
)

// POST /agents/{agentId}/threads/abort: body {threadId, resourceId?,
// expectedRunId?} -> {"aborted": bool}: whether the thread's active run
// (of that resource; the caller's, with Options.Auth) was stopped. A
// thread of another resource is a 403.
func (s *Server) abortAgentThread(w http.ResponseWriter, r *http.Request) {
	f, err := s.readFields(r)
	var t agent.ThreadAbort
	if err == nil {
		v := &validator{f: f}
		t.ThreadID, _ = v.str("threadId", true)
		t.ResourceID, _ = v.str("resourceId", false)
		t.ExpectedRunID, _ = v.str("expectedRunId", false)
		err = v.err()
	}
	var a *agent.Agent
	if err == nil {
		a, err = s.agent(r)
	}
	if err == nil && t.ThreadID == "" {
		err = errorf(http.StatusBadRequest, "threadId is required")
	}
	if auth := authResource(r); auth != "" {
		t.ResourceID = auth
	}
	if err == nil && t.ResourceID != "" {
		err = checkThreadOwner(r.Context(), a, t.ThreadID, t.ResourceID)
	}
	var aborted bool
	if err == nil {
		aborted, err = a.AbortThread(r.Context(), t)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, map[string]bool{"aborted": aborted})
}
