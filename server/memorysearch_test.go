package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/vector"
)

// searchedFixture is calc-agent with a question and its answer saved
// in thread s1 ("Searched") of u1; u2 has thread s2.
func searchedFixture(t *testing.T, opts ...fixtureOpt) *fixture {
	t.Helper()
	f := newFixture(t, opts...)
	for user, body := range map[string]string{"u1": `{"threadId":"s1","resourceId":"u1","title":"Searched"}`, "u2": `{"threadId":"s2","resourceId":"u2"}`} {
		if resp, b := f.do(t, "POST", "/api/memory/threads?agentId=calc-agent", body, "X-User", user); resp.StatusCode != 200 {
			t.Fatalf("create: %d %s", resp.StatusCode, b)
		}
	}
	said := func(id, role, text, at string) string {
		return `{"id":"` + id + `","threadId":"s1","resourceId":"u1","role":"` + role + `","type":"text","content":{"format":2,"parts":[{"type":"text","text":"` + text + `"}]},"createdAt":"` + at + `"}`
	}
	resp, body := f.do(t, "POST", "/api/memory/save-messages?agentId=calc-agent", `{"messages":[`+
		said("q", "user", "What is 2+3?", "2030-01-01T00:00:00.000Z")+","+said("a", "assistant", "The sum is 5.", "2030-01-01T00:00:01.000Z")+`]}`, "X-User", "u1")
	if resp.StatusCode != 200 {
		t.Fatalf("save: %d %s", resp.StatusCode, body)
	}
	return f
}

type searchAnswer struct {
	Results []struct {
		Role, Content, ThreadID, ThreadTitle string
	}
	Count       int
	Query       string
	SearchScope string
	SearchType  string
}

// GET /memory/search answers Mastra's shape: the resource's latest
// thread's messages, newest first, cut as JavaScript's slice(0, limit)
// cuts them, and an empty answer for a resource without threads.
func TestMemorySearch(t *testing.T) {
	f := searchedFixture(t)
	const path = "/api/memory/search?agentId=calc-agent&resourceId=u1&searchQuery=sum"
	var a searchAnswer
	resp, body := f.do(t, "GET", path, "")
	decodeInto(t, "search", body, &a)
	if resp.StatusCode != 200 || a.Count != 2 || len(a.Results) != 2 || a.Query != "sum" || a.SearchScope != "resource" || a.SearchType != "text" ||
		a.Results[0].Role != "assistant" || a.Results[0].Content != "The sum is 5." || a.Results[0].ThreadID != "s1" || a.Results[0].ThreadTitle != "Searched" ||
		a.Results[1].Role != "user" {
		t.Fatalf("search: %d %s", resp.StatusCode, body)
	}
	for q, want := range map[string]int{"&limit=1": 1, "&limit=1.9": 1, "&limit=0": 0, "&limit=-1": 1, "&limit=50": 2, "&threadId=s1": 2} {
		resp, body = f.do(t, "GET", path+q, "")
		a = searchAnswer{}
		decodeInto(t, q, body, &a)
		if resp.StatusCode != 200 || a.Count != want || len(a.Results) != want {
			t.Errorf("%s: %d %s, want %d results", q, resp.StatusCode, body, want)
		}
	}
	resp, body = f.do(t, "GET", "/api/memory/search?agentId=calc-agent&resourceId=nobody&searchQuery=sum", "")
	checkAnswer(t, "a resource without threads", resp, body, 200, `{"results":[],"count":0,"query":"sum","searchScope":"resource","searchType":"text"}`)
	resp, body = f.do(t, "GET", path+`&memoryConfig={"lastMessages":1}`, "")
	if decodeInto(t, "memoryConfig", body, &a); resp.StatusCode != 200 {
		t.Errorf("memoryConfig: %d %s", resp.StatusCode, body)
	}
}

// The search's errors, as Mastra's: its query schema, then searchQuery
// and resourceId, the agent and its memory, then the searched thread.
func TestMemorySearchErrors(t *testing.T) {
	f := searchedFixture(t)
	plain := newFixture(t, withAgent(func(c *agent.Config) { c.Memory = nil }))
	for _, c := range []struct {
		f      *fixture
		query  string
		status int
		want   string
	}{
		{f, "", 400, `{"error":"Invalid query parameters","issues":[{"field":"agentId","message":"Invalid input: expected string, received undefined"},{"field":"searchQuery","message":"Invalid input: expected string, received undefined"},{"field":"resourceId","message":"Invalid input: expected string, received undefined"}]}`},
		{f, "agentId=calc-agent&searchQuery=x&resourceId=u1&limit=x&memoryConfig=nope", 400, `{"error":"Invalid query parameters","issues":[{"field":"limit","message":"Invalid input: expected number, received NaN"},{"field":"memoryConfig","message":"Invalid input: expected record, received string"}]}`},
		{f, "agentId=calc-agent&searchQuery=x&resourceId=u1&memoryConfig=[1]", 400, `{"error":"Invalid query parameters","issues":[{"field":"memoryConfig","message":"Invalid input: expected record, received array"}]}`},
		{f, "agentId=calc-agent&searchQuery=&resourceId=u1", 400, `{"error":"Argument \"searchQuery\" is required"}`},
		{f, "agentId=calc-agent&searchQuery=x&resourceId=", 400, `{"error":"Argument \"resourceId\" is required"}`},
		{f, "agentId=nope&searchQuery=x&resourceId=u1", 404, `{"error":"Agent not found"}`},
		{plain, "agentId=calc-agent&searchQuery=x&resourceId=u1", 400, `{"error":"Memory is not initialized"}`},
		{f, "agentId=calc-agent&searchQuery=x&resourceId=u1&threadId=nope", 500, `{"error":"No thread found with id nope"}`},
		{f, "agentId=calc-agent&searchQuery=x&resourceId=u2&threadId=s1", 500, `{"error":"Thread with id s1 is for resource with id u1 but resource u2 was queried."}`},
	} {
		resp, body := c.f.do(t, "GET", "/api/memory/search?"+c.query, "")
		checkAnswer(t, c.query, resp, body, c.status, c.want)
	}
}

// With Options.Auth the authenticated resource is the one searched.
func TestMemorySearchUsesTheAuthenticatedResource(t *testing.T) {
	f := searchedFixture(t, withOptions(Options{Auth: func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }}))
	resp, body := f.do(t, "GET", "/api/memory/search?agentId=calc-agent&resourceId=u1&searchQuery=sum", "", "X-User", "u2")
	var a searchAnswer
	if err := json.Unmarshal(body, &a); err != nil || resp.StatusCode != 200 || a.Count != 0 {
		t.Errorf("u2 searching u1's memory: %d %s", resp.StatusCode, body)
	}
}

// With semantic recall of thread scope a thread of another resource is
// Mastra's 403 (enforceThreadAccess) and a thread not stored no results.
func TestMemorySearchThreadScope(t *testing.T) {
	f := searchedFixture(t, withAgent(func(c *agent.Config) {
		c.Memory = &agent.MemoryOptions{SemanticRecall: &agent.SemanticRecall{Embedder: mock.NewEmbedder(8), Vector: c.Storage.(vector.Store), Scope: agent.ScopeThread}}
	}))
	resp, body := f.do(t, "GET", "/api/memory/search?agentId=calc-agent&searchQuery=x&resourceId=u2&threadId=s1", "")
	checkAnswer(t, "another resource's thread", resp, body, 403, `{"error":"Access denied: thread belongs to a different resource"}`)
	resp, body = f.do(t, "GET", "/api/memory/search?agentId=calc-agent&searchQuery=x&resourceId=u2&threadId=nope", "")
	checkAnswer(t, "a thread not stored", resp, body, 200, `{"results":[],"count":0,"query":"x","searchScope":"thread","searchType":"semantic"}`)
}
