package mcpserver

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// inputKey is the one key every suspended round asks the client to answer
// under (Mastra's INPUT_KEY).
const inputKey = "input"

// continuation is a verified answer to an earlier suspended round.
type continuation struct {
	round          int
	suspendPayload json.RawMessage
	outcome        string // accept, decline or cancel
	resumeData     json.RawMessage
}

// inputQuestion is the elicitation form a suspension asks the client to
// fill in: the message is the payload's "message" when it is a string,
// else the form's description, else `"<name>" needs more input`.
func (s *Server) inputQuestion(e *exposedTool, sus *tools.Suspension) *mcp.ElicitParams {
	form := suspensionForm(e, sus.Options.ResumeSchema)
	var payload struct {
		Message any `json:"message"`
	}
	_ = json.Unmarshal(sus.Payload, &payload)
	message, ok := payload.Message.(string)
	if !ok {
		var f struct {
			Description any `json:"description"`
		}
		_ = json.Unmarshal(form, &f)
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
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{inputKey: q}, RequestState: state}, nil
}

// readContinuation verifies a call's requestState and pairs it with the
// client's answer. A call without requestState is a fresh call (nil, nil;
// stray inputResponses are ignored). Anything else wrong is a JSON-RPC
// invalid-params error, with Mastra's texts where it has them.
func (s *Server) readContinuation(req *mcp.CallToolRequest, name string, args json.RawMessage, principal string) (*continuation, error) {
	state := req.Params.RequestState
	if state == "" {
		return nil, nil
	}
	env, err := s.codec.verify(state)
	if err != nil {
		return nil, invalidParams(fmt.Sprintf("Invalid requestState: %v", err))
	}
	hash, err := hashArguments(args)
	if err != nil || env.Method != "tools/call" || env.Name != name || env.ArgsHash != hash {
		return nil, invalidParams(fmt.Sprintf("requestState does not belong to tools/call %q with these arguments", name))
	}
	if env.Principal != principal {
		return nil, invalidParams("requestState was issued to a different caller")
	}
	answer, ok := req.Params.InputResponses[inputKey]
	if !ok {
		return nil, invalidParams(fmt.Sprintf("Missing input response %q", inputKey))
	}
	elicit, ok := answer.(*mcp.ElicitResult)
	if !ok {
		return nil, invalidParams(fmt.Sprintf("Unsupported input response %q", inputKey))
	}
	c := &continuation{round: env.Round, suspendPayload: env.SuspendPayload, outcome: elicit.Action}
	switch elicit.Action {
	case "accept":
		if c.resumeData, err = contentJSON(elicit.Content); err != nil {
			return nil, err
		}
	case "decline", "cancel":
	default:
		return nil, invalidParams(fmt.Sprintf("Unsupported input response %q: action %q", inputKey, elicit.Action))
	}
	return c, nil
}

func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// principalOf is the caller a continuation is bound to: the authenticated
// user when the transport carries one (HTTP routes behind the server's
// auth), else "anonymous".
func principalOf(req *mcp.CallToolRequest) string {
	if req.Extra != nil && req.Extra.TokenInfo != nil && req.Extra.TokenInfo.UserID != "" {
		return "user:" + req.Extra.TokenInfo.UserID
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
