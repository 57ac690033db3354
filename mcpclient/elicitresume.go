package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// ElicitationSuspensionType marks the suspend payload of a tool call
// suspended on an elicitation.
const ElicitationSuspensionType = "mcp-elicitation"

// ElicitationSuspension is the suspend payload of an MCP tool call that
// waits for a person's answer to the server's elicitation (decode it with
// agent.SuspendPayloadAs). Resume the call with an ElicitationResponse;
// the resume schema the call suspends with is an object with "action"
// (accept, decline or cancel) and "content" (RequestedSchema).
type ElicitationSuspension struct {
	// Type is ElicitationSuspensionType.
	Type string `json:"type"`
	ElicitationRequest
	// Error says why the previous answer was refused (it did not match
	// the requested schema, say); the call waits for a better one.
	Error string `json:"error,omitempty"`
	// Round is opaque: set when the server asked through a
	// multi-round-trip input request, it lets the resume retry the call
	// with the answer without anything kept in memory (after a restart
	// too).
	Round json.RawMessage `json:"round,omitempty"`
}

func newElicitationSuspension(req *ElicitationRequest, problem string) *ElicitationSuspension {
	return &ElicitationSuspension{Type: ElicitationSuspensionType, ElicitationRequest: *req, Error: problem}
}

// resumeSchema is the JSON Schema of the resume data: an
// ElicitationResponse whose content is the requested schema.
func resumeSchema(req *ElicitationRequest) string {
	content := req.RequestedSchema
	if content == nil {
		content = map[string]any{"type": "object"}
	}
	s := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"action":  map[string]any{"type": "string", "enum": []string{"accept", "decline", "cancel"}},
			"content": content,
		},
		"required":             []string{"action"},
		"additionalProperties": false,
	}
	b, _ := json.Marshal(s) // maps of JSON values always encode
	return string(b)
}

// runCall makes the tools/call request of one call. When the call can
// suspend on an elicitation it runs as a pendingCall; a call resumed with
// the answer to its elicitation hands it over and waits on.
func (s *server) runCall(ctx tools.Context, name string, params *mcp.CallToolParams, what string) (*mcp.CallToolResult, error) {
	if sus, ok := s.elicitationSuspension(ctx); ok {
		if len(sus.Round) > 0 {
			return s.resumeRound(ctx, name, params, what, sus)
		}
		return s.resumeCall(ctx, name, sus)
	}
	if !s.canSuspend(ctx) {
		done := s.events.track(name)
		defer done()
		res, err := withConn(ctx, s, what, func(rctx context.Context, conn *connection) (*mcp.CallToolResult, error) {
			return conn.session.CallTool(rctx, params)
		})
		return s.callRounds(ctx, name, params, what, res, err)
	}
	pc, err := s.startCall(ctx, name, params, what)
	if err != nil {
		return nil, err
	}
	res, err := pc.wait(ctx)
	return s.callRounds(ctx, name, params, what, res, err)
}

// elicitationSuspension is the payload ctx suspended with earlier, when
// it is this server's elicitation and ctx resumes it.
func (s *server) elicitationSuspension(ctx tools.Context) (*ElicitationSuspension, bool) {
	raw := ctx.SuspendPayload()
	if len(raw) == 0 || ctx.ResumeData() == nil {
		return nil, false
	}
	var sus ElicitationSuspension
	if json.Unmarshal(raw, &sus) != nil || sus.Type != ElicitationSuspensionType || sus.Server != s.name {
		return nil, false
	}
	return &sus, true
}

// resumeCall hands the resume data to the suspended call as the answer to
// its elicitation and waits on. An answer that is not a valid
// ElicitationResponse for the requested schema suspends the call again,
// with the problem in the payload's Error.
func (s *server) resumeCall(ctx tools.Context, name string, sus *ElicitationSuspension) (*mcp.CallToolResult, error) {
	pc, ask := s.events.resume(callKey(ctx))
	if pc == nil {
		return nil, fmt.Errorf("mcpclient: calling tool %q on server %q: the call that waited for this elicitation answer is gone "+
			"(nobody answered within %v, or this process restarted since); call the tool again", name, s.name, s.elicitationTimeout())
	}
	resp, problem := decodeAnswer(ctx.ResumeData(), ask.req)
	if problem != "" {
		// The call was counted when it first suspended: no bound applies.
		s.events.suspend(pc, ask, s.elicitationTimeout(), math.MaxInt)
		return nil, ctx.Suspend(newElicitationSuspension(ask.req, problem), tools.WithResumeSchema(resumeSchema(ask.req)))
	}
	ask.answer <- resp
	return pc.wait(ctx)
}

// decodeAnswer reads resume data as an ElicitationResponse and checks it
// against the requested schema (before defaults: the SDK applies them
// when it sends the answer). problem is "" for a good answer.
func decodeAnswer(raw json.RawMessage, req *ElicitationRequest) (resp *ElicitationResponse, problem string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&resp); err != nil || resp == nil {
		return nil, fmt.Sprintf(`the answer must be {"action": "accept"|"decline"|"cancel", "content": {...}}: %v`, err)
	}
	if problem := checkAnswer(req, resp); problem != "" {
		return nil, problem
	}
	return resp, ""
}

// checkAnswer checks an answer to req without changing it but for an
// accepted form without content, which becomes empty: one of the three
// actions, no content unless accepted, and accepted content valid against
// the requested schema (defaults are applied later, by whoever sends the
// answer). problem is "" for a good answer.
func checkAnswer(req *ElicitationRequest, resp *ElicitationResponse) (problem string) {
	if err := resp.check(); err != nil {
		return err.Error()
	}
	if resp.Action != ElicitationAccept || req.RequestedSchema == nil {
		return ""
	}
	if resp.Content == nil {
		resp.Content = map[string]any{}
	}
	if err := validateContent(req.RequestedSchema, resp.Content); err != nil {
		return "the answer does not match the requested schema: " + err.Error()
	}
	return ""
}

// validateContent validates content against a requested schema.
func validateContent(requested map[string]any, content map[string]any) error {
	resolved, err := resolveRequested(requested)
	if err != nil {
		return err
	}
	return resolved.Validate(content)
}
