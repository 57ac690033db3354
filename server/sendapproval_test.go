package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// send-tool-approval's resumeData answers a suspended ask_user by thread,
// as Mastra's route does (it passes resumeData on to resumeStream).
func TestSendToolApprovalAnswersASuspendedTool(t *testing.T) {
	f := newFixture(t,
		withModel(func(m *scripted) {
			m.toolName, m.args, m.finalText = "ask_user", `{"question":"Which city?"}`, "Noted."
		}),
		withAgent(func(c *agent.Config) { c.Tools = tools.Set{"ask_user": builtin.AskUserTool} }))
	cs := f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"Weather?","memory":{"thread":"t-ask","resource":"u1"}}`)
	var callID string
	for _, c := range cs {
		if c.Type == stream.TypeToolCallSuspended {
			var p struct {
				ToolCallID string `json:"toolCallId"`
			}
			b, _ := json.Marshal(c.Payload)
			_ = json.Unmarshal(b, &p)
			callID = p.ToolCallID
		}
	}
	if callID == "" {
		t.Fatalf("no suspension in %v", cs)
	}
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/send-tool-approval",
		`{"resourceId":"u1","threadId":"t-ask","toolCallId":"`+callID+`","approved":true,"resumeData":"Lisbon"}`)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"accepted":true`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		msgs, err := f.store.ListMessages(context.Background(), "t-ask", 0)
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, m := range msgs {
			all.Write(m.Content)
		}
		if strings.Contains(all.String(), "User answered: Lisbon") && strings.Contains(all.String(), "Noted.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the answered run did not finish: %s", all.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
