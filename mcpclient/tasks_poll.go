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

// followTask returns res, or, when res is the answer of a call that
// became a task, the task's result once it has ended: it polls tasks/get
// until the status is terminal, bounded by ctx and TasksConfig.Timeout.
// When ctx ends or the timeout passes first, the task is cancelled.
func (s *server) followTask(ctx context.Context, tool string, res *mcp.CallToolResult, err error) (*mcp.CallToolResult, error) {
	if err != nil || s.cfg.Tasks == nil {
		return res, err
	}
	task := createdTask(res)
	if task == nil {
		return res, nil
	}
	cfg := s.cfg.Tasks
	tctx, cancel := context.WithTimeout(ctx, cfg.timeout())
	defer cancel()
	taskErr := func(kind error, msg string) *TaskError {
		return &TaskError{Server: s.name, Tool: tool, TaskID: task.TaskID, Kind: kind, Message: msg}
	}
	what := fmt.Sprintf("polling task %s of tool %q on server %q", task.TaskID, tool, s.name)
	s.logger.Debug("MCP tool call became a task", "server", s.name, "tool", tool, "taskId", task.TaskID)
	answered := map[string]bool{} // input requests answered with tasks/update
	for {
		switch task.Status {
		case "completed":
			var out mcp.CallToolResult
			if len(task.Result) == 0 {
				return nil, fmt.Errorf("mcpclient: %s: the completed task carries no result", what)
			}
			if err := json.Unmarshal(task.Result, &out); err != nil {
				return nil, fmt.Errorf("mcpclient: %s: decoding the task's result: %w", what, err)
			}
			return &out, nil
		case "failed":
			e := taskErr(ErrTaskFailed, task.StatusMessage)
			if task.Error != nil {
				e.Code, e.Message = task.Error.Code, task.Error.Message
			}
			return nil, e
		case "cancelled":
			return nil, taskErr(ErrTaskCancelled, task.StatusMessage)
		case "input_required":
			problem, err := s.answerTaskInput(tctx, tool, task, answered) // tasks_input.go
			if err != nil {
				return nil, err
			}
			if problem != "" {
				s.cancelTask(task.TaskID)
				return nil, taskErr(ErrTaskNeedsInput, problem)
			}
		}
		wait := time.NewTimer(cfg.pollInterval(task.PollIntervalMs))
		select {
		case <-tctx.Done():
			wait.Stop()
			s.cancelTask(task.TaskID)
			if ctx.Err() != nil {
				return nil, fmt.Errorf("mcpclient: %s: %w", what, context.Cause(ctx))
			}
			return nil, taskErr(ErrTaskTimeout, fmt.Sprintf("no result within %v", cfg.timeout()))
		case <-wait.C:
		}
		next, err := withConn(tctx, s, what, func(rctx context.Context, conn *connection) (*wireTask, error) {
			return mcp.CallCustomMethod[*taskIDParams, *wireTask](rctx, conn.session, "tasks/get", &taskIDParams{TaskID: task.TaskID})
		})
		if err != nil {
			var pe *protocolError
			if errors.As(err, &pe) && pe.wire.Code == jsonrpc.CodeInvalidParams {
				return nil, taskErr(ErrTaskExpired, pe.wire.Message)
			}
			if tctx.Err() != nil {
				continue // the select above words it and cancels the task
			}
			return nil, err
		}
		task.Status, task.StatusMessage, task.Result, task.Error, task.InputRequests = next.Status, next.StatusMessage, next.Result, next.Error, next.InputRequests
		if next.PollIntervalMs > 0 {
			task.PollIntervalMs = next.PollIntervalMs
		}
	}
}

// cancelTask sends tasks/cancel for a task whose caller gave up, bounded
// by the server's Timeout and independent of the caller's context. A
// failure is only logged: the server's TTL ends the task anyway.
func (s *server) cancelTask(id string) {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.timeout)
	defer cancel()
	_, err := withConn(ctx, s, "cancelling task "+id, func(rctx context.Context, conn *connection) (*taskAck, error) {
		return mcp.CallCustomMethod[*taskIDParams, *taskAck](rctx, conn.session, "tasks/cancel", &taskIDParams{TaskID: id})
	})
	if err != nil {
		s.logger.Debug("cancelling MCP task failed", "server", s.name, "taskId", id, "error", err)
	}
}
