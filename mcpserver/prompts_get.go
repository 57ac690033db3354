package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/schema"
)

// getPrompt answers prompts/get for a listed prompt:
//
//   - a missing required argument is an invalid-params error "Missing
//     required argument: <name>" (Mastra's text);
//   - a prompt that suspends asks the client with an input_required
//     result (the SDK turns it into elicitation/create for clients before
//     2026-07-28): the question under "input", a signed requestState bound
//     to the prompt, its arguments and the caller;
//   - the answer to that question (same arguments, the requestState, the
//     response under "input") runs Messages again with ResumeData; a
//     declined or cancelled question, or an answer that does not fit
//     Prompts.ResumeSchema, ends it with an invalid-params error; a client
//     without the elicitation capability gets a missing-capability error
//     (-32021).
func (s *Server) getPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	name := req.Params.Name
	p := s.listedPrompt(name)
	if p == nil {
		return nil, invalidParams(fmt.Sprintf("Prompt %q not found", name))
	}
	for _, a := range p.Arguments {
		if a != nil && a.Required {
			if _, ok := req.Params.Arguments[a.Name]; !ok {
				return nil, invalidParams("Missing required argument: " + a.Name)
			}
		}
	}
	args, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil, err
	}
	if req.Params.Arguments == nil {
		args = json.RawMessage(`{}`)
	}
	principal := callerOf(req.Extra)
	pr := &PromptRequest{Prompt: p, Args: req.Params.Arguments}
	round := 0
	if req.Params.RequestState != "" {
		env, answer, err := s.readInputAnswer(req.Params.RequestState, req.Params.InputResponses, "prompts/get", name, args, principal, inputKey)
		if err != nil {
			return nil, err
		}
		if answer.Action != "accept" {
			return nil, invalidParams(fmt.Sprintf("Prompt '%s' was %s", name, declinedWord(answer.Action)))
		}
		if pr.ResumeData, err = s.promptAnswer(answer.Content); err != nil {
			return nil, err
		}
		pr.SuspendPayload, round = env.SuspendPayload, env.Round
	}
	messages, err := s.cfg.Prompts.Messages(ctx, pr)
	if errors.Is(err, ErrPromptSuspended) && pr.suspended != nil {
		return s.promptInputRequired(req, name, args, principal, round+1, pr.suspended)
	}
	if err != nil {
		s.log.Error("Failed to get content for prompt", "prompt", name, "error", err)
		return nil, err
	}
	return &mcp.GetPromptResult{Description: p.Description, Messages: messages}, nil
}

// promptInputRequired is the input_required result of a suspended prompt.
func (s *Server) promptInputRequired(req *mcp.GetPromptRequest, name string, args json.RawMessage, principal string, round int, payload json.RawMessage) (*mcp.GetPromptResult, error) {
	message := payloadMessage(payload)
	if message == "" {
		message = fmt.Sprintf("Prompt '%s' needs more input", name)
	}
	if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
		return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities,
			Message: fmt.Sprintf("Prompt '%s' needs input (%s), but the client cannot provide it: it declared no elicitation capability.", name, message),
			Data:    json.RawMessage(`{"requiredCapabilities":{"elicitation":{}}}`)}
	}
	hash, err := hashArguments(args)
	if err != nil {
		return nil, err
	}
	state, err := s.codec.mint(envelope{
		Method: "prompts/get", Name: name, ArgsHash: hash, Round: round,
		SuspendPayload: payload, Principal: principal, IssuedAt: s.codec.now().Unix(),
	})
	if err != nil {
		return nil, err
	}
	q := &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: s.prompts.form}
	return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{inputKey: q}, RequestState: state}, nil
}

// promptAnswer is an accepted answer as resume data, checked against
// Prompts.ResumeSchema.
func (s *Server) promptAnswer(content map[string]any) (json.RawMessage, error) {
	data, err := contentJSON(content)
	if err != nil || s.cfg.Prompts.ResumeSchema == "" {
		return data, err
	}
	sch, err := schema.FromJSON([]byte(s.cfg.Prompts.ResumeSchema))
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	if _, issues := sch.Validate(v); len(issues) > 0 {
		return nil, invalidParams(fmt.Sprintf("Invalid input response %q: %s", inputKey, issues[0].Message))
	}
	return data, nil
}

// declinedWord is "declined" or "cancelled".
func declinedWord(action string) string {
	if action == "decline" {
		return "declined"
	}
	return "cancelled"
}
