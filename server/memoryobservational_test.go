package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model/mock"
)

// withObservationalMemory gives calc-agent observational memory of
// scope, observing at 50 tokens with a mock observer.
func withObservationalMemory(t *testing.T, scope observational.Scope) fixtureOpt {
	return withAgent(func(c *agent.Config) {
		observer := mock.New(mock.Step{Text: "<observations>\n* 🔴 (10:00) User asked for a long sum\n</observations>"}).RepeatLast()
		om, err := observational.New(observational.Config{Model: observer, Storage: c.Storage, Scope: scope, MessageTokens: 50, Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		c.Processors = append(c.Processors, om)
	})
}

// observedRun runs calc-agent on thread t1 of u1 with a message long
// enough to be observed.
func observedRun(t *testing.T, f *fixture) {
	t.Helper()
	long := strings.Repeat("Please add the numbers two and three for me. ", 30)
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"`+long+`","memory":{"thread":"t1","resource":"u1"}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("generate: %d %s", resp.StatusCode, body)
	}
}

type omAnswerJSON struct {
	Record *struct {
		ID, Scope, ResourceID, OriginType, ActiveObservations string
		ThreadID                                              *string
	}
	History []struct{ ID string }
}

// The observational-memory routes, as Mastra's: no record before the
// thread is observed (null, no history), then the record and its one
// generation, selected by from, to, offset and limit; the status and
// config routes report it.
func TestObservationalMemoryRoutes(t *testing.T) {
	f := newFixture(t, withObservationalMemory(t, observational.ScopeThread))
	const get = "/api/memory/observational-memory?agentId=calc-agent&resourceId=u1&threadId=t1"
	resp, body := f.do(t, "GET", get, "")
	checkAnswer(t, "GET before any run", resp, body, 200, `{"record":null}`)
	resp, body = f.do(t, "POST", "/api/memory/observational-memory/buffer-status", `{"agentId":"calc-agent","resourceId":"u1","threadId":"t1"}`)
	checkAnswer(t, "buffer-status before any run", resp, body, 200, `{"record":null}`)
	resp, body = f.do(t, "GET", "/api/memory/status?agentId=calc-agent&resourceId=u1&threadId=t1", "")
	checkAnswer(t, "status before any run", resp, body, 200, `{"result":true,"memoryType":"local","observationalMemory":{"enabled":true,"hasRecord":false}}`)
	resp, body = f.do(t, "GET", "/api/memory/status?agentId=calc-agent", "")
	checkAnswer(t, "status without a resource", resp, body, 200, `{"result":true,"memoryType":"local","observationalMemory":{"enabled":true}}`)
	resp, body = f.do(t, "GET", "/api/memory/config?agentId=calc-agent", "")
	if want := `"observationalMemory":{"enabled":true,"scope":"thread","messageTokens":50,"observationTokens":40000,"observationModel":"mock-provider/mock-model-id","reflectionModel":"mock-provider/mock-model-id"}}}`; resp.StatusCode != 200 || !strings.HasSuffix(string(body), want) {
		t.Errorf("config: %d %s\nwant it to end with %s", resp.StatusCode, body, want)
	}

	observedRun(t, f)
	var a omAnswerJSON
	resp, body = f.do(t, "GET", get, "")
	decodeInto(t, "GET", body, &a)
	if resp.StatusCode != 200 || a.Record == nil || a.Record.ThreadID == nil || *a.Record.ThreadID != "t1" || a.Record.ResourceID != "u1" ||
		a.Record.Scope != "thread" || a.Record.OriginType != "initial" || !strings.Contains(a.Record.ActiveObservations, "User asked for a long sum") ||
		len(a.History) != 1 || a.History[0].ID != a.Record.ID {
		t.Fatalf("GET after an observed run: %d %s", resp.StatusCode, body)
	}
	for _, q := range []string{"&offset=1", "&from=2999-01-01", "&to=2000-01-01T00:00:00.000Z"} {
		resp, body = f.do(t, "GET", get+q, "")
		if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"record":{"id":"`+a.Record.ID+`"`) || strings.Contains(string(body), `"history"`) {
			t.Errorf("GET %s: the record without history: %d %s", q, resp.StatusCode, body)
		}
	}
	resp, body = f.do(t, "GET", get+"&from=2000-01-01&to=2999-01-01&offset=0&limit=1", "")
	if decodeInto(t, "window", body, &a); resp.StatusCode != 200 || len(a.History) != 1 {
		t.Errorf("GET within a window: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=u1", "")
	checkAnswer(t, "GET without a thread in thread scope", resp, body, 200, `{"record":null}`)
	resp, body = f.do(t, "POST", "/api/memory/observational-memory/buffer-status", `{"agentId":"calc-agent","resourceId":"u1","threadId":"t1"}`)
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"record":{"id":"`+a.Record.ID+`"`) {
		t.Errorf("buffer-status after the run: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/memory/status?agentId=calc-agent&resourceId=u1&threadId=t1", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"result":true,"memoryType":"local","observationalMemory":{"enabled":true,"hasRecord":true,"originType":"initial","lastObservedAt":"`) ||
		!strings.Contains(string(body), `,"isObserving":false,"isReflecting":false}}`) {
		t.Errorf("status after the run: %d %s", resp.StatusCode, body)
	}
}

// In resource scope the record is the resource's, found with or
// without a thread.
func TestObservationalMemoryRoutesResourceScope(t *testing.T) {
	f := newFixture(t, withObservationalMemory(t, observational.ScopeResource))
	observedRun(t, f)
	for _, q := range []string{"", "&threadId=t1", "&threadId=other"} {
		var a omAnswerJSON
		resp, body := f.do(t, "GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=u1"+q, "")
		decodeInto(t, q, body, &a)
		if resp.StatusCode != 200 || a.Record == nil || a.Record.ThreadID != nil || a.Record.Scope != "resource" || len(a.History) != 1 {
			t.Errorf("GET %q: %d %s", q, resp.StatusCode, body)
		}
	}
	resp, body := f.do(t, "GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=u2", "")
	checkAnswer(t, "another resource", resp, body, 200, `{"record":null}`)
}

// Mastra's errors, in its order: the query's schema, the agent, its
// observational memory, then the resource.
func TestObservationalMemoryErrors(t *testing.T) {
	f := newFixture(t, withObservationalMemory(t, observational.ScopeThread))
	plain := newFixture(t)
	const path = "/api/memory/observational-memory"
	for _, c := range []struct {
		f            *fixture
		query        string
		status       int
		want         string
		method, body string
	}{
		{f, "", 400, `{"error":"Invalid query parameters","issues":[{"field":"agentId","message":"Invalid input: expected string, received undefined"}]}`, "", ""},
		{f, "?agentId=calc-agent&from=garbage&to=2026&offset=-1&limit=0", 400, `{"error":"Invalid query parameters","issues":[{"field":"from","message":"Invalid input: expected date, received Date"},{"field":"offset","message":"Too small: expected number to be >=0"},{"field":"limit","message":"Too small: expected number to be >=1"}]}`, "", ""},
		{f, "?agentId=calc-agent&offset=1.5&limit=x", 400, `{"error":"Invalid query parameters","issues":[{"field":"offset","message":"Invalid input: expected int, received number"},{"field":"limit","message":"Invalid input: expected number, received NaN"}]}`, "", ""},
		{f, "?agentId=calc-agent&limit=&from=", 400, `{"error":"Invalid query parameters","issues":[{"field":"from","message":"Invalid input: expected date, received Date"},{"field":"limit","message":"Too small: expected number to be >=1"}]}`, "", ""},
		{f, "?agentId=nope&resourceId=u1", 404, `{"error":"Agent not found"}`, "", ""},
		{plain, "?agentId=calc-agent&resourceId=u1", 400, `{"error":"Observational Memory is not enabled for this agent"}`, "", ""},
		{f, "?agentId=calc-agent&threadId=t1", 400, `{"error":"resourceId is required for observational memory lookup"}`, "", ""},
		{f, "", 400, `{"error":"Invalid request body","issues":[{"field":"agentId","message":"Invalid input: expected string, received undefined"}]}`, "POST", `{"resourceId":"u1"}`},
		{f, "", 400, `{"error":"Invalid request body","issues":[{"field":"threadId","message":"Invalid input: expected string, received number"}]}`, "POST", `{"agentId":"calc-agent","threadId":5}`},
		{f, "", 404, `{"error":"Agent not found"}`, "POST", `{"agentId":"nope","resourceId":"u1"}`},
		{plain, "", 400, `{"error":"Observational Memory is not enabled for this agent"}`, "POST", `{"agentId":"calc-agent","resourceId":"u1"}`},
		{f, "", 400, `{"error":"resourceId is required"}`, "POST", `{"agentId":"calc-agent","threadId":"t1"}`},
	} {
		method, target := "GET", path+c.query
		if c.method == "POST" {
			method, target = "POST", path+"/buffer-status"
		}
		resp, body := c.f.do(t, method, target, c.body)
		checkAnswer(t, method+" "+c.query+" "+c.body, resp, body, c.status, c.want)
	}
}

// With Options.Auth the authenticated resource is the one looked up.
func TestObservationalMemoryUsesTheAuthenticatedResource(t *testing.T) {
	f := newFixture(t, withObservationalMemory(t, observational.ScopeResource),
		withOptions(Options{Auth: func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }}))
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate",
		`{"messages":"`+strings.Repeat("Please add two and three. ", 40)+`","memory":{"thread":"t1","resource":"u1"}}`, "X-User", "u1")
	if resp.StatusCode != 200 {
		t.Fatalf("generate: %d %s", resp.StatusCode, body)
	}
	resp, body = f.do(t, "GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=u1", "", "X-User", "u2")
	checkAnswer(t, "u2 asking for u1's record", resp, body, 200, `{"record":null}`)
	resp, body = f.do(t, "GET", "/api/memory/observational-memory?agentId=calc-agent", "", "X-User", "u1")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"resourceId":"u1"`) {
		t.Errorf("u1 without resourceId: %d %s", resp.StatusCode, body)
	}
}

// Offsets and limits past any list select nothing, as JavaScript's
// slice does, instead of overflowing.
func TestObservationalMemoryHugeWindow(t *testing.T) {
	f := newFixture(t, withObservationalMemory(t, observational.ScopeThread))
	observedRun(t, f)
	const get = "/api/memory/observational-memory?agentId=calc-agent&resourceId=u1&threadId=t1"
	resp, body := f.do(t, "GET", get+"&offset=1e300", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"record":{`) || strings.Contains(string(body), `"history"`) {
		t.Errorf("offset 1e300: %d %s", resp.StatusCode, body)
	}
	var a omAnswerJSON
	resp, body = f.do(t, "GET", get+"&limit=1e300", "")
	if decodeInto(t, "limit", body, &a); resp.StatusCode != 200 || len(a.History) != 1 {
		t.Errorf("limit 1e300: %d %s", resp.StatusCode, body)
	}
}
