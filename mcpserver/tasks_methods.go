package mcpserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// installTasks adds MCP tasks to srv when cfg.Tasks names task tools:
// the extension in the server's capabilities, tasks/get, tasks/update and
// tasks/cancel, and the tools/call middleware that turns calls of task
// tools into tasks. tasks/list and tasks/result (of the extension's first
// draft) stay unknown methods.
func (s *Server) installTasks(srv *mcp.Server) error {
	if len(s.cfg.Tasks.Tools) == 0 {
		return nil
	}
	if err := s.cfg.Tasks.check(s.byName); err != nil {
		return err
	}
	store := newTaskStore(s.cfg.Tasks)
	if err := mcp.AddReceivingCustomMethod(srv, "tasks/get", func(ctx context.Context, _ *mcp.ServerSession, p *taskIDParams) (*detailedTask, error) {
		t, ok := store.get(p.TaskID, principalFrom(ctx))
		if !ok {
			return nil, unknownTask(p.TaskID)
		}
		return detailOf(&t, store.opts), nil
	}); err != nil {
		return err
	}
	if err := mcp.AddReceivingCustomMethod(srv, "tasks/cancel", func(ctx context.Context, _ *mcp.ServerSession, p *taskIDParams) (*taskAck, error) {
		if !store.cancel(p.TaskID, principalFrom(ctx)) {
			return nil, unknownTask(p.TaskID)
		}
		return &taskAck{ResultType: "complete"}, nil
	}); err != nil {
		return err
	}
	if err := mcp.AddReceivingCustomMethod(srv, "tasks/update", func(ctx context.Context, _ *mcp.ServerSession, p *taskUpdateParams) (*taskAck, error) {
		if !store.update(p.TaskID, principalFrom(ctx), p.InputResponses) {
			return nil, unknownTask(p.TaskID)
		}
		return &taskAck{ResultType: "complete"}, nil
	}); err != nil {
		return err
	}
	srv.AddReceivingMiddleware(s.taskCallMiddleware(store), taskMethodsMiddleware, advertiseTasks)
	return nil
}

// advertiseTasks adds the tasks extension to the capabilities the server
// reports (initialize, server/discover).
func advertiseTasks(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		var caps **mcp.ServerCapabilities
		switch r := res.(type) {
		case *mcp.InitializeResult:
			caps = &r.Capabilities
		case *mcp.DiscoverResult:
			caps = &r.Capabilities
		default:
			return res, err
		}
		if *caps == nil {
			*caps = &mcp.ServerCapabilities{}
		}
		(*caps).AddExtension(TasksExtension, map[string]any{})
		return res, err
	}
}

// taskMethodsMiddleware guards tasks/*: the client must have declared the
// extension (else -32021), an Mcp-Name header must match the taskId (else
// -32020), and the caller's principal is put in the context for the
// handlers, which only show a principal its own tasks.
func taskMethodsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !strings.HasPrefix(method, "tasks/") {
			return next(ctx, method, req)
		}
		var meta map[string]any
		var taskID string
		switch p := req.GetParams().(type) {
		case *taskIDParams:
			meta, taskID = p.GetMeta(), p.TaskID
		case *taskUpdateParams:
			meta, taskID = p.GetMeta(), p.TaskID
		default:
			return next(ctx, method, req)
		}
		if !declaresTasks(clientCapsOf(meta, req.GetSession())) {
			return nil, missingTasksCapability(method + " needs the client to declare the " + TasksExtension + " extension")
		}
		extra := req.GetExtra()
		if extra != nil && extra.Header != nil {
			if name := strings.TrimSpace(extra.Header.Get("Mcp-Name")); name != "" && name != taskID {
				return nil, &jsonrpc.Error{Code: mcp.CodeHeaderMismatch, Message: "header mismatch: Mcp-Name does not match params.taskId"}
			}
		}
		return next(withPrincipal(ctx, callerOf(extra)), method, req)
	}
}

// clientCapsOf is the client's capabilities: the request's own
// (_meta["io.modelcontextprotocol/clientCapabilities"]), else the
// session's.
func clientCapsOf(meta map[string]any, session mcp.Session) *mcp.ClientCapabilities {
	if v, ok := meta[mcp.MetaKeyClientCapabilities]; ok {
		raw, err := json.Marshal(v)
		if err == nil {
			var caps mcp.ClientCapabilities
			if json.Unmarshal(raw, &caps) == nil {
				return &caps
			}
		}
	}
	if ss, ok := session.(*mcp.ServerSession); ok && ss != nil {
		if p := ss.InitializeParams(); p != nil {
			return p.Capabilities
		}
	}
	return nil
}

// declaresTasks tells whether caps include the tasks extension.
func declaresTasks(caps *mcp.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[TasksExtension]
	return ok
}

// missingTasksCapability is the -32021 error naming the tasks extension.
func missingTasksCapability(msg string) error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{
		"extensions": map[string]any{TasksExtension: map[string]any{}},
	}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: msg, Data: data}
}

// unknownTask is the invalid-params error of a task id the caller has no
// task under.
func unknownTask(id string) error {
	return invalidParams("unknown task: " + id)
}

type principalKey struct{}

func withPrincipal(ctx context.Context, p string) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// principalFrom is the caller put in ctx by taskMethodsMiddleware.
func principalFrom(ctx context.Context) string {
	if p, ok := ctx.Value(principalKey{}).(string); ok {
		return p
	}
	return "anonymous"
}
