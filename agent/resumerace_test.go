package agent

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// A resume with data of a run another resume is running (stored as
// running) is a conflict: it must not take the run over and run the
// call a second time while the first resume is alive.
func TestResumeOfARunningRunIsAConflict(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var executions atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	slow := tools.New(tools.Config[confirmIn, confirmOut]{ID: "pay", RequireApproval: true, Execute: func(tools.Context, confirmIn) (confirmOut, error) {
		executions.Add(1)
		close(entered)
		<-release
		return confirmOut{Paid: true}, nil
	}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":1}`}}}, mock.Step{Text: "Paid."})
	a := newAgent(t, m, tools.Set{"pay": slow}, func(c *Config) { c.Storage = st })
	first, err := a.Generate(ctx, "pay", WithMemory("t1", "u1"))
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("first run: %v %s", err, first.FinishReason)
	}
	done := make(chan error, 1)
	go func() {
		_, err := a.ApproveToolCallGenerate(ctx, first.RunID, "c1")
		done <- err
	}()
	<-entered // the first resume is running the call
	// Without a tool call id, as a second process resuming the run would.
	_, err = a.ResumeGenerate(ctx, first.RunID, map[string]any{"approved": true})
	var re *RunError
	if !errors.Is(err, storage.ErrConflict) || !errors.As(err, &re) || re.ID != "AGENT_RESUME_CONFLICT" {
		t.Errorf("second resume: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("first resume: %v", err)
	}
	if n := executions.Load(); n != 1 {
		t.Errorf("the call ran %d times", n)
	}
}
