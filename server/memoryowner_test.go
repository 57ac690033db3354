package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/storage"
)

// The memory routes check a thread's resource by the agent routes' rule
// (agent.CheckThreadResource), as Mastra's enforceThreadAccess does: a
// thread without a resource is open to any caller's resource, with or
// without Options.Auth, while a thread of another resource stays a 403.
func TestMemoryRoutesOpenAResourcelessThread(t *testing.T) {
	for _, auth := range []bool{false, true} {
		var opts []fixtureOpt
		opts = append(opts, withWorkingMemory(agent.ScopeResource))
		if auth {
			opts = append(opts, withOptions(Options{Auth: func(r *http.Request) (string, error) { return "u2", nil }}))
		}
		f := newFixture(t, opts...)
		ctx := context.Background()
		for _, th := range []storage.Thread{{ID: "open"}, {ID: "mine", ResourceID: "u2"}, {ID: "theirs", ResourceID: "u1"}} {
			if err := f.store.SaveThread(ctx, th); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/api/memory/threads/%s?agentId=calc-agent&resourceId=u2", ""},
			{"GET", "/api/memory/threads/%s/messages?agentId=calc-agent&resourceId=u2", ""},
			{"GET", "/api/memory/threads/%s/working-memory?agentId=calc-agent&resourceId=u2", ""},
			{"POST", "/api/memory/threads/%s/working-memory?agentId=calc-agent", `{"workingMemory":"notes","resourceId":"u2"}`},
			{"POST", "/api/memory/save-messages?agentId=calc-agent", `{"messages":[{"threadId":"%s","resourceId":"u2","role":"user","content":"hi"}]}`},
			{"PATCH", "/api/memory/threads/%s?agentId=calc-agent", `{"title":"T","resourceId":"u2"}`},
		} {
			for _, th := range []struct {
				id   string
				want int
			}{{"open", 200}, {"mine", 200}, {"theirs", 403}} {
				path, body := c.path, c.body
				if strings.Contains(path, "%s") {
					path = fmt.Sprintf(path, th.id)
				} else {
					body = fmt.Sprintf(body, th.id)
				}
				resp, got := f.do(t, c.method, path, body)
				if resp.StatusCode != th.want {
					t.Errorf("auth %v: %s %s %s: %d %s, want %d", auth, c.method, path, body, resp.StatusCode, got, th.want)
				}
			}
		}
		resp, body := f.do(t, "DELETE", "/api/memory/threads/open?agentId=calc-agent&resourceId=u2", "")
		checkAnswer(t, "delete the resource-less thread", resp, body, 200, `{"result":"Thread deleted"}`)
	}
}
