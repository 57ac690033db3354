package mcpserver

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// inputKey is the key a suspended round asks the client to answer under
// unless its payload names another (Mastra's INPUT_KEY, its only one).
const inputKey = "input"

// continuation is a verified answer to an earlier suspended round.
type continuation struct {
	round          int
	suspendPayload json.RawMessage
	outcome        string // accept, decline or cancel
	resumeData     json.RawMessage
}

// Question is a suspend payload that says how an MCP client is asked for
// a suspended tool's input: `return nil, ctx.Suspend(mcpserver.Question{...})`.
// Any payload with a string "message" is asked the same way; Question adds
// the key.
type Question struct {
	// Message is the question shown to the user.
	Message string `json:"message"`
	// InputKey is the key of the input request (an input_required
	// result's inputRequests, answered under the same key in
	// inputResponses). Empty: "input", Mastra's one key. It is read from
	// any payload's "inputKey" string.
	InputKey string `json:"inputKey,omitempty"`
}

// payloadMessage is a suspend payload's "message" when it is a string.
func payloadMessage(payload json.RawMessage) string {
	var p struct {
		Message any `json:"message"`
	}
	_ = json.Unmarshal(payload, &p)
	m, _ := p.Message.(string)
	return m
}

// payloadInputKey is the key a suspension is asked under: the payload's
// "inputKey" when it is a non-empty string, else inputKey.
func payloadInputKey(payload json.RawMessage) string {
	var p struct {
		InputKey any `json:"inputKey"`
	}
	_ = json.Unmarshal(payload, &p)
	if k, ok := p.InputKey.(string); ok && k != "" {
		return k
	}
	return inputKey
}

// inputQuestion is the elicitation form a suspension asks the client to
// fill in: the message is the payload's "message" when it is a string,
// else the form's description, else `"<name>" needs more input`.
func (s *Server) inputQuestion(e *exposedTool, sus *tools.Suspension) *mcp.ElicitParams {
	form := suspensionForm(e, sus.Options.ResumeSchema)
	message := payloadMessage(sus.Payload)
	if message == "" {
		var f struct {
			Description any `json:"description"`
		}
		_ = json.Unmarshal(form, &f)
		var ok bool
		if message, ok = f.Description.(string); !ok {
			message = fmt.Sprintf("%q needs more input", e.name)
		}
	}
	return &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: form}
}

// inputRequired is the input_required result of a suspended round: the
// form under inputKey and the signed continuation state.
func (s *Server) inputRequired(e *exposedTool, args json.RawMessage, principal string, round int, payload json.RawMessage, q *mcp.ElicitParams) (*mcp.CallToolResult, error) {
	hash, err := hashArguments(args)
	if err != nil {
		return nil, err
	}
	state, err := s.codec.mint(envelope{
		Method: "tools/call", Name: e.name, ArgsHash: hash, Round: round,
		SuspendPayload: payload, Principal: principal, IssuedAt: s.codec.now().Unix(),
	})
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{payloadInputKey(payload): q}, RequestState: state}, nil
}

// readContinuation verifies a call's requestState and pairs it with the
// client's answer, under the key the tool asked with. A call without
// requestState is a fresh call (nil, nil; see presuppliedAnswer).
// Anything else wrong is a JSON-RPC invalid-params error, with Mastra's
// texts where it has them.
func (s *Server) readContinuation(req *mcp.CallToolRequest, name string, args json.RawMessage, principal string) (*continuation, error) {
	state := req.Params.RequestState
	if state == "" {
		return nil, nil
	}
	env, elicit, err := s.readInputAnswer(state, req.Params.InputResponses, "tools/call", name, args, principal, "")
	if err != nil {
		return nil, err
	}
	c := &continuation{round: env.Round, suspendPayload: env.SuspendPayload, outcome: elicit.Action}
	if elicit.Action == "accept" {
		if c.resumeData, err = contentJSON(elicit.Content); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// readInputAnswer verifies a requestState minted for method on name with
// these arguments for this caller, and returns it with the client's
// elicitation answer under key (empty: the key the suspension payload
// names). Unrecognised keys in responses are ignored.
func (s *Server) readInputAnswer(state string, responses mcp.InputResponseMap, method, name string, args json.RawMessage, principal, key string) (envelope, *mcp.ElicitResult, error) {
	env, err := s.codec.verify(state)
	if err != nil {
		return env, nil, invalidParams(fmt.Sprintf("Invalid requestState: %v", err))
	}
	hash, err := hashArguments(args)
	if err != nil || env.Method != method || env.Name != name || env.ArgsHash != hash {
		return env, nil, invalidParams(fmt.Sprintf("requestState does not belong to %s %q with these arguments", method, name))
	}
	if env.Principal != principal {
		return env, nil, invalidParams("requestState was issued to a different caller")
	}
	if key == "" {
		key = payloadInputKey(env.SuspendPayload)
	}
	answer, ok := responses[key]
	if !ok {
		return env, nil, invalidParams(fmt.Sprintf("Missing input response %q", key))
	}
	elicit, ok := answer.(*mcp.ElicitResult)
	if !ok {
		return env, nil, invalidParams(fmt.Sprintf("Unsupported input response %q", key))
	}
	switch elicit.Action {
	case "accept", "decline", "cancel":
		return env, elicit, nil
	}
	return env, nil, invalidParams(fmt.Sprintf("Unsupported input response %q: action %q", key, elicit.Action))
}

// presuppliedAnswer is the answer a fresh call (no requestState) of a
// 2026-07-28 client already carries for the question the tool just
// suspended with, under that question's key: such a client may answer
// before being asked, and the tool resumes at once instead of asking.
// Only the first suspension of a call is answered this way; nil when
// there is no usable answer.
func presuppliedAnswer(req *mcp.CallToolRequest, cont *continuation, round int, payload json.RawMessage) *mcp.ElicitResult {
	if cont != nil || round != 1 || req.Params.RequestState != "" {
		return nil
	}
	elicit, ok := req.Params.InputResponses[payloadInputKey(payload)].(*mcp.ElicitResult)
	if !ok || elicit == nil {
		return nil
	}
	switch elicit.Action {
	case "accept", "decline", "cancel":
		return elicit
	}
	return nil
}

func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// principalOf is the caller a continuation is bound to: the authenticated
// user when the transport carries one (HTTP routes behind the server's
// auth), else "anonymous".
func principalOf(req *mcp.CallToolRequest) string { return callerOf(req.Extra) }

// callerOf is principalOf for any request's transport extras.
func callerOf(extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
		return "user:" + extra.TokenInfo.UserID
	}
	return "anonymous"
}

// requestContextOf is the request context a call's tool sees: the
// authenticated resource (mastra__resourceId) and auth info when the
// transport carries them, and the W3C trace fields of the request's
// _meta under "traceContext". Nothing else is taken from the client.
func requestContextOf(req *mcp.CallToolRequest) *tools.RequestContext {
	rc := tools.NewRequestContext(nil)
	meta := req.Params.GetMeta()
	if tp, ok := meta["traceparent"].(string); ok {
		tc := map[string]any{"traceparent": tp}
		if v, ok := meta["tracestate"].(string); ok {
			tc["tracestate"] = v
		}
		if v, ok := meta["baggage"].(string); ok {
			tc["baggage"] = v
		}
		_ = rc.Set("traceContext", tc)
	}
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		ti := req.Extra.TokenInfo
		_ = rc.Set("authInfo", map[string]any{"userId": ti.UserID, "scopes": ti.Scopes, "expiresAt": expiry(ti.Expiration), "extra": ti.Extra})
		if ti.UserID != "" {
			_ = rc.Set(tools.ResourceIDKey, ti.UserID)
		}
	}
	return rc
}

func expiry(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Unix()
}

// requestOf is the Request a call's tool can reach with RequestFrom.
func (s *Server) requestOf(req *mcp.CallToolRequest) *Request {
	r := &Request{
		ServerID: s.id, ServerName: s.cfg.Name,
		ProtocolVersion: req.ProtocolVersion(), Client: req.ClientInfo(),
		Meta: req.Params.GetMeta(), session: req.Session,
		progressToken: req.Params.GetProgressToken(),
	}
	if req.Extra != nil {
		r.Header = req.Extra.Header
	}
	return r
}
