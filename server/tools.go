package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/tools"
)

var errToolNotFound = errorf(http.StatusNotFound, "Tool not found")

// findTool looks a tool up as Mastra's tool routes do: the registry by id
// (then by key, then the agents' static tools by id: GetToolByID), then
// every agent's own tools for this request context (ToolsFunc's too) by
// id.
func (s *Server) findTool(ctx context.Context, id string, rc *tools.RequestContext) *tools.Tool {
	if t, err := s.m.GetToolByID(id); err == nil {
		return t
	}
	for _, key := range s.m.AgentKeys() {
		a, err := s.m.GetAgent(key)
		if err != nil {
			continue
		}
		if t := agentToolByID(ctx, a, id, rc); t != nil {
			return t
		}
	}
	return nil
}

// agentToolByID finds one of a's own tools by its id (keys in sorted
// order, so the answer does not depend on map order).
func agentToolByID(ctx context.Context, a *agent.Agent, id string, rc *tools.RequestContext) *tools.Tool {
	own, err := a.OwnTools(ctx, rc)
	if err != nil {
		return nil
	}
	keys := make([]string, 0, len(own))
	for k := range own {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if t := own[k]; t != nil && t.ID() == id {
			return t
		}
	}
	return nil
}

// GET /tools: {key: SerializedTool}: the registry's tools, then the
// agents' static tools keyed by id, one per tool id (Mastra.AllTools).
func (s *Server) listTools(w http.ResponseWriter, r *http.Request) {
	keys, set := s.m.AllTools()
	b, err := serializeTools(keys, set)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, b)
}

// GET /tools/{toolId}: one SerializedTool, 404 {"error":"Tool not found"}.
func (s *Server) getTool(w http.ResponseWriter, r *http.Request) {
	rc, err := queryRequestContext(r, authResource(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t := s.findTool(r.Context(), r.PathValue("toolId"), rc)
	if t == nil {
		s.writeError(w, r, errToolNotFound)
		return
	}
	s.writeTool(w, r, t)
}

func (s *Server) writeTool(w http.ResponseWriter, r *http.Request, t *tools.Tool) {
	b, err := serializeTool(t)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, b)
}

// POST /tools/{toolId}/execute?runId=: body {data, requestContext?}; the
// tool's raw result.
func (s *Server) executeTool(w http.ResponseWriter, r *http.Request) {
	data, rc, err := s.executeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t := s.findTool(r.Context(), r.PathValue("toolId"), rc)
	s.runTool(w, r, t, data, rc, r.URL.Query().Get("runId"))
}

// GET /agents/{agentId}/tools/{toolId}: one of the agent's own tools, by
// tool id.
func (s *Server) getAgentTool(w http.ResponseWriter, r *http.Request) {
	a, err := s.agent(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rc, err := queryRequestContext(r, authResource(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t := agentToolByID(r.Context(), a, r.PathValue("toolId"), rc)
	if t == nil {
		s.writeError(w, r, errToolNotFound)
		return
	}
	s.writeTool(w, r, t)
}

// POST /agents/{agentId}/tools/{toolId}/execute: body {data,
// requestContext?}; the tool's raw result.
func (s *Server) executeAgentTool(w http.ResponseWriter, r *http.Request) {
	data, rc, err := s.executeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.agent(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t := agentToolByID(r.Context(), a, r.PathValue("toolId"), rc)
	s.runTool(w, r, t, data, rc, "")
}

// executeBody reads {data, requestContext?}: data is required (Mastra's
// "data is required" issue when the key is missing).
func (s *Server) executeBody(r *http.Request) (json.RawMessage, *tools.RequestContext, error) {
	f, err := s.readFields(r)
	if err != nil {
		return nil, nil, err
	}
	v := &validator{f: f}
	data, ok := f["data"]
	if !ok {
		v.add("data", "data is required")
	}
	rc := v.requestContext(authResource(r))
	if err := v.err(); err != nil {
		return nil, nil, err
	}
	return data, rc, nil
}

// falsy reports whether a JSON value is falsy in JavaScript.
func falsy(raw json.RawMessage) bool {
	switch string(bytes.TrimSpace(raw)) {
	case "null", "false", `""`, "0", "-0":
		return true
	}
	if zodmsg.TypeOf(raw) == "number" {
		var f float64
		if json.Unmarshal(raw, &f) == nil && f == 0 {
			return true
		}
	}
	return false
}

// runTool executes t as Mastra's execute routes do: 404 when there is no
// such tool, 400 for a client tool (no execute) and for a falsy data;
// the raw result otherwise (a ValidationError result included, with 200);
// a tool error is 500 {"error": message}.
func (s *Server) runTool(w http.ResponseWriter, r *http.Request, t *tools.Tool, data json.RawMessage, rc *tools.RequestContext, runID string) {
	if t == nil {
		s.writeError(w, r, errToolNotFound)
		return
	}
	if t.IsClientTool() {
		s.writeError(w, r, errorf(http.StatusBadRequest, "Tool is not executable"))
		return
	}
	if falsy(data) {
		s.writeError(w, r, errorf(http.StatusBadRequest, `Argument "data" is required`))
		return
	}
	inv := &tools.Invocation{RunID: runID, RequestContext: rc, Mastra: s.m, Logger: s.log}
	if runID != "" {
		inv.Workflow = &tools.WorkflowInfo{RunID: runID}
	}
	res, err := t.Execute(r.Context(), data, inv)
	if err != nil {
		s.writeRunError(w, r, err)
		return
	}
	b, err := res.JSON()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, wire.UnescapeJS(b))
}
