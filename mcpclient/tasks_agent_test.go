package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
)

// An agent with background tasks enabled calls an MCP tool that becomes a
// task: the run ends while the MCP task is still working (the agent is not
// blocked), and the background task gets the MCP task's result once the
// server finishes it.
func TestAgentIsNotBlockedByAnMCPTask(t *testing.T) {
	f := newFakeTaskServer()
	c := taskClient(t, f, &TasksConfig{Background: true})
	set := c.ListTools(ctxT(t))
	if bg := set["srv_job"].Background(); bg == nil || !bg.Enabled {
		t.Fatalf("srv_job background = %+v, want enabled", bg)
	}
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "srv_job", Args: `{}`}}},
		mock.Step{Text: "The report is being built."},
	)
	a, err := agent.New(agent.Config{ID: "reporter", Model: m, Tools: set})
	if err != nil {
		t.Fatal(err)
	}
	reg := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"reporter": a},
		BackgroundTasks: &bgtasks.Config{Store: bgtasks.NewMemoryStore(), PollInterval: 10 * time.Millisecond}})
	mgr := reg.BackgroundTaskManager()
	defer mgr.Shutdown(context.Background())

	out, err := a.Generate(ctxT(t), "Build the report.")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "The report is being built." {
		t.Fatalf("text = %q", out.Text)
	}
	// The run is over; the MCP task is still working on the server.
	<-f.polled
	list, err := mgr.ListTasks(ctxT(t), bgtasks.Filter{})
	if err != nil || list.Total != 1 {
		t.Fatalf("background tasks: %+v, %v; want one", list, err)
	}
	id := list.Tasks[0].ID
	if st := list.Tasks[0].Status; st.Terminal() {
		t.Fatalf("background task is %s before the MCP task ended", st)
	}
	f.set(func(f *fakeTaskServer) {
		f.status = "completed"
		f.result = json.RawMessage(`{"content":[{"type":"text","text":"report: 42 commits"}]}`)
	})
	done, err := mgr.WaitForNextTask(ctxT(t), []string{id})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != bgtasks.Completed || !strings.Contains(string(done.Result), "report: 42 commits") {
		t.Fatalf("background task ended %s with %s", done.Status, done.Result)
	}
}
