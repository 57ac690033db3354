package resumegate

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

type payIn struct {
	Amount int `json:"amount"`
}

type payOut struct {
	Paid bool `json:"paid"`
}

// suspendedRun makes an agent whose run for resource u1 waits for the
// approval of call c1; its tool blocks, once approved, until release is
// closed (entered is closed when it starts).
func suspendedRun(t *testing.T, entered, release chan struct{}) (*agent.Agent, string) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	pay := tools.New(tools.Config[payIn, payOut]{ID: "pay", RequireApproval: true, Execute: func(tools.Context, payIn) (payOut, error) {
		close(entered)
		<-release
		return payOut{Paid: true}, nil
	}})
	a, err := agent.New(agent.Config{ID: "payer", Name: "Payer", Storage: st, Tools: tools.Set{"pay": pay},
		Model: mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":1}`}}}, mock.Step{Text: "Paid."})})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(ctx, "pay", agent.WithMemory("t1", "u1"))
	if err != nil || out.FinishReason != model.FinishSuspended {
		t.Fatalf("run: %v %s", err, out.FinishReason)
	}
	return a, out.RunID
}

func TestAdmit(t *testing.T) {
	ctx := context.Background()
	entered, release := make(chan struct{}), make(chan struct{})
	a, runID := suspendedRun(t, entered, release)
	for _, tt := range []struct {
		name, runID, callID, resource string
		want                          Admission
		status                        int
	}{
		{"unknown run: left to the agent", "nope", "x", "u1", Admission{ToolCallID: "x"}, 0},
		{"another resource's run", runID, "", "u2", Admission{}, http.StatusForbidden},
		{"the first waiting call is named", runID, "", "u1", Admission{ToolCallID: "c1", Waiting: true}, 0},
		{"no resource to check", runID, "c1", "", Admission{ToolCallID: "c1", Waiting: true}, 0},
		{"a call that does not wait", runID, "c9", "", Admission{ToolCallID: "c9"}, 0},
	} {
		adm, err := Admit(ctx, a, "resumeStream", tt.runID, tt.callID, tt.resource)
		status := 0
		var ref *Refusal
		if errors.As(err, &ref) {
			status = ref.Status
		} else if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if status != tt.status || (status == 0 && adm != tt.want) {
			t.Errorf("%s: %+v %v, want %+v (status %d)", tt.name, adm, err, tt.want, tt.status)
		}
		if status == http.StatusForbidden && ref.Error() != "Access denied: run belongs to a different resource" {
			t.Errorf("%s: %q", tt.name, ref.Error())
		}
	}
	// While another resume runs the call, the run is not suspended.
	done := make(chan error, 1)
	go func() {
		_, err := a.ApproveToolCallGenerate(ctx, runID, "c1")
		done <- err
	}()
	<-entered
	_, err := Admit(ctx, a, "approveToolCall", runID, "c1", "u1")
	var ref *Refusal
	want := `Agent "Payer" approveToolCall() cannot resume run "` + runID + `": another resume of it is under way or has finished.`
	if !errors.As(err, &ref) || ref.Status != http.StatusConflict || ref.Message != want {
		t.Errorf("running run: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestClaimedMeanwhile(t *testing.T) {
	notSuspended := &agent.RunError{ID: "AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED", Message: "not suspended"}
	for _, tt := range []struct {
		err     error
		waiting bool
		want    bool
	}{
		{notSuspended, true, true},
		{notSuspended, false, false},
		{&agent.RunError{ID: "AGENT_RESUME_NO_SNAPSHOT_FOUND"}, true, false},
		{errors.New("other"), true, false},
		{nil, true, false},
	} {
		if got := ClaimedMeanwhile(tt.err, Admission{Waiting: tt.waiting}); got != tt.want {
			t.Errorf("ClaimedMeanwhile(%v, waiting %v) = %v", tt.err, tt.waiting, got)
		}
	}
}
