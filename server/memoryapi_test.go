package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/vector"
)

func decodeInto(t *testing.T, what string, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("%s: %v: %s", what, err, body)
	}
}

type threadList struct {
	Threads []threadJSON `json:"threads"`
	Total   int          `json:"total"`
	Page    int          `json:"page"`
	PerPage any          `json:"perPage"`
	HasMore bool         `json:"hasMore"`
}

func (l threadList) ids() string {
	var ids []string
	for _, t := range l.Threads {
		ids = append(ids, t.ID)
	}
	return strings.Join(ids, ",")
}

// The thread routes: create (with and without an id), get, list by
// resource with paging, order and a metadata filter, update, delete; a
// thread of another resource is a 403 and an unknown one a 404.
func TestMemoryThreadRoutes(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "POST", "/api/memory/threads?agentId=calc-agent", `{"threadId":"a","resourceId":"u1","title":"Sums","metadata":{"topic":"sums"}}`)
	var a threadJSON
	decodeInto(t, "create a", body, &a)
	if resp.StatusCode != 200 || a.ID != "a" || a.Title != "Sums" || a.ResourceID != "u1" || a.Metadata["topic"] != "sums" {
		t.Fatalf("create a: %d %s", resp.StatusCode, body)
	}
	time.Sleep(2 * time.Millisecond) // distinct creation times order the list
	resp, body = f.do(t, "POST", "/api/memory/threads?agentId=calc-agent", `{"resourceId":"u1"}`)
	var b threadJSON
	decodeInto(t, "create b", body, &b)
	if resp.StatusCode != 200 || len(b.ID) != 36 || !strings.Contains(string(body), `"title":""`) {
		t.Fatalf("create without an id: %d %s", resp.StatusCode, body)
	}
	f.do(t, "POST", "/api/memory/threads?agentId=calc-agent", `{"threadId":"other","resourceId":"u2"}`)

	var l threadList
	_, body = f.do(t, "GET", "/api/memory/threads?agentId=calc-agent&resourceId=u1", "")
	decodeInto(t, "list", body, &l)
	if l.ids() != b.ID+",a" || l.Total != 2 || l.PerPage != float64(100) || l.HasMore {
		t.Errorf("list u1, newest first: %s", body)
	}
	_, body = f.do(t, "GET", "/api/memory/threads?resourceId=u1&page=0&perPage=1&orderBy[field]=createdAt&orderBy[direction]=ASC", "")
	decodeInto(t, "page", body, &l)
	if l.ids() != "a" || l.Total != 2 || !l.HasMore {
		t.Errorf("first page of one, oldest first (no agentId: the fallback store): %s", body)
	}
	_, body = f.do(t, "GET", `/api/memory/threads?metadata={"topic":"sums"}`, "")
	decodeInto(t, "filtered", body, &l)
	if l.ids() != "a" {
		t.Errorf("metadata filter across resources: %s", body)
	}
	_, body = f.do(t, "GET", "/api/memory/threads?perPage=false", "")
	decodeInto(t, "all", body, &l)
	if l.Total != 3 || l.PerPage != false {
		t.Errorf("every thread on one page: %s", body)
	}
	resp, body = f.do(t, "GET", "/api/memory/threads?perPage=0", "")
	checkAnswer(t, "perPage 0", resp, body, 400, "")

	resp, body = f.do(t, "GET", "/api/memory/threads/a?agentId=calc-agent&resourceId=u2", "")
	checkAnswer(t, "get as another resource", resp, body, 403, `{"error":"Access denied: thread belongs to a different resource"}`)
	resp, body = f.do(t, "GET", "/api/memory/threads/nope?agentId=calc-agent", "")
	checkAnswer(t, "get an unknown thread", resp, body, 404, `{"error":"Thread not found"}`)
	resp, body = f.do(t, "POST", "/api/memory/threads?agentId=calc-agent", `{"threadId":"a","resourceId":"u2"}`)
	checkAnswer(t, "create over another resource's thread", resp, body, 403, "")

	resp, body = f.do(t, "PATCH", "/api/memory/threads/a?agentId=calc-agent", `{"title":"Renamed"}`)
	var u threadJSON
	decodeInto(t, "update", body, &u)
	if resp.StatusCode != 200 || u.Title != "Renamed" || u.Metadata["topic"] != "sums" || u.CreatedAt != a.CreatedAt || u.UpdatedAt == a.UpdatedAt {
		t.Errorf("update keeps what it is not given and moves updatedAt: %s (created %s)", body, a.CreatedAt)
	}
	_, body = f.do(t, "GET", "/api/memory/threads?resourceId=u1&orderBy[field]=updatedAt", "")
	decodeInto(t, "by update", body, &l)
	if l.ids() != "a,"+b.ID {
		t.Errorf("latest update first: %s", body)
	}
	resp, body = f.do(t, "DELETE", "/api/memory/threads/a?agentId=calc-agent&resourceId=u2", "")
	checkAnswer(t, "delete as another resource", resp, body, 403, "")
	resp, body = f.do(t, "DELETE", "/api/memory/threads/a?agentId=calc-agent", "")
	checkAnswer(t, "delete", resp, body, 200, `{"result":"Thread deleted"}`)
	resp, body = f.do(t, "GET", "/api/memory/threads/a", "")
	checkAnswer(t, "get after delete", resp, body, 404, "")
}

// With Options.Auth the authenticated resource replaces the client's: the
// list shows only its threads and a thread is created for it.
func TestMemoryThreadRoutesUseTheAuthenticatedResource(t *testing.T) {
	f := newFixture(t, withOptions(Options{Auth: func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }}))
	resp, body := f.do(t, "POST", "/api/memory/threads?agentId=calc-agent", `{"threadId":"mine","resourceId":"someone-else"}`, "X-User", "u1")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"resourceId":"u1"`) {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	f.do(t, "POST", "/api/memory/threads?agentId=calc-agent", `{"threadId":"theirs","resourceId":"u2"}`, "X-User", "u2")
	var l threadList
	_, body = f.do(t, "GET", "/api/memory/threads?resourceId=u2", "", "X-User", "u1")
	decodeInto(t, "list", body, &l)
	if l.ids() != "mine" {
		t.Errorf("u1 lists %q, want only its own thread", l.ids())
	}
	resp, body = f.do(t, "GET", "/api/memory/threads/theirs", "", "X-User", "u1")
	checkAnswer(t, "another user's thread", resp, body, 403, "")
	resp, body = f.do(t, "POST", "/api/memory/save-messages?agentId=calc-agent",
		`{"messages":[{"threadId":"theirs","resourceId":"u2","role":"user","content":"hi"}]}`, "X-User", "u1")
	checkAnswer(t, "save to another user's thread", resp, body, 403, `{"error":"Access denied: cannot save messages for a different resource"}`)
}

// A run's stored steps are listed as Mastra lists them: the question,
// then one assistant message holding the call with its result, a
// step-start and the answer.
func TestMemoryMessagesFoldARunsSteps(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"What is 2+3?","memory":{"thread":"t1","resource":"u1"}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("generate: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/memory/threads/t1/messages?agentId=calc-agent", "")
	var page struct {
		Messages []struct {
			ID, Type, Role, ThreadID, ResourceID string
			Content                              struct {
				Format   int
				Parts    []json.RawMessage
				Metadata map[string]any
				Content  string
			}
		}
		Total      int
		PerPage    int
		UIMessages []any
	}
	decodeInto(t, "list", body, &page)
	if resp.StatusCode != 200 || len(page.Messages) != 2 || page.Total != 2 || page.PerPage != 40 || !strings.Contains(string(body), `"uiMessages":null`) {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	user, answer := page.Messages[0], page.Messages[1]
	if user.Role != "user" || user.Content.Content != "What is 2+3?" || user.Content.Format != 2 || user.ThreadID != "t1" || user.ResourceID != "u1" {
		t.Errorf("user message: %+v", user)
	}
	var kinds []string
	for _, p := range answer.Content.Parts {
		var part struct{ Type string }
		_ = json.Unmarshal(p, &part)
		kinds = append(kinds, part.Type)
	}
	if answer.Role != "assistant" || strings.Join(kinds, " ") != "tool-invocation step-start text" || answer.Content.Content != "The sum is 5." {
		t.Errorf("assistant message: parts %v, %s", kinds, body)
	}
	if want := `{"type":"tool-invocation","toolInvocation":{"state":"result","toolCallId":"call-1","toolName":"add","args":{"a":2,"b":3},"result":{"sum":5}}}`; string(answer.Content.Parts[0]) != want {
		t.Errorf("tool part %s, want %s", answer.Content.Parts[0], want)
	}
	if answer.Content.Metadata["modelId"] != "scripted-mock" || answer.Content.Metadata["provider"] != "mock-provider" {
		t.Errorf("metadata %v", answer.Content.Metadata)
	}
	_, body = f.do(t, "GET", `/api/memory/threads/t1/messages?page=0&perPage=1&orderBy={"field":"createdAt","direction":"DESC"}`, "")
	if !strings.Contains(string(body), `"id":"`+answer.ID+`"`) || !strings.Contains(string(body), `"hasMore":true`) {
		t.Errorf("newest first, one a page: %s", body)
	}
}

// A message saved in Mastra's format is listed as it was given and read
// by the agent's next run; deleting it removes it, and deleting another
// resource's message is a 403.
func TestSaveAndDeleteMessages(t *testing.T) {
	f := newFixture(t)
	if err := f.store.SaveThread(context.Background(), storage.Thread{ID: "t1", ResourceID: "u1"}); err != nil {
		t.Fatal(err)
	}
	const saved = `{"id":"m1","threadId":"t1","resourceId":"u1","role":"user","type":"text","content":{"format":2,"parts":[{"type":"text","text":"Remember 7."}]}}`
	resp, body := f.do(t, "POST", "/api/memory/save-messages?agentId=calc-agent", `{"messages":[`+saved+`,{"threadId":"t1","resourceId":"u1","role":"assistant","content":"Noted.","createdAt":"2030-01-01T00:00:00.000Z"}]}`)
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"messages":[`+strings.TrimSuffix(saved, "}")+`,"createdAt":"`) ||
		!strings.Contains(string(body), `"content":"Noted.","createdAt":"2030-01-01T00:00:00.000Z","id":"`) {
		t.Fatalf("save: %d %s", resp.StatusCode, body)
	}
	_, body = f.do(t, "GET", "/api/memory/threads/t1/messages", "")
	if !strings.Contains(string(body), `"content":{"format":2,"parts":[{"type":"text","text":"Remember 7."}]},"role":"user"`) {
		t.Errorf("the saved form is listed as given: %s", body)
	}
	stored, err := f.store.ListMessages(context.Background(), "t1", 0)
	if err != nil || len(stored) != 2 || !strings.Contains(string(stored[0].Content), `"text":"Remember 7."`) {
		t.Fatalf("stored %+v, %v", stored, err)
	}

	if err := f.store.SaveThread(context.Background(), storage.Thread{ID: "t2", ResourceID: "u2"}); err != nil {
		t.Fatal(err)
	}
	other := storage.Message{ID: "m2", ThreadID: "t2", ResourceID: "u2", Role: "user", Content: json.RawMessage(`{"role":"user","content":[{"type":"text","text":"x"}]}`)}
	if err := f.store.SaveMessages(context.Background(), []storage.Message{other}); err != nil {
		t.Fatal(err)
	}
	resp, body = f.do(t, "POST", "/api/memory/messages/delete?agentId=calc-agent&resourceId=u1", `{"messageIds":["m1","m2"]}`)
	checkAnswer(t, "delete another resource's message", resp, body, 403, "")
	resp, body = f.do(t, "POST", "/api/memory/messages/delete?agentId=calc-agent&resourceId=u1", `{"messageIds":{"id":"m1"}}`)
	checkAnswer(t, "delete", resp, body, 200, `{"success":true,"message":"1 message deleted successfully"}`)
	if _, err := f.store.GetMessage(context.Background(), "m1"); err == nil {
		t.Error("m1 is still stored")
	}
	if _, err := f.store.GetMessage(context.Background(), "m2"); err != nil {
		t.Errorf("m2 went too: %v", err)
	}
}

// Status and config answer for an agent with memory, and say so for one
// without.
func TestMemoryStatusAndConfig(t *testing.T) {
	f := newFixture(t)
	resp, body := f.do(t, "GET", "/api/memory/status?agentId=calc-agent", "")
	checkAnswer(t, "status", resp, body, 200, `{"result":true,"memoryType":"local"}`)
	resp, body = f.do(t, "GET", "/api/memory/status", "")
	checkAnswer(t, "status without agentId", resp, body, 400, "")
	resp, body = f.do(t, "GET", "/api/memory/config?agentId=calc-agent", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"config":{"lastMessages":10,"semanticRecall":false,"generateTitle":false,"workingMemory":{"enabled":false,"template":"\n# User Information`) {
		t.Errorf("config: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/memory/config?agentId=nope", "")
	checkAnswer(t, "config of an unknown agent", resp, body, 200, `{"config":null}`)
}

// An agent with semantic recall reports its settings, Mastra's defaults
// filled in.
func TestMemoryConfigShowsSemanticRecall(t *testing.T) {
	f := newFixture(t, withAgent(func(c *agent.Config) {
		c.Memory = &agent.MemoryOptions{SemanticRecall: &agent.SemanticRecall{Embedder: mock.NewEmbedder(8), Vector: c.Storage.(vector.Store)}}
	}))
	resp, body := f.do(t, "GET", "/api/memory/config?agentId=calc-agent", "")
	if want := `"semanticRecall":{"topK":4,"messageRange":{"before":1,"after":1},"scope":"resource"}`; resp.StatusCode != 200 || !strings.Contains(string(body), want) {
		t.Errorf("config: %d %s\nwant %s", resp.StatusCode, body, want)
	}
}
