package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Elicitation defaults.
const (
	// DefaultElicitationTimeout bounds how long a tool call suspended on an
	// elicitation keeps waiting, in memory, for its answer.
	DefaultElicitationTimeout = 15 * time.Minute
	// DefaultMaxSuspendedElicitations bounds the calls of one server kept
	// waiting for an answer at once; past it, new elicitations are
	// answered "cancel".
	DefaultMaxSuspendedElicitations = 64
)

// ElicitationAction is a person's answer to an elicitation.
type ElicitationAction string

const (
	// ElicitationAccept: the person submitted the form (Content holds it).
	ElicitationAccept ElicitationAction = "accept"
	// ElicitationDecline: the person explicitly said no.
	ElicitationDecline ElicitationAction = "decline"
	// ElicitationCancel: the person dismissed the request without choosing.
	ElicitationCancel ElicitationAction = "cancel"
)

// ElicitationRequest is a server's request for input from the user
// (elicitation/create, or an input request of a multi-round-trip call).
type ElicitationRequest struct {
	// Server is the configured name of the server that asks.
	Server string `json:"server"`
	// Tool is the server's name of the tool whose call asks: always known
	// on servers that send input requests (multi-round-trip), and for an
	// in-flight elicitation/create when one call of this client runs on
	// the server; "" otherwise.
	Tool string `json:"tool,omitempty"`
	// Mode is "form" (answer with Content matching RequestedSchema) or
	// "url" (send the user to URL; answer accept once they went).
	Mode string `json:"mode"`
	// Message is the server's question for the user.
	Message string `json:"message"`
	// RequestedSchema is the flat object JSON Schema the answer's Content
	// must satisfy (form mode); its properties' defaults fill the fields an
	// accepted answer leaves out.
	RequestedSchema map[string]any `json:"requestedSchema,omitempty"`
	// URL and ElicitationID are set in url mode.
	URL           string `json:"url,omitempty"`
	ElicitationID string `json:"elicitationId,omitempty"`
}

// ElicitationResponse is the answer to an ElicitationRequest, and the
// resume data of a call suspended on one.
type ElicitationResponse struct {
	Action ElicitationAction `json:"action"`
	// Content is the submitted form, with Action accept only.
	Content map[string]any `json:"content,omitempty"`
}

// ElicitationHandler answers a server's elicitation requests in the
// application (Mastra's client.elicitation.onRequest handler). An error is
// sent to the server as the request's error.
type ElicitationHandler func(ctx context.Context, req *ElicitationRequest) (*ElicitationResponse, error)

// check reports an answer that is not one of the three actions, or that
// carries content with decline or cancel.
func (r *ElicitationResponse) check() error {
	if r == nil {
		return errors.New("mcpclient: elicitation answer is nil")
	}
	switch r.Action {
	case ElicitationAccept:
		return nil
	case ElicitationDecline, ElicitationCancel:
		if len(r.Content) > 0 {
			return fmt.Errorf("mcpclient: elicitation answer %q must not carry content", r.Action)
		}
		return nil
	}
	return fmt.Errorf("mcpclient: elicitation answer action must be %q, %q or %q, not %q",
		ElicitationAccept, ElicitationDecline, ElicitationCancel, r.Action)
}

// newElicitationRequest converts the SDK's request parameters.
func newElicitationRequest(server string, p *mcp.ElicitParams) (*ElicitationRequest, error) {
	r := &ElicitationRequest{Server: server, Mode: p.Mode, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
	if r.Mode == "" {
		r.Mode = "form"
		if p.URL != "" {
			r.Mode = "url"
		}
	}
	if p.RequestedSchema != nil {
		raw, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return nil, fmt.Errorf("requestedSchema: %w", err)
		}
		if err := json.Unmarshal(raw, &r.RequestedSchema); err != nil {
			return nil, fmt.Errorf("requestedSchema is not a JSON object: %w", err)
		}
	}
	return r, nil
}

// onElicit is the SDK's handler of in-flight elicitation/create requests
// (multi-round-trip input requests go through callRounds instead): the
// application's handler when one is registered, else the suspension of
// the tool call that asks. The SDK then validates accepted content
// against the requested schema and fills in its defaults (SEP-1034).
func (s *server) onElicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	er, err := newElicitationRequest(s.name, req.Params)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "mcpclient: " + err.Error()}
	}
	var resp *ElicitationResponse
	if h := s.events.elicitationHandler(s.cfg.ElicitationHandler); h != nil {
		er.Tool = s.events.toolFor()
		resp, err = h(ctx, er)
	} else {
		resp, err = s.elicitBySuspension(ctx, er)
	}
	if err != nil {
		s.logger.Debug("elicitation not answered", "server", s.name, "error", err)
		return nil, err
	}
	if err := resp.check(); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	res := &mcp.ElicitResult{Action: string(resp.Action), Content: resp.Content}
	if resp.Action == ElicitationAccept && er.Mode == "form" && res.Content == nil {
		// An accepted form with nothing filled in still gets its defaults.
		res.Content = map[string]any{}
	}
	return res, nil
}

// elicitBySuspension hands the request to the tool call that asks, which
// suspends until someone resumes it with the answer.
func (s *server) elicitBySuspension(ctx context.Context, er *ElicitationRequest) (*ElicitationResponse, error) {
	pc := s.events.callFor()
	if pc == nil {
		n := s.events.running()
		msg := "mcpclient: no elicitation handler is registered and no tool call of this client waits for this request"
		if n > 1 {
			msg = fmt.Sprintf("mcpclient: no elicitation handler is registered and %d tool calls run on this server: cannot tell which one asks", n)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msg}
	}
	er.Tool = pc.tool
	return pc.ask(ctx, er)
}

func errElicitationDisabled(server string) error {
	return fmt.Errorf("mcpclient: server %q is configured with DisableElicitation", server)
}

// checkElicitationConfig rejects contradictory or negative elicitation
// settings.
func checkElicitationConfig(name string, sc ServerConfig) error {
	if sc.DisableElicitation && sc.ElicitationHandler != nil {
		return fmt.Errorf("mcpclient: server %q: set ElicitationHandler or DisableElicitation, not both", name)
	}
	if sc.ElicitationTimeout < 0 || sc.MaxSuspendedElicitations < 0 {
		return fmt.Errorf("mcpclient: server %q: ElicitationTimeout and MaxSuspendedElicitations must not be negative", name)
	}
	return nil
}

// track records a running call of tool that cannot suspend (its
// elicitations go to a handler); call the returned function when it ends.
func (e *serverEvents) track(tool string) func() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seq++
	id := e.seq
	e.tracked[id] = tool
	return func() {
		e.mu.Lock()
		delete(e.tracked, id)
		e.mu.Unlock()
	}
}

// toolFor names the tool whose call an elicitation belongs to, "" when
// it cannot tell.
func (e *serverEvents) toolFor() string {
	if pc := e.callFor(); pc != nil {
		return pc.tool
	}
	if e.running() != 1 {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, name := range e.tracked {
		return name
	}
	return ""
}
