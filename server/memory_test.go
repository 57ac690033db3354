package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/storage"
)

// withWorkingMemory gives calc-agent working memory of scope.
func withWorkingMemory(scope agent.WorkingMemoryScope) fixtureOpt {
	return withAgent(func(c *agent.Config) {
		c.Memory = &agent.MemoryOptions{WorkingMemory: &agent.WorkingMemory{Scope: scope}}
	})
}

func checkAnswer(t *testing.T, what string, resp *http.Response, body []byte, status int, want string) {
	t.Helper()
	if resp.StatusCode != status || (want != "" && string(body) != want) {
		t.Errorf("%s: %d %s, want %d %s", what, resp.StatusCode, body, status, want)
	}
}

// The working memory routes, as Mastra's: GET answers the state (null
// document before any write, the template, the thread's existence),
// POST replaces the document of an existing thread's resource, and GET
// then answers it; a thread of another resource is a 403.
func TestWorkingMemoryRoutes(t *testing.T) {
	f := newFixture(t, withWorkingMemory(agent.ScopeResource))
	const path = "/api/memory/threads/thread-1/working-memory"
	tmpl := `{"format":"markdown","content":"# User Information\n- **First Name**: \n- **Last Name**: \n- **Location**: \n- **Occupation**: \n- **Interests**: \n- **Goals**: \n- **Events**: \n- **Facts**: \n- **Projects**:"}`
	resp, body := f.do(t, "GET", path+"?agentId=calc-agent&resourceId=user-1", "")
	checkAnswer(t, "GET before any write", resp, body, 200, `{"workingMemory":null,"source":"resource","workingMemoryTemplate":`+tmpl+`,"threadExists":false}`)

	resp, body = f.do(t, "POST", path+"?agentId=calc-agent", `{"workingMemory":"# Notes\n- likes tea","resourceId":"user-1"}`)
	checkAnswer(t, "POST to a thread that does not exist", resp, body, 404, `{"error":"Thread not found"}`)

	if err := f.store.SaveThread(context.Background(), storage.Thread{ID: "thread-1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	resp, body = f.do(t, "POST", path+"?agentId=calc-agent", `{"workingMemory":"# Notes\n- likes tea","resourceId":"user-1"}`)
	checkAnswer(t, "POST", resp, body, 200, `{"success":true}`)
	resp, body = f.do(t, "GET", path+"?agentId=calc-agent&resourceId=user-1", "")
	checkAnswer(t, "GET after the write", resp, body, 200, `{"workingMemory":"# Notes\n- likes tea","source":"resource","workingMemoryTemplate":`+tmpl+`,"threadExists":true}`)

	resp, body = f.do(t, "GET", path+"?agentId=calc-agent&resourceId=user-2", "")
	checkAnswer(t, "GET as another resource", resp, body, 403, `{"error":"Access denied: thread belongs to a different resource"}`)
	resp, body = f.do(t, "POST", path+"?agentId=calc-agent", `{"workingMemory":"mine now","resourceId":"user-2"}`)
	checkAnswer(t, "POST as another resource", resp, body, 403, "")
	resp, body = f.do(t, "GET", path+"?agentId=nope", "")
	checkAnswer(t, "GET of an unknown agent", resp, body, 200, `{"workingMemory":null,"source":"thread","workingMemoryTemplate":null,"threadExists":false}`)
}

// Thread scope keeps the document in the thread (source "thread"); an
// agent without working memory answers a null template, and a write to
// it is Mastra's 500.
func TestWorkingMemoryRoutesThreadScopeAndDisabled(t *testing.T) {
	f := newFixture(t, withWorkingMemory(agent.ScopeThread))
	if err := f.store.SaveThread(context.Background(), storage.Thread{ID: "thread-1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	const path = "/api/memory/threads/thread-1/working-memory?agentId=calc-agent"
	resp, body := f.do(t, "POST", path, `{"workingMemory":"thread notes"}`)
	checkAnswer(t, "POST", resp, body, 200, `{"success":true}`)
	th, err := f.store.GetThread(context.Background(), "thread-1")
	if err != nil || th.Metadata["workingMemory"] != "thread notes" {
		t.Fatalf("thread %+v, %v", th, err)
	}
	resp, body = f.do(t, "GET", path+"&resourceId=user-1", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"workingMemory":"thread notes","source":"thread"`) {
		t.Errorf("GET: %d %s", resp.StatusCode, body)
	}

	plain := newFixture(t) // calc-agent with memory, without working memory
	if err := plain.store.SaveThread(context.Background(), storage.Thread{ID: "thread-1", ResourceID: "user-1"}); err != nil {
		t.Fatal(err)
	}
	resp, body = plain.do(t, "GET", path+"&resourceId=user-1", "")
	checkAnswer(t, "GET without working memory", resp, body, 200, `{"workingMemory":null,"source":"resource","workingMemoryTemplate":null,"threadExists":true}`)
	resp, body = plain.do(t, "POST", path, `{"workingMemory":"x"}`)
	checkAnswer(t, "POST without working memory", resp, body, 500, `{"error":"Working memory is not enabled for this memory instance"}`)
}
