package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// taskCallMiddleware turns tools/call of a task tool into a task when the
// client declared the tasks extension (for the session or in the
// request's _meta): the task is stored before the answer (a
// createTaskResult) is sent, and the tool runs in the background. A
// TaskRequired tool called by a client without the extension is refused
// with -32021; a TaskOptional one runs synchronously. Input requests
// (inputResponses, requestState) of a task tool's call are the
// synchronous path's.
func (s *Server) taskCallMiddleware(store *taskStore) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			support, isTask := s.cfg.Tasks.Tools[call.Params.Name]
			e := s.byName[call.Params.Name]
			if !isTask || e == nil {
				return next(ctx, method, req)
			}
			if !declaresTasks(call.ClientCapabilities()) {
				if support == TaskRequired {
					return nil, missingTasksCapability(fmt.Sprintf("tool %q runs as a task: the client must declare the %s extension", e.name, TasksExtension))
				}
				return next(ctx, method, req)
			}
			if call.Params.RequestState != "" || len(call.Params.InputResponses) > 0 {
				return next(ctx, method, req)
			}
			runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
			t := store.create(principalOf(call), cancel)
			if t == nil {
				cancel()
				if support == TaskRequired {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "too many tasks: try again later"}
				}
				return next(ctx, method, req)
			}
			stopOnClose := context.AfterFunc(s.done, cancel)
			env := envelopeOf(t, store.opts)
			go func() {
				defer stopOnClose()
				defer cancel()
				s.runTask(runCtx, store, t, call, e)
			}()
			return &createTaskResult{ResultType: "task", Content: []struct{}{}, taskEnvelope: env}, nil
		}
	}
}

// runTask runs a task's tool to its end: a result (isError included) is
// completed, an error that is a *jsonrpc.Error is failed with it (other
// errors are the tool's error result, as in a synchronous call), and a
// suspension parks the task as input_required until tasks/update answers
// it (the answer resumes the tool) or the task is cancelled.
func (s *Server) runTask(ctx context.Context, store *taskStore, t *serverTask, req *mcp.CallToolRequest, e *exposedTool) {
	args := req.Params.Arguments
	if b := bytes.TrimSpace(args); len(b) == 0 || string(b) == "null" {
		args = json.RawMessage(`{}`)
	}
	ctx = withRequest(ctx, s.requestOf(req))
	rc := requestContextOf(req)
	var resumeData, suspendPayload json.RawMessage
	for round := 1; ; round++ {
		res, err := e.tool.Execute(ctx, args, &tools.Invocation{
			ToolName: e.name, RequestContext: rc, ResumeData: resumeData, SuspendPayload: suspendPayload,
			Mastra: s.cfg.Registry, Logger: s.log,
		})
		if ctx.Err() != nil {
			store.finish(t, taskCancelled, nil, nil)
			return
		}
		if err != nil {
			var rpcErr *jsonrpc.Error
			if errors.As(err, &rpcErr) {
				store.finish(t, taskFailed, nil, rpcErr)
				return
			}
			s.log.Error("Tool execution failed", "tool", e.name, "error", storage.ErrorDetail(err))
			s.completeTask(store, t, &mcp.CallToolResult{IsError: true, Content: textContent(mastraErrorJSON(toolExecutionError(err)))})
			return
		}
		if !res.Suspended() {
			s.completeTask(store, t, s.toCallToolResult(e, res))
			return
		}
		answer, ok := s.awaitInput(ctx, store, t, e, res.Suspension, round)
		if !ok {
			store.finish(t, taskCancelled, nil, nil)
			return
		}
		if answer.Action != "accept" {
			s.completeTask(store, t, declined(e.name, answer.Action))
			return
		}
		if resumeData, err = contentJSON(answer.Content); err != nil {
			store.finish(t, taskFailed, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()})
			return
		}
		suspendPayload = res.Suspension.Payload
	}
}

// completeTask stores res as the completed task's result.
func (s *Server) completeTask(store *taskStore, t *serverTask, res *mcp.CallToolResult) {
	raw, err := json.Marshal(res)
	if err != nil {
		store.finish(t, taskFailed, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "encoding the tool result: " + err.Error()})
		return
	}
	store.finish(t, taskCompleted, raw, nil)
}

// awaitInput parks t as input_required with the suspension's form under
// "input-<round>" and waits for the answer; false when the task ended
// (cancelled, expired) first. An answer that is not an elicitation result
// counts as cancel.
func (s *Server) awaitInput(ctx context.Context, store *taskStore, t *serverTask, e *exposedTool, sus *tools.Suspension, round int) (*mcp.ElicitResult, bool) {
	q := s.inputQuestion(e, sus)
	key := fmt.Sprintf("input-%d", round)
	raw, err := json.Marshal(mcp.InputRequestMap{key: q})
	if err != nil {
		return nil, false
	}
	var requests map[string]json.RawMessage
	if json.Unmarshal(raw, &requests) != nil || !store.askInput(t, requests, q.Message) {
		return nil, false
	}
	select {
	case <-ctx.Done():
		return nil, false
	case answers := <-t.answers:
		store.resumed(t)
		var res mcp.ElicitResult
		if json.Unmarshal(answers[key], &res) != nil {
			res.Action = "cancel"
		}
		return &res, true
	}
}
