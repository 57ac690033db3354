package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// maxLegacyRounds bounds how often one call may suspend and be answered
// through server-to-client elicitation (clients before 2026-07-28), as the
// SDK bounds its own multi-round-trip retries.
const maxLegacyRounds = 10

// callTool answers tools/call for the exposed tool e, as Mastra's MCPServer
// answers it:
//
//   - a ValidationError result (input, resume data) is {isError: true,
//     content: its message};
//   - an error the tool returned (or a panic) is {isError: true, content:
//     the serialized MastraError TOOL_EXECUTION_FAILED};
//   - a result of a tool with an object output schema is
//     {structuredContent: result, content: its JSON}; any other result is
//     {content: the string, or its JSON};
//   - a tool that suspends asks the client for input: clients of 2026-07-28
//     and later get an input_required result (an elicitation form built
//     from the resume schema, and a signed requestState) and answer by
//     calling again with the same arguments; older clients are asked with
//     elicitation/create while the call waits. A declined or cancelled
//     request ends the call with "Tool '<name>' was declined|cancelled". A
//     client that cannot answer (no elicitation capability) gets an
//     isError result saying so, never a hang.
//
// A requestState that is forged, expired, or issued for another call or
// caller is refused with a JSON-RPC invalid-params error. A call whose
// context is cancelled (the client's notifications/cancelled, a closed
// session) returns the context's error.
func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest, e *exposedTool) (*mcp.CallToolResult, error) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.done, cancel)()
	args := req.Params.Arguments
	if t := bytes.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		args = json.RawMessage(`{}`)
	}
	principal := principalOf(req)
	cont, err := s.readContinuation(req, e.name, args, principal)
	if err != nil {
		return nil, err
	}
	var resumeData, suspendPayload json.RawMessage
	round := 0
	if cont != nil {
		if cont.outcome != "accept" {
			return declined(e.name, cont.outcome), nil
		}
		resumeData, suspendPayload, round = cont.resumeData, cont.suspendPayload, cont.round
	}
	rc := requestContextOf(req)
	ctx = withRequest(ctx, s.requestOf(req))
	for {
		res, err := e.tool.Execute(ctx, args, &tools.Invocation{
			ToolName: e.name, RequestContext: rc, ResumeData: resumeData, SuspendPayload: suspendPayload,
			Mastra: s.cfg.Registry, Logger: s.log,
		})
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, ctxErr
			}
			s.log.Error("Tool execution failed", "tool", e.name, "error", storage.ErrorDetail(err))
			return &mcp.CallToolResult{IsError: true, Content: textContent(mastraErrorJSON(toolExecutionError(err)))}, nil
		}
		if !res.Suspended() {
			s.log.Debug(fmt.Sprintf("Tool '%s' finished in %dms.", e.name, time.Since(start).Milliseconds()))
			return s.toCallToolResult(e, res), nil
		}
		round++
		// An answer the client sent with the call, before being asked (suspend.go).
		if answer := presuppliedAnswer(req, cont, round, res.Suspension.Payload); answer != nil {
			if answer.Action != "accept" {
				return declined(e.name, answer.Action), nil
			}
			if resumeData, err = contentJSON(answer.Content); err != nil {
				return nil, err
			}
			suspendPayload = res.Suspension.Payload
			continue
		}
		q := s.inputQuestion(e, res.Suspension)
		if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
			return &mcp.CallToolResult{IsError: true, Content: textContent(fmt.Sprintf(
				"Tool '%s' needs input (%s), but the client cannot provide it: it declared no elicitation capability.", e.name, q.Message))}, nil
		}
		if speaksMRTR(req) {
			s.log.Debug(fmt.Sprintf("Tool '%s' requires client input.", e.name))
			return s.inputRequired(e, args, principal, round, res.Suspension.Payload, q)
		}
		if round > maxLegacyRounds {
			return &mcp.CallToolResult{IsError: true, Content: textContent(fmt.Sprintf(
				"Tool '%s' asked for input more than %d times.", e.name, maxLegacyRounds))}, nil
		}
		answer, err := req.Session.Elicit(ctx, q)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, ctxErr
			}
			return &mcp.CallToolResult{IsError: true, Content: textContent(fmt.Sprintf(
				"Tool '%s' needs input (%s), but asking the client failed: %v", e.name, q.Message, err))}, nil
		}
		if answer.Action != "accept" {
			return declined(e.name, answer.Action), nil
		}
		if resumeData, err = contentJSON(answer.Content); err != nil {
			return nil, err
		}
		suspendPayload = res.Suspension.Payload
	}
}

// declined ends a call whose input request was not accepted.
func declined(name, action string) *mcp.CallToolResult {
	word := "cancelled"
	if action == "decline" {
		word = "declined"
	}
	return &mcp.CallToolResult{IsError: true, Content: textContent(fmt.Sprintf("Tool '%s' was %s", name, word))}
}

// contentJSON is an accepted form's content as resume data ({} when empty).
func contentJSON(content map[string]any) (json.RawMessage, error) {
	if content == nil {
		return json.RawMessage(`{}`), nil
	}
	return json.Marshal(content)
}

// toCallToolResult maps a finished call to Mastra's result shapes.
func (s *Server) toCallToolResult(e *exposedTool, res *tools.Result) *mcp.CallToolResult {
	if ve := res.ValidationError(); ve != nil {
		s.log.Warn(fmt.Sprintf("Tool '%s' rejected its input.", e.name), "error", ve.Message)
		return &mcp.CallToolResult{IsError: true, Content: textContent(ve.Message)}
	}
	raw, err := res.JSON()
	if err != nil {
		return &mcp.CallToolResult{IsError: true, Content: textContent(mastraErrorJSON(toolExecutionError(err)))}
	}
	if e.output != nil && string(raw) != "null" {
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(raw), Content: textContent(wire.StringifyText(raw))}
	}
	if str, ok := res.Output.(string); ok {
		return &mcp.CallToolResult{Content: textContent(str)}
	}
	return &mcp.CallToolResult{Content: textContent(wire.StringifyText(raw))}
}
