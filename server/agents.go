package server

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"strings"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/resumegate"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// agent finds the path's agent as Mastra's getAgentById does: by id,
// then by registry key. 404 "Agent with id <id> not found".
func (s *Server) agent(r *http.Request) (*agent.Agent, error) {
	id := r.PathValue("agentId")
	if a := s.agentByID(id); a != nil {
		return a, nil
	}
	return nil, errorf(http.StatusNotFound, "Agent with id "+id+" not found")
}

// agentByID is the agent with that id, else the one registered under
// that key, else nil.
func (s *Server) agentByID(id string) *agent.Agent {
	for _, key := range s.m.AgentKeys() {
		if a, err := s.m.GetAgent(key); err == nil && a.ID() == id {
			return a
		}
	}
	if a, err := s.m.GetAgent(id); err == nil {
		return a
	}
	return nil
}

// GET /agents: {agentId: agent info}, keyed by agent id as Mastra does
// (not by registry key); an agent registered twice is listed once.
func (s *Server) listAgents(w http.ResponseWriter, r *http.Request) {
	rc, err := queryRequestContext(r, authResource(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	o := newObject()
	seen := map[string]bool{}
	for _, key := range s.m.AgentKeys() {
		a, err := s.m.GetAgent(key)
		if err != nil || seen[a.ID()] {
			continue
		}
		seen[a.ID()] = true
		b, err := agentInfo(r.Context(), a, rc, true)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		o.Raw(a.ID(), b)
	}
	wire.WriteJSON(w, http.StatusOK, o.Bytes())
}

// GET /agents/{agentId}.
func (s *Server) getAgent(w http.ResponseWriter, r *http.Request) {
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
	b, err := agentInfo(r.Context(), a, rc, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, b)
}

// runRequest is a parsed agent run body.
type runRequest struct {
	input any
	opts  []agent.Option
}

var errForbiddenThread = errorf(http.StatusForbidden, "Access denied: thread belongs to a different resource")

// runOptions reads the options every agent run route shares (generate,
// stream, resume-stream), as Mastra's agent routes read them: instructions,
// system, context, memory, runId, maxSteps, requestContext,
// providerOptions, modelSettings, activeTools, clientTools, toolChoice,
// requireToolApproval, structuredOutput / output. Fields gomastra has no
// counterpart for (versions, stopWhen, scorers, tracingOptions, model,
// savePerStep, untilIdle, toolsets, format) are accepted and ignored; tools
// is stripped, as Mastra does.
func (s *Server) runOptions(ctx context.Context, r *http.Request, a *agent.Agent, v *validator) []agent.Option {
	var opts []agent.Option
	auth := authResource(r)
	rc := v.requestContext(auth)
	opts = append(opts, agent.WithRequestContext(rc))

	instructions, hasInstr := v.instructions("instructions")
	system, hasSystem := v.instructions("system")
	switch {
	case hasInstr && hasSystem:
		opts = append(opts, agent.WithInstructions(joinNonEmpty(instructions, system)))
	case hasInstr:
		opts = append(opts, agent.WithInstructions(instructions))
	case hasSystem:
		opts = append(opts, agent.WithInstructions(joinNonEmpty(a.Instructions(), system)))
	}
	if raw, ok := v.f["context"]; ok {
		msgs, iss := parseMessageList("context", raw)
		if iss != nil {
			v.add(iss.Field, iss.Message)
		} else if len(msgs) > 0 {
			opts = append(opts, agent.WithContextMessages(msgs...))
		}
	}

	threadID, resourceID, readOnly := v.memory()
	if auth != "" {
		resourceID = auth
	}
	if threadID != "" || resourceID != "" {
		opts = append(opts, agent.WithMemory(threadID, resourceID))
	}
	if readOnly {
		opts = append(opts, agent.WithMemoryReadOnly())
	}
	if threadID != "" && auth != "" && len(v.issues) == 0 {
		if err := checkThreadOwner(ctx, a, threadID, auth); err != nil {
			v.fatal = err
		}
	}

	if id, ok := v.str("runId", false); ok && id != "" {
		opts = append(opts, agent.WithRunID(id))
	}
	if n, ok := v.number("maxSteps"); ok && n >= 1 {
		opts = append(opts, agent.WithMaxSteps(int(n)))
	}
	if raw, ok := v.f["providerOptions"]; ok {
		var po model.ProviderOptions
		if zodmsg.TypeOf(raw) != "object" || json.Unmarshal(raw, &po) != nil {
			v.add("providerOptions", zodmsg.Expected("record", raw))
		} else {
			opts = append(opts, agent.WithProviderOptions(po))
		}
	}
	if raw, ok := v.f["modelSettings"]; ok && zodmsg.TypeOf(raw) == "object" {
		var cs model.CallSettings
		if err := json.Unmarshal(raw, &cs); err != nil {
			v.issues = append(v.issues, decodeIssue("modelSettings", err))
		} else {
			opts = append(opts, agent.WithSettings(cs))
		}
	}
	if names, ok := v.strings("activeTools"); ok {
		opts = append(opts, agent.WithActiveTools(names...))
	}
	if set := v.clientTools(); len(set) > 0 {
		opts = append(opts, agent.WithClientTools(set))
	}
	if tc, ok := v.toolChoice(); ok {
		opts = append(opts, agent.WithToolChoice(tc))
	}
	if b, ok := v.boolean("requireToolApproval", false); ok {
		opts = append(opts, agent.WithRequireToolApproval(b))
	}
	if so, ok := v.structuredOutput(); ok {
		opts = append(opts, agent.WithStructuredOutput(so))
	}
	return opts
}

func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n")
}

// checkThreadOwner refuses (403) a thread of another resource than the
// caller's; a thread that does not exist yet is the caller's to create.
func checkThreadOwner(ctx context.Context, a *agent.Agent, threadID, resource string) error {
	err := a.CheckThreadResource(ctx, threadID, resource)
	if errors.Is(err, agent.ErrThreadOfAnotherResource) {
		return errForbiddenThread
	}
	return err
}

// instructions reads a string, a list of strings, a system message
// ({role, content}) or a list of those, joined by newlines.
func (v *validator) instructions(key string) (string, bool) {
	raw, ok := v.f[key]
	if !ok {
		return "", false
	}
	var texts []string
	var one func(json.RawMessage) bool
	one = func(x json.RawMessage) bool {
		switch zodmsg.TypeOf(x) {
		case "string":
			var s string
			if json.Unmarshal(x, &s) != nil {
				return false
			}
			texts = append(texts, s)
			return true
		case "object":
			var m struct {
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(x, &m) != nil {
				return false
			}
			if zodmsg.TypeOf(m.Content) == "string" {
				return one(m.Content)
			}
			var parts []struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(m.Content, &parts) != nil {
				return false
			}
			for _, p := range parts {
				texts = append(texts, p.Text)
			}
			return true
		case "array":
			var items []json.RawMessage
			if json.Unmarshal(x, &items) != nil {
				return false
			}
			for _, it := range items {
				if zodmsg.TypeOf(it) == "array" || !one(it) {
					return false
				}
			}
			return true
		}
		return false
	}
	if !one(raw) {
		v.add(key, "Invalid input")
		return "", false
	}
	return strings.Join(texts, "\n"), true
}

// memory reads {thread: string | {id}, resource?, readOnly?}.
func (v *validator) memory() (threadID, resourceID string, readOnly bool) {
	m, ok := v.object("memory")
	if !ok {
		return "", "", false
	}
	sub := &validator{f: m}
	switch raw := m["thread"]; zodmsg.TypeOf(raw) {
	case "string":
		_ = json.Unmarshal(raw, &threadID)
	case "object":
		var t struct {
			ID *string `json:"id"`
		}
		if json.Unmarshal(raw, &t) != nil || t.ID == nil {
			v.add("memory.thread", "Invalid input")
		} else {
			threadID = *t.ID
		}
	default:
		v.add("memory.thread", "Invalid input")
	}
	resourceID, _ = sub.str("resource", false)
	readOnly, _ = sub.boolean("readOnly", false)
	for _, is := range sub.issues {
		v.add("memory."+is.Field, is.Message)
	}
	return threadID, resourceID, readOnly
}

// toolChoice reads "auto" | "none" | "required" | {type: "tool", toolName}.
func (v *validator) toolChoice() (model.ToolChoice, bool) {
	raw, ok := v.f["toolChoice"]
	if !ok {
		return model.ToolChoice{}, false
	}
	switch zodmsg.TypeOf(raw) {
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s)
		switch s {
		case "auto", "none", "required":
			return model.ToolChoice{Type: s}, true
		}
	case "object":
		var tc struct {
			Type     string `json:"type"`
			ToolName string `json:"toolName"`
		}
		if json.Unmarshal(raw, &tc) == nil && tc.Type == "tool" && tc.ToolName != "" {
			return model.ToolChoiceTool(tc.ToolName), true
		}
	}
	v.add("toolChoice", "Invalid input")
	return model.ToolChoice{}, false
}

// parseSchema compiles a JSON Schema sent by a client: an object, or a
// string holding one, possibly wrapped by superjson ({"json": ...}) or by
// the AI SDK's jsonSchema() ({"jsonSchema": ...}).
func parseSchema(raw json.RawMessage) (schema.Schema, error) {
	if zodmsg.TypeOf(raw) == "string" {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		raw = json.RawMessage(s)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, errors.New("expected a JSON Schema object")
	}
	for _, wrapper := range []string{"json", "jsonSchema"} {
		if inner, ok := m[wrapper]; ok && len(m) <= 2 && zodmsg.TypeOf(inner) == "object" {
			if _, isSchema := m["type"]; !isSchema {
				return parseSchema(inner)
			}
		}
	}
	return schema.FromJSON(raw)
}

// clientTools reads Mastra's clientTools record: key → {id?,
// description?, inputSchema? | parameters?, outputSchema?}, each made an
// execute-less tool the client runs.
func (v *validator) clientTools() tools.Set {
	set := tools.Set{}
	for key, raw := range v.members("clientTools") {
		field := "clientTools." + key
		var def struct {
			ID           string          `json:"id"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			Parameters   json.RawMessage `json:"parameters"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if zodmsg.TypeOf(raw) != "object" || json.Unmarshal(raw, &def) != nil {
			v.add(field, zodmsg.Expected("object", raw))
			continue
		}
		cfg := tools.DynamicConfig{ID: def.ID, Description: def.Description}
		if cfg.ID == "" {
			cfg.ID = key
		}
		in := def.InputSchema
		if len(in) == 0 || zodmsg.TypeOf(in) == "null" {
			in = def.Parameters
		}
		if len(in) > 0 && zodmsg.TypeOf(in) != "null" {
			s, err := parseSchema(in)
			if err != nil {
				v.add(field+".inputSchema", "Invalid JSON Schema: "+err.Error())
				continue
			}
			cfg.InputSchema = s
		}
		if len(def.OutputSchema) > 0 && zodmsg.TypeOf(def.OutputSchema) != "null" {
			s, err := parseSchema(def.OutputSchema)
			if err != nil {
				v.add(field+".outputSchema", "Invalid JSON Schema: "+err.Error())
				continue
			}
			cfg.OutputSchema = s
		}
		t, err := tools.NewDynamic(cfg)
		if err != nil {
			v.add(field, err.Error())
			continue
		}
		set[key] = t
	}
	return set
}

// structuredOutput reads structuredOutput {schema, errorStrategy?,
// fallbackValue?, instructions?, jsonPromptInjection?} (its model is not
// supported: the agent's own model answers), or the legacy output (a
// schema).
func (v *validator) structuredOutput() (agent.StructuredOutput, bool) {
	if m, ok := v.object("structuredOutput"); ok {
		raw, has := m["schema"]
		if !has || zodmsg.TypeOf(raw) != "object" {
			v.add("structuredOutput.schema", zodmsg.Expected("object", raw))
			return agent.StructuredOutput{}, false
		}
		sch, err := parseSchema(raw)
		if err != nil {
			v.add("structuredOutput.schema", "Invalid JSON Schema: "+err.Error())
			return agent.StructuredOutput{}, false
		}
		so := agent.StructuredOutput{Schema: sch}
		sub := &validator{f: m}
		if s, ok := sub.str("errorStrategy", false); ok {
			switch agent.ErrorStrategy(s) {
			case agent.StrictErrors, agent.WarnErrors, agent.FallbackErrors:
				so.ErrorStrategy = agent.ErrorStrategy(s)
			default:
				sub.add("errorStrategy", `Invalid option: expected one of "strict"|"warn"|"fallback"`)
			}
		}
		if fb, ok := m["fallbackValue"]; ok {
			var x any
			if json.Unmarshal(fb, &x) == nil {
				so.FallbackValue = x
			}
		}
		if s, ok := sub.str("instructions", false); ok {
			so.Instructions = s
		}
		if b, ok := sub.boolean("jsonPromptInjection", false); ok && b {
			so.JSONPromptInjection = agent.InjectSystem
		}
		for _, is := range sub.issues {
			v.add("structuredOutput."+is.Field, is.Message)
		}
		return so, len(sub.issues) == 0
	}
	if raw, ok := v.f["output"]; ok && zodmsg.TypeOf(raw) == "object" {
		sch, err := parseSchema(raw)
		if err != nil {
			v.add("output", "Invalid JSON Schema: "+err.Error())
			return agent.StructuredOutput{}, false
		}
		return agent.StructuredOutput{Schema: sch}, true
	}
	return agent.StructuredOutput{}, false
}

// parseRun reads a run body: messages (required when withMessages) and
// the shared options.
func (s *Server) parseRun(r *http.Request, a *agent.Agent, f fields, withMessages bool) (*runRequest, error) {
	v := &validator{f: f}
	req := &runRequest{}
	if withMessages {
		raw, ok := f["messages"]
		if !ok {
			v.add("messages", "Invalid input")
		} else {
			in, iss := parseMessages("messages", raw)
			if iss != nil {
				v.add(iss.Field, iss.Message)
			}
			req.input = in
		}
	}
	req.opts = s.runOptions(r.Context(), r, a, v)
	if err := v.err(); err != nil {
		return nil, err
	}
	if v.fatal != nil {
		return nil, v.fatal
	}
	return req, nil
}

// agentAndBody resolves the agent and reads the body. Mastra validates
// the body before the handler looks the agent up, so a bad body is a 400
// even for an unknown agent.
func (s *Server) agentAndBody(r *http.Request) (*agent.Agent, fields, error) {
	f, err := s.readFields(r)
	if err != nil {
		return nil, nil, err
	}
	a, err := s.agent(r)
	if err != nil {
		return nil, nil, err
	}
	return a, f, nil
}

// agentRun resolves the agent and reads a run body with its messages
// (generate, stream).
func (s *Server) agentRun(r *http.Request) (*agent.Agent, *runRequest, error) {
	a, f, err := s.agentAndBody(r)
	if err != nil {
		return nil, nil, err
	}
	req, err := s.parseRun(r, a, f, true)
	if err != nil {
		return nil, nil, err
	}
	return a, req, nil
}

// POST /agents/{agentId}/generate: Mastra's FullOutput.
func (s *Server) generate(w http.ResponseWriter, r *http.Request) {
	a, req, err := s.agentRun(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := a.Generate(r.Context(), req.input, req.opts...)
	s.writeOutput(w, r, out, err)
}

func (s *Server) writeOutput(w http.ResponseWriter, r *http.Request, out *agent.Output, err error) {
	if err != nil {
		s.writeRunError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// writeRunError answers the error of an agent or workflow run: nothing
// when it is the request's own cancellation (the client has gone), else
// the error.
func (s *Server) writeRunError(w http.ResponseWriter, r *http.Request, err error) {
	if errorIsContext(r, err) {
		return
	}
	s.writeError(w, r, err)
}

// POST /agents/{agentId}/stream: SSE of the run's chunks. The run is
// detached from the request: a client that goes away detaches its
// reader only, and the run's events stay observable (observeAgent).
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	a, req, err := s.agentRun(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeDetached(w, r, a, func(ctx context.Context) chunkSeq { return a.Stream(ctx, req.input, req.opts...) }, nil)
}

// resumeBody reads the runId (required, non-empty) and toolCallId of the
// resume and approval routes.
func resumeIDs(v *validator, toolCallRequired bool) (runID, toolCallID string, err error) {
	runID, hasRun := v.str("runId", true)
	toolCallID, hasCall := v.str("toolCallId", toolCallRequired)
	if err := v.err(); err != nil {
		return "", "", err
	}
	if hasRun && runID == "" {
		return "", "", errorf(http.StatusBadRequest, "Run id is required")
	}
	if toolCallRequired && hasCall && toolCallID == "" {
		return "", "", errorf(http.StatusBadRequest, "Tool call id is required")
	}
	return runID, toolCallID, nil
}

// prepareResume checks a resume before the agent takes it
// (resumegate.Admit, with the authenticated resource): it returns what
// the check admitted, or its refusal as an error answer.
func (s *Server) prepareResume(r *http.Request, a *agent.Agent, method, runID, toolCallID string) (resumegate.Admission, error) {
	adm, err := resumegate.Admit(r.Context(), a, method, runID, toolCallID, authResource(r))
	return adm, refusalError(err)
}

// refusalError turns a resumegate.Refusal into the error answer it
// stands for; other errors are returned as they are.
func refusalError(err error) error {
	var ref *resumegate.Refusal
	if errors.As(err, &ref) {
		return errorf(ref.Status, ref.Message)
	}
	return err
}

// resumeError turns the agent's "call not suspended" for a call that was
// waiting a moment ago into the conflict it is (another resume claimed
// it in between).
func resumeError(err error, a *agent.Agent, method, runID string, adm resumegate.Admission) error {
	if resumegate.ClaimedMeanwhile(err, adm) {
		return refusalError(resumegate.Conflict(a, method, runID))
	}
	return err
}

// POST /agents/{agentId}/resume-stream: body {runId, resumeData,
// toolCallId?, ...options}; SSE.
func (s *Server) resumeStream(w http.ResponseWriter, r *http.Request) {
	a, f, err := s.agentAndBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := &validator{f: f}
	runID, toolCallID, err := resumeIDs(v, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := s.parseRun(r, a, f, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	adm, err := s.prepareResume(r, a, "resumeStream", runID, toolCallID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var data any
	if raw, ok := f["resumeData"]; ok {
		data = raw
	}
	opts := req.opts
	if adm.ToolCallID != "" {
		opts = append(opts, agent.WithToolCallID(adm.ToolCallID))
	}
	s.writeDetached(w, r, a, func(ctx context.Context) chunkSeq { return a.ResumeStream(ctx, runID, data, opts...) }, func(err error) error {
		return resumeError(err, a, "resumeStream", runID, adm)
	})
}

// approvalRequest reads the approve/decline bodies: {runId, toolCallId,
// requestContext?, reason? (decline)}.
func (s *Server) approvalRequest(w http.ResponseWriter, r *http.Request, method string) (a *agent.Agent, runID, toolCallID, reason string, opts []agent.Option, mapErr func(error) error, ok bool) {
	a, f, err := s.agentAndBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return nil, "", "", "", nil, nil, false
	}
	v := &validator{f: f}
	var rc *tools.RequestContext
	runID, toolCallID, err = resumeIDs(v, true)
	if err == nil {
		reason, _ = v.str("reason", false)
		rc = v.requestContext(authResource(r))
		err = v.err()
	}
	if err != nil {
		s.writeError(w, r, err)
		return nil, "", "", "", nil, nil, false
	}
	adm, err := s.prepareResume(r, a, method, runID, toolCallID)
	if err != nil {
		s.writeError(w, r, err)
		return nil, "", "", "", nil, nil, false
	}
	opts = []agent.Option{agent.WithRequestContext(rc)}
	mapErr = func(err error) error { return resumeError(err, a, method, runID, adm) }
	return a, runID, adm.ToolCallID, reason, opts, mapErr, true
}

// POST /agents/{agentId}/approve-tool-call: SSE of the resumed run.
func (s *Server) approveToolCall(w http.ResponseWriter, r *http.Request) {
	a, runID, callID, _, opts, mapErr, ok := s.approvalRequest(w, r, "approveToolCall")
	if !ok {
		return
	}
	s.writeDetached(w, r, a, func(ctx context.Context) chunkSeq { return a.ApproveToolCall(ctx, runID, callID, opts...) }, mapErr)
}

// POST /agents/{agentId}/decline-tool-call: SSE of the resumed run.
func (s *Server) declineToolCall(w http.ResponseWriter, r *http.Request) {
	a, runID, callID, reason, opts, mapErr, ok := s.approvalRequest(w, r, "declineToolCall")
	if !ok {
		return
	}
	s.writeDetached(w, r, a, func(ctx context.Context) chunkSeq { return a.DeclineToolCall(ctx, runID, callID, reason, opts...) }, mapErr)
}

// POST /agents/{agentId}/approve-tool-call-generate: FullOutput.
func (s *Server) approveToolCallGenerate(w http.ResponseWriter, r *http.Request) {
	a, runID, callID, _, opts, mapErr, ok := s.approvalRequest(w, r, "approveToolCallGenerate")
	if !ok {
		return
	}
	out, err := a.ApproveToolCallGenerate(r.Context(), runID, callID, opts...)
	if err != nil && out == nil {
		err = mapErr(err)
	}
	s.writeOutput(w, r, out, err)
}

// POST /agents/{agentId}/decline-tool-call-generate: FullOutput.
func (s *Server) declineToolCallGenerate(w http.ResponseWriter, r *http.Request) {
	a, runID, callID, reason, opts, mapErr, ok := s.approvalRequest(w, r, "declineToolCallGenerate")
	if !ok {
		return
	}
	out, err := a.DeclineToolCallGenerate(r.Context(), runID, callID, reason, opts...)
	if err != nil && out == nil {
		err = mapErr(err)
	}
	s.writeOutput(w, r, out, err)
}

// approvalAcceptTimeout bounds how long send-tool-approval waits for the
// resumed run to be claimed before answering {accepted: true}.
const approvalAcceptTimeout = 30 * time.Second

// POST /agents/{agentId}/send-tool-approval: body {resourceId, threadId,
// toolCallId, approved, resumeData?, requestContext?}. It finds the
// thread's suspended run, resumes it with the decision and answers
// {accepted: true, runId, toolCallId?} once the resume has been claimed
// (so a conflict or a missing run is still an error answer). The resumed
// run then goes on in the background, detached from the request (the
// client may disconnect), under the server's background context, which
// Shutdown cancels; its chunks are not sent anywhere (Mastra pushes them
// to thread subscribers, which this server does not have): the run's
// effects are its stored messages and snapshots. A declined call's reason
// is resumeData.reason when it is a string; a suspended tool (one not
// waiting for approval, such as ask_user) is resumed with resumeData.
func (s *Server) sendToolApproval(w http.ResponseWriter, r *http.Request) {
	a, f, err := s.agentAndBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := &validator{f: f}
	resourceID, _ := v.str("resourceId", true)
	threadID, _ := v.str("threadId", true)
	toolCallID, _ := v.str("toolCallId", true)
	approved, _ := v.boolean("approved", true)
	rc := v.requestContext(authResource(r))
	if err := v.err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	if auth := authResource(r); auth != "" {
		resourceID = auth
		if err := checkThreadOwner(r.Context(), a, threadID, auth); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	ap := agent.ToolApproval{ThreadID: threadID, ResourceID: resourceID, ToolCallID: toolCallID, Approved: approved}
	if raw, ok := f["resumeData"]; ok && string(raw) != "null" {
		var d struct {
			Reason string `json:"reason"`
		}
		if json.Unmarshal(raw, &d) == nil {
			ap.Reason = d.Reason
		}
		ap.ResumeData = raw
	}

	type started struct {
		runID string
		err   error
	}
	first := make(chan started, 1)
	err = s.goBackground(func(ctx context.Context) {
		runID, seq, err := a.SendToolApproval(ctx, ap, agent.WithRequestContext(rc))
		if err != nil {
			first <- started{err: err}
			return
		}
		sent := false
		for _, err := range seq {
			if !sent {
				sent = true
				first <- started{runID: runID, err: err}
			} else if err != nil {
				s.log.Warn("send-tool-approval: resumed run failed", "agent", a.ID(), "runId", runID, "error", storage.ErrorDetail(err))
			}
			if err != nil {
				return
			}
		}
		if !sent {
			first <- started{runID: runID}
		}
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var st started
	select {
	case st = <-first:
	case <-r.Context().Done():
		return
	case <-time.After(approvalAcceptTimeout):
		s.writeError(w, r, errorf(http.StatusGatewayTimeout, "Timed out waiting for the run to resume"))
		return
	}
	if st.err != nil {
		s.writeError(w, r, st.err)
		return
	}
	o := newObject().Bool("accepted", true).Str("runId", st.runID)
	if toolCallID != "" {
		o.Str("toolCallId", toolCallID)
	}
	wire.WriteJSON(w, http.StatusOK, o.Bytes())
}

// GET /agents/{agentId}/suspended-runs?threadId&resourceId&fromDate&
// toDate&perPage&page (page counts from 0): {runs, total}.
func (s *Server) suspendedRuns(w http.ResponseWriter, r *http.Request) {
	a, err := s.agent(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	f := agent.SuspendedRunsFilter{ThreadID: q.Get("threadId"), ResourceID: q.Get("resourceId")}
	var issues []wire.Issue
	for _, d := range []struct {
		key string
		t   *time.Time
	}{{"fromDate", &f.From}, {"toDate", &f.To}} {
		if v := q.Get(d.key); v != "" {
			t, err := parseDate(v)
			if err != nil {
				issues = append(issues, wire.Issue{Field: d.key, Message: "Invalid ISO datetime"})
				continue
			}
			*d.t = t
		}
	}
	if n, ok, iss := queryInt(r, "perPage", 1); iss != nil {
		issues = append(issues, *iss)
	} else if ok {
		f.PerPage = n
	}
	if n, ok, iss := queryInt(r, "page", 0); iss != nil {
		issues = append(issues, *iss)
	} else if ok {
		f.Page = n
	}
	if len(issues) > 0 {
		s.writeError(w, r, invalidQuery(issues...))
		return
	}
	if auth := authResource(r); auth != "" {
		f.ResourceID = auth
		if f.ThreadID != "" {
			if err := checkThreadOwner(r.Context(), a, f.ThreadID, auth); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
	}
	runs, total, err := a.ListSuspendedRuns(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	type runJSON struct {
		RunID       string                    `json:"runId"`
		Status      string                    `json:"status"`
		ThreadID    string                    `json:"threadId,omitempty"`
		ResourceID  string                    `json:"resourceId,omitempty"`
		SuspendedAt string                    `json:"suspendedAt"`
		ToolCalls   []agent.SuspendedToolCall `json:"toolCalls"`
	}
	out := struct {
		Runs  []runJSON `json:"runs"`
		Total int       `json:"total"`
	}{Runs: make([]runJSON, 0, len(runs)), Total: total}
	for _, run := range runs {
		calls := run.ToolCalls
		if calls == nil {
			calls = []agent.SuspendedToolCall{}
		}
		out.Runs = append(out.Runs, runJSON{RunID: run.RunID, Status: run.Status, ThreadID: run.ThreadID, ResourceID: run.ResourceID,
			SuspendedAt: isoTime(run.SuspendedAt), ToolCalls: calls})
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// isoTime renders t as JavaScript's Date.prototype.toISOString does.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// parseDate reads an ISO date-time (or a date).
func parseDate(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.000Z", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("invalid date")
}

// chunkSeq is the chunk stream of a run.
type chunkSeq = iter.Seq2[stream.Chunk, error]
