package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// maxInputRounds bounds the rounds of one multi-round-trip request (the
// SDK's bound).
const maxInputRounds = 10

// inputRound is what a call suspended on a multi-round-trip input request
// keeps in its suspend payload: enough to retry the call with the answers,
// in this process or after a restart.
type inputRound struct {
	State   string                       `json:"state,omitempty"`
	Asks    map[string]*mcp.ElicitParams `json:"asks"`
	Answers map[string]*mcp.ElicitResult `json:"answers,omitempty"`
	Pending string                       `json:"pending"`
}

// callRounds answers the input requests of a multi-round-trip tools/call
// result (servers on protocol 2026-07-28 ask for input this way) and
// retries the call with the answers until it completes. Each elicitation
// goes to the handler, or suspends the call (when it can suspend) with
// the round in the payload, so that a resume needs nothing in memory.
func (s *server) callRounds(ctx tools.Context, name string, params *mcp.CallToolParams, what string, res *mcp.CallToolResult, err error) (*mcp.CallToolResult, error) {
	for round := 1; err == nil && res.NeedsInput(); round++ {
		if round > maxInputRounds {
			return nil, fmt.Errorf("mcpclient: %s: the server asked for input more than %d times", what, maxInputRounds)
		}
		r := &inputRound{State: res.RequestState, Asks: map[string]*mcp.ElicitParams{}, Answers: map[string]*mcp.ElicitResult{}}
		for id, ir := range res.InputRequests {
			p, ok := ir.(*mcp.ElicitParams)
			if !ok {
				return nil, fmt.Errorf("mcpclient: %s: the server asked for input this client does not give (%T)", what, ir)
			}
			r.Asks[id] = p
		}
		if len(r.Asks) == 0 {
			return nil, fmt.Errorf("mcpclient: %s: the server is busy (input required with no requests)", what)
		}
		if res, err = s.continueRound(ctx, name, params, what, r); errors.Is(err, tools.ErrSuspended) {
			return nil, err
		}
	}
	return res, err
}

// continueRound answers r's remaining requests, then retries the call.
func (s *server) continueRound(ctx tools.Context, name string, params *mcp.CallToolParams, what string, r *inputRound) (*mcp.CallToolResult, error) {
	ids := make([]string, 0, len(r.Asks))
	for id := range r.Asks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if r.Answers[id] != nil {
			continue
		}
		req, err := newElicitationRequest(s.name, r.Asks[id])
		if err != nil {
			return nil, fmt.Errorf("mcpclient: %s: %w", what, err)
		}
		req.Tool = name
		h := s.events.elicitationHandler(s.cfg.ElicitationHandler)
		if h == nil && !s.cfg.DisableElicitation && ctx.ToolCallID() != "" {
			r.Pending = id
			return nil, suspendOnRound(ctx, req, r, "")
		}
		if h == nil {
			return nil, fmt.Errorf("mcpclient: %s: the server asks for input and no elicitation handler is registered", what)
		}
		resp, err := h(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("mcpclient: %s: elicitation handler: %w", what, err)
		}
		if r.Answers[id], err = finishAnswer(req, resp); err != nil {
			return nil, fmt.Errorf("mcpclient: %s: %w", what, err)
		}
	}
	retry := *params
	retry.InputResponses = mcp.InputResponseMap{}
	for id, a := range r.Answers {
		retry.InputResponses[id] = a
	}
	retry.RequestState = r.State
	return withConn(ctx, s, what, func(rctx context.Context, conn *connection) (*mcp.CallToolResult, error) {
		return conn.session.CallTool(rctx, &retry)
	})
}

// suspendOnRound suspends the call on r's pending request.
func suspendOnRound(ctx tools.Context, req *ElicitationRequest, r *inputRound, problem string) error {
	sus := newElicitationSuspension(req, problem)
	b, err := json.Marshal(r)
	if err != nil {
		return &tools.SuspendError{Err: err}
	}
	sus.Round = b
	return ctx.Suspend(sus, tools.WithResumeSchema(resumeSchema(req)))
}

// resumeRound hands the resume data to the round the call suspended on
// and goes on with the call.
func (s *server) resumeRound(ctx tools.Context, name string, params *mcp.CallToolParams, what string, sus *ElicitationSuspension) (*mcp.CallToolResult, error) {
	var r inputRound
	if err := json.Unmarshal(sus.Round, &r); err != nil || r.Asks[r.Pending] == nil {
		return nil, fmt.Errorf("mcpclient: %s: the suspended input round is unreadable", what)
	}
	req, err := newElicitationRequest(s.name, r.Asks[r.Pending])
	if err != nil {
		return nil, fmt.Errorf("mcpclient: %s: %w", what, err)
	}
	req.Tool = name
	resp, problem := decodeAnswer(ctx.ResumeData(), req)
	if problem != "" {
		return nil, suspendOnRound(ctx, req, &r, problem)
	}
	if r.Answers == nil {
		r.Answers = map[string]*mcp.ElicitResult{}
	}
	if r.Answers[r.Pending], err = finishAnswer(req, resp); err != nil {
		return nil, suspendOnRound(ctx, req, &r, err.Error())
	}
	res, err := s.continueRound(ctx, name, params, what, &r)
	if errors.Is(err, tools.ErrSuspended) {
		return nil, err
	}
	return s.callRounds(ctx, name, params, what, res, err)
}

// finishAnswer checks an answer and, when it accepts a form, validates its
// content against the requested schema and fills in the schema's defaults
// (SEP-1034), as the SDK does for elicitation/create requests.
func finishAnswer(req *ElicitationRequest, resp *ElicitationResponse) (*mcp.ElicitResult, error) {
	if err := resp.check(); err != nil {
		return nil, err
	}
	res := &mcp.ElicitResult{Action: string(resp.Action), Content: resp.Content}
	if resp.Action != ElicitationAccept || req.Mode != "form" || req.RequestedSchema == nil {
		return res, nil
	}
	if res.Content == nil {
		res.Content = map[string]any{}
	}
	resolved, err := resolveRequested(req.RequestedSchema)
	if err != nil {
		return nil, err
	}
	if err := resolved.Validate(res.Content); err != nil {
		return nil, fmt.Errorf("mcpclient: the elicitation answer does not match the requested schema: %w", err)
	}
	if err := resolved.ApplyDefaults(&res.Content); err != nil {
		return nil, fmt.Errorf("mcpclient: applying the requested schema's defaults: %w", err)
	}
	return res, nil
}

// resolveRequested compiles a requested schema.
func resolveRequested(requested map[string]any) (*jsonschema.Resolved, error) {
	raw, err := json.Marshal(requested)
	if err != nil {
		return nil, err
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(raw, &sch); err != nil {
		return nil, fmt.Errorf("mcpclient: the requested schema is invalid: %w", err)
	}
	resolved, err := sch.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("mcpclient: the requested schema is invalid: %w", err)
	}
	return resolved, nil
}

// inputRounds is callRounds for prompts and resources (which cannot
// suspend): while the result asks for input, the handler answers and the
// request is sent again with the answers. retry sends it with responses
// and state and reports whether the new result needs input, with its
// requests and state.
func (s *server) inputRounds(ctx context.Context, what string, needs bool, requests mcp.InputRequestMap, state string,
	retry func(mcp.InputResponseMap, string) (bool, mcp.InputRequestMap, string, error)) error {
	for round := 1; needs; round++ {
		if round > maxInputRounds || len(requests) == 0 {
			return fmt.Errorf("mcpclient: %s: the server keeps asking for input", what)
		}
		h := s.events.elicitationHandler(s.cfg.ElicitationHandler)
		if h == nil {
			return fmt.Errorf("mcpclient: %s: the server asks for input and no elicitation handler is registered", what)
		}
		answers := mcp.InputResponseMap{}
		for id, ir := range requests {
			p, ok := ir.(*mcp.ElicitParams)
			if !ok {
				return fmt.Errorf("mcpclient: %s: the server asked for input this client does not give (%T)", what, ir)
			}
			req, err := newElicitationRequest(s.name, p)
			if err != nil {
				return fmt.Errorf("mcpclient: %s: %w", what, err)
			}
			resp, err := h(ctx, req)
			if err != nil {
				return fmt.Errorf("mcpclient: %s: elicitation handler: %w", what, err)
			}
			if answers[id], err = finishAnswer(req, resp); err != nil {
				return fmt.Errorf("mcpclient: %s: %w", what, err)
			}
		}
		var err error
		if needs, requests, state, err = retry(answers, state); err != nil {
			return err
		}
	}
	return nil
}

// getPrompt is prompts/get with the server's input requests answered.
func (s *server) getPrompt(ctx context.Context, conn *connection, params *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	res, err := conn.session.GetPrompt(ctx, params)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("getting prompt %q of server %q", params.Name, s.name)
	err = s.inputRounds(ctx, what, res.NeedsInput(), res.InputRequests, res.RequestState,
		func(answers mcp.InputResponseMap, state string) (bool, mcp.InputRequestMap, string, error) {
			retry := *params
			retry.InputResponses, retry.RequestState = answers, state
			if res, err = conn.session.GetPrompt(ctx, &retry); err != nil {
				return false, nil, "", err
			}
			return res.NeedsInput(), res.InputRequests, res.RequestState, nil
		})
	return res, err
}

// readResource is resources/read with the server's input requests
// answered.
func (s *server) readResource(ctx context.Context, conn *connection, params *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	res, err := conn.session.ReadResource(ctx, params)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("reading resource %q of server %q", params.URI, s.name)
	err = s.inputRounds(ctx, what, res.NeedsInput(), res.InputRequests, res.RequestState,
		func(answers mcp.InputResponseMap, state string) (bool, mcp.InputRequestMap, string, error) {
			retry := *params
			retry.InputResponses, retry.RequestState = answers, state
			if res, err = conn.session.ReadResource(ctx, &retry); err != nil {
				return false, nil, "", err
			}
			return res.NeedsInput(), res.InputRequests, res.RequestState, nil
		})
	return res, err
}
