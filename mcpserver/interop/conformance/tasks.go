package conformance

import (
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/tools"
)

// addTaskTools adds the tools the tasks-* scenarios drive (SEP-2663) with
// add, and returns the task options that make them tasks: greet (a plain
// tool), slow_compute (a task that sleeps `seconds`), failing_job (a
// required task whose tool fails), protocol_error_job (a task that fails
// with a JSON-RPC error) and confirm_delete (a task that asks the client
// to confirm).
func addTaskTools(add func(name, description, input string, execute func(tools.Context, map[string]any) (any, error), resume string) error) (mcpserver.TasksOptions, error) {
	for _, tc := range []struct {
		name, description, input, resume string
		execute                          func(tools.Context, map[string]any) (any, error)
	}{
		{"greet", "Greets by name (synchronous)", `{"type":"object","properties":{"name":{"type":"string"}}}`, "",
			func(_ tools.Context, in map[string]any) (any, error) {
				return fmt.Sprintf("Hello, %v!", orEmpty(in["name"])), nil
			}},
		{"slow_compute", "Sleeps for `seconds` seconds, then reports its label (a task)",
			`{"type":"object","properties":{"seconds":{"type":"number"},"label":{"type":"string"}}}`, "", slowCompute},
		{"failing_job", "Fails after a moment (a task)", "", "", func(ctx tools.Context, _ map[string]any) (any, error) {
			if err := sleep(ctx, 200*time.Millisecond); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("failing_job failed on purpose")
		}},
		{"protocol_error_job", "Fails with a JSON-RPC internal error (a task)", "", "", func(tools.Context, map[string]any) (any, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "protocol_error_job: internal failure"}
		}},
		{"confirm_delete", "Asks the client to confirm deleting `filename` (a task)",
			`{"type":"object","properties":{"filename":{"type":"string"}}}`, confirmForm, confirmDelete},
	} {
		if err := add(tc.name, tc.description, tc.input, tc.execute, tc.resume); err != nil {
			return mcpserver.TasksOptions{}, err
		}
	}
	return mcpserver.TasksOptions{
		Tools: map[string]mcpserver.TaskSupport{
			"slow_compute":       mcpserver.TaskOptional,
			"failing_job":        mcpserver.TaskRequired,
			"protocol_error_job": mcpserver.TaskOptional,
			"confirm_delete":     mcpserver.TaskOptional,
		},
		PollInterval: 200 * time.Millisecond,
	}, nil
}

const confirmForm = `{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`

func slowCompute(ctx tools.Context, in map[string]any) (any, error) {
	seconds, _ := in["seconds"].(float64)
	if err := sleep(ctx, time.Duration(seconds*float64(time.Second))); err != nil {
		return nil, err
	}
	return fmt.Sprintf("slow_compute %v done after %vs", orEmpty(in["label"]), seconds), nil
}

func confirmDelete(ctx tools.Context, in map[string]any) (any, error) {
	if ctx.ResumeData() == nil {
		return nil, ctx.Suspend(map[string]any{"message": fmt.Sprintf("Delete %v?", orEmpty(in["filename"]))})
	}
	return fmt.Sprintf("confirm_delete %v: %s", orEmpty(in["filename"]), ctx.ResumeData()), nil
}

// sleep waits d or until ctx ends.
func sleep(ctx tools.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
