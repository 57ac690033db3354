package mcpclient

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client against gomastra's own MCP server (mcpserver, its
// conformance server over stdio, built from source), whose task tools
// answer with MCP tasks.
func TestTasksAgainstMCPServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcpserver/interop/conformance-server")
	}
	bin := filepath.Join(t.TempDir(), "conformance-server")
	build := exec.Command("go", "build", "-o", bin, "./interop/conformance-server")
	build.Dir = filepath.Join("..", "mcpserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the server: %v\n%s", err, out)
	}
	withTasks := ServerConfig{Command: bin, Stderr: io.Discard, Tasks: &TasksConfig{}}
	without := ServerConfig{Command: bin, Stderr: io.Discard}
	asked := withTasks
	asked.Tasks = &TasksConfig{}
	asked.ElicitationHandler = func(_ context.Context, req *ElicitationRequest) (*ElicitationResponse, error) {
		if req.Tool != "confirm_delete" || req.Message != "Delete x?" {
			return nil, errors.New("unexpected question")
		}
		return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"confirm": true}}, nil
	}
	badAnswer := withTasks
	badAnswer.Tasks = &TasksConfig{}
	badAnswer.ElicitationHandler = func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) {
		return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"confirm": "yes"}}, nil
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"tasks": withTasks, "plain": without, "asked": asked, "bad": badAnswer}})
	set := c.ListTools(ctxT(t))

	res, err := executeJSON(t, set["tasks_slow_compute"], `{"seconds":0.2,"label":"e2e"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := contentText(res.Output.(*mcp.CallToolResult).Content); got != "slow_compute e2e done after 0.2s" {
		t.Errorf("slow_compute = %q", got)
	}
	if _, err := executeJSON(t, set["tasks_failing_job"], `{}`); err == nil || !strings.Contains(err.Error(), "failing_job failed on purpose") {
		t.Errorf("failing_job: %v, want the tool's error", err)
	}
	_, err = executeJSON(t, set["tasks_protocol_error_job"], `{}`)
	var te *TaskError
	if !errors.As(err, &te) || !errors.Is(err, ErrTaskFailed) || te.Code != -32603 {
		t.Errorf("protocol_error_job: %v, want a failed task with code -32603", err)
	}
	_, err = executeJSON(t, set["tasks_confirm_delete"], `{"filename":"x"}`)
	if !errors.Is(err, ErrTaskNeedsInput) {
		t.Errorf("confirm_delete: %v, want ErrTaskNeedsInput", err)
	}
	// With an elicitation handler the task's question is answered.
	res, err = executeJSON(t, set["asked_confirm_delete"], `{"filename":"x"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := contentText(res.Output.(*mcp.CallToolResult).Content); got != `confirm_delete x: {"confirm":true}` {
		t.Errorf("confirm_delete = %q", got)
	}
	_, err = executeJSON(t, set["bad_confirm_delete"], `{"filename":"x"}`)
	if !errors.Is(err, ErrTaskNeedsInput) || !strings.Contains(err.Error(), "does not match the requested schema") {
		t.Errorf("confirm_delete answered badly: %v", err)
	}
	// Without the extension a required task tool is refused.
	if _, err := executeJSON(t, set["plain_failing_job"], `{}`); err == nil || !strings.Contains(err.Error(), "-32021") {
		t.Errorf("failing_job without tasks: %v, want error -32021", err)
	}
	// Cancelling the call cancels the task; the server goes on serving.
	ctx, cancel := context.WithTimeout(ctxT(t), 300*time.Millisecond)
	defer cancel()
	if _, err := set["tasks_slow_compute"].Execute(ctx, []byte(`{"seconds":60}`), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled call: %v", err)
	}
	if _, err := executeJSON(t, set["tasks_greet"], `{"name":"Ada"}`); err != nil {
		t.Errorf("greet after a cancelled task: %v", err)
	}
}
