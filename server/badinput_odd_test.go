package server

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Input that is valid JSON but odd (deep, huge, not UTF-8, out of
// range), odd resume requests against waiting runs, and bad paths and
// query parameters: answered or refused, never a 5xx.

// TestBadInputOddButReadable: valid JSON with deep nesting, huge strings,
// invalid UTF-8 and odd numbers is read, then answered (2xx) or refused
// (4xx), never a 5xx.
func TestBadInputOddButReadable(t *testing.T) {
	f := newFixture(t, withSweepWorkflows())
	deepObj := strings.Repeat(`{"a":`, 9990) + "1" + strings.Repeat("}", 9990)
	// The huge inputs mostly go to an agent without run storage: with
	// it, every step's snapshot holds the input again (slow under -race).
	fast := newFixture(t, withSweepWorkflows(), withAgent(noRunStorage))
	bigText := strings.Repeat("word ", 200_000) // 1 MB
	cases := []struct {
		name, path, body string
		noStorage        bool
	}{
		{"deep data", "/api/tools/add/execute", `{"data":` + nested(9990) + `}`, false},
		{"deep value in data", "/api/tools/add/execute", `{"data":{"a":1,"b":2,"c":` + nested(9990) + `}}`, false},
		{"deep requestContext", "/api/tools/add/execute", `{"data":{"a":1,"b":2},"requestContext":` + deepObj + `}`, false},
		{"deep requestContext of a run", "/api/agents/calc-agent/generate", `{"messages":"hi","requestContext":` + deepObj + `}`, false},
		{"deep providerOptions", "/api/agents/calc-agent/generate", `{"messages":"hi","providerOptions":{"mock":` + deepObj + `}}`, false},
		{"deep message content", "/api/agents/calc-agent/generate", `{"messages":[{"role":"user","content":` + nested(9990) + `}]}`, false},
		{"deep client tool schema", "/api/agents/calc-agent/generate", `{"messages":"hi","clientTools":{"x":{"inputSchema":` + strings.Repeat(`{"type":"object","properties":{"p":`, 3000) + `{}` + strings.Repeat("}}", 3000) + `}}}`, false},
		{"deep structured output schema", "/api/agents/calc-agent/generate", `{"messages":"hi","structuredOutput":{"schema":` + strings.Repeat(`{"type":"array","items":`, 5000) + `{}` + strings.Repeat("}", 5000) + `}}`, false},
		{"deep workflow input", "/api/workflows/approve-wf/start-async?runId=deep-1", `{"inputData":{"n":1,"x":` + nested(9990) + `}}`, false},
		{"deep workflow initialState", "/api/workflows/approve-wf/start-async?runId=deep-2", `{"inputData":{"n":1},"initialState":` + nested(9990) + `}`, false},
		{"deep workflow stream input", "/api/workflows/approve-wf/stream?runId=deep-3", `{"inputData":{"n":1,"x":` + nested(9990) + `}}`, false},
		{"huge message", "/api/agents/calc-agent/generate", `{"messages":"` + bigText + `"}`, false},
		{"huge message, no run storage", "/api/agents/calc-agent/generate", `{"messages":"` + bigText + `"}`, true},
		{"huge stream message", "/api/agents/calc-agent/stream", `{"messages":"` + bigText + `"}`, true},
		{"huge instructions", "/api/agents/calc-agent/generate", `{"messages":"hi","instructions":"` + bigText + `"}`, true},
		{"huge tool data", "/api/tools/add/execute", `{"data":{"a":1,"b":2,"pad":"` + bigText + `"}}`, true},
		{"huge runId", "/api/agents/calc-agent/generate", `{"messages":"hi","runId":"` + strings.Repeat("r", 256<<10) + `"}`, true},
		{"many keys", "/api/tools/add/execute", `{"data":{"a":1,"b":2` + strings.Repeat(`,"k":1`, 200_000) + `}}`, false},
		{"invalid UTF-8 in a message", "/api/agents/calc-agent/generate", "{\"messages\":\"hi \xff\xfe there\"}", false},
		{"invalid UTF-8 in a key", "/api/agents/calc-agent/generate", "{\"messages\":\"hi\",\"\xc3\x28\":1}", false},
		{"invalid UTF-8 in tool data", "/api/tools/add/execute", "{\"data\":{\"a\":1,\"b\":2,\"s\":\"\xed\xa0\x80\"}}", false},
		{"invalid UTF-8 in a run id", "/api/agents/calc-agent/stream", "{\"messages\":\"hi\",\"runId\":\"r-\xff\"}", false},
		{"lone surrogate escape", "/api/agents/calc-agent/generate", `{"messages":"\ud800 hi"}`, false},
		{"lone surrogate in a thread id", "/api/agents/calc-agent/generate", `{"messages":"hi","memory":{"thread":"\udc00","resource":"r"}}`, false},
		{"NUL in a message", "/api/agents/calc-agent/generate", `{"messages":"a\u0000b"}`, false},
		{"tool input of the wrong type", "/api/tools/add/execute", `{"data":{"a":"two","b":[]}}`, false},
		{"tool input out of range", "/api/tools/add/execute", `{"data":{"a":1e400,"b":1}}`, false},
		{"tool input beyond int64", "/api/tools/add/execute", `{"data":{"a":9223372036854775808,"b":1}}`, false},
		{"tool input a string", "/api/tools/add/execute", `{"data":"2+3"}`, false},
		{"maxSteps huge", "/api/agents/calc-agent/generate", `{"messages":"hi","maxSteps":1e300}`, false},
		{"maxSteps negative", "/api/agents/calc-agent/generate", `{"messages":"hi","maxSteps":-5}`, false},
		{"maxSteps fractional", "/api/agents/calc-agent/generate", `{"messages":"hi","maxSteps":1.5}`, false},
		{"modelSettings huge numbers", "/api/agents/calc-agent/generate", `{"messages":"hi","modelSettings":{"maxOutputTokens":1e300,"temperature":-1e300}}`, false},
		{"duplicate keys", "/api/agents/calc-agent/generate", `{"messages":5,"messages":"hi"}`, false},
		{"forEachIndex huge", "/api/workflows/approve-wf/resume-async?runId=r-unknown", `{"forEachIndex":1e300,"resumeData":{"ok":true}}`, false},
	}
	for _, c := range cases {
		t0 := time.Now()
		target := f
		if c.noStorage {
			target = fast
		}
		r := target.send(t, "POST", c.path, []byte(c.body), false)
		checkAccepted(t, c.name, r)
		t.Logf("%s (%v, %d bytes): %d %.400s", c.name, time.Since(t0).Round(time.Millisecond), len(r.body), r.status, r.body)
	}
}

// TestBadInputPathsAndQueries: unknown, huge and non-UTF-8 ids in paths,
// and query parameters of the wrong form, on GET routes too.
func TestBadInputPathsAndQueries(t *testing.T) {
	f := newFixture(t, withSweepWorkflows())
	long := strings.Repeat("n", 64<<10)
	cases := []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/api/tools/nope", "", 404},
		{"GET", "/api/agents/nope", "", 404},
		{"GET", "/api/agents/calc-agent/tools/nope", "", 404},
		{"GET", "/api/agents/nope/tools/add", "", 404},
		{"GET", "/api/agents/nope/suspended-runs", "", 404},
		{"GET", "/api/workflows/nope", "", 404},
		{"GET", "/api/workflows/nope/runs/r", "", 404},
		{"GET", "/api/workflows/approve-wf/runs/nope", "", 404},
		{"GET", "/api/agents/" + long, "", 404},
		{"POST", "/api/agents/" + long + "/generate", `{"messages":"hi"}`, 404},
		{"POST", "/api/tools/" + long + "/execute", `{"data":{"a":1,"b":2}}`, 404},
		{"GET", "/api/agents/%FF%FE", "", 404},
		{"POST", "/api/agents/%FF/generate", `{"messages":"hi"}`, 404},
		{"POST", "/api/workflows/%C3%28/start-async", `{}`, 404},
		{"GET", "/api/tools/add?requestContext=!!!", "", 400},
		{"GET", "/api/tools/add?requestContext=bnVsbA", "", 400},     // "null"
		{"GET", "/api/agents?requestContext=WzFd", "", 400},          // "[1]"
		{"GET", "/api/agents/calc-agent?requestContext=MQ", "", 400}, // "1"
		{"GET", "/api/agents/calc-agent/tools/add?requestContext=%FF", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?perPage=abc", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?perPage=0", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?perPage=1.5", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?perPage=NaN", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?perPage=-Infinity", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?page=-1", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?fromDate=yesterday", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?toDate=2026-13-45", "", 400},
		{"GET", "/api/agents/calc-agent/suspended-runs?perPage=1e300", "", 400},
		{"GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=r&limit=NaN", "", 400},
		{"GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=r&offset=-Infinity", "", 400},
		{"GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=r&from=2026-13-45", "", 400},
		{"GET", "/api/memory/observational-memory?agentId=%FF&resourceId=r", "", 404},
		{"GET", "/api/memory/observational-memory?agentId=calc-agent&resourceId=r&offset=1e300", "", 400}, // no observational memory
		{"GET", "/api/memory/search?agentId=calc-agent&resourceId=r&searchQuery=x&limit=NaN", "", 400},
		{"GET", "/api/memory/search?agentId=calc-agent&resourceId=r&searchQuery=x&memoryConfig=%FF", "", 400},
		{"GET", "/api/memory/search?agentId=calc-agent&resourceId=r&searchQuery=x&memoryConfig=null", "", 400},
		{"GET", "/api/memory/search?agentId=" + long + "&resourceId=r&searchQuery=x", "", 404},
	}
	for _, c := range cases {
		var body []byte
		if c.body != "" {
			body = []byte(c.body)
		}
		checkError(t, c.method+" "+trim(c.path), f.send(t, c.method, c.path, body, false), c.status)
	}
	// Large page numbers are valid: an empty page, not an overflow.
	for _, q := range []string{"page=9007199254740991", "page=100000000000000000&perPage=1000", "perPage=9007199254740991", "page=1e18&perPage=1e18"} {
		checkAccepted(t, "suspended-runs?"+q, f.send(t, "GET", "/api/agents/calc-agent/suspended-runs?"+q, nil, false))
	}
	for _, q := range []string{"limit=1e300", "limit=-1e300", "limit=0.5", "threadId=", "searchQuery=" + long} {
		checkAccepted(t, "memory/search?"+trim(q), f.send(t, "GET", "/api/memory/search?agentId=calc-agent&resourceId=r&searchQuery=x&"+q, nil, false))
	}
}

// trim shortens a long path for messages.
func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// TestBadInputOnSuspendedRuns: odd resume requests against runs that do
// wait (a suspended workflow run, an agent run waiting for approval) are
// answered or refused, never a 5xx, and the runs can still be resumed.
func TestBadInputOnSuspendedRuns(t *testing.T) {
	f := newFixture(t, withSweepWorkflows())
	for i, c := range []struct{ name, body string }{
		{"forEachIndex huge", `{"forEachIndex":1e300,"resumeData":{"ok":true}}`},
		{"forEachIndex negative", `{"forEachIndex":-1,"resumeData":{"ok":true}}`},
		{"forEachIndex fractional", `{"forEachIndex":0.5,"resumeData":{"ok":true}}`},
		{"unknown step", `{"step":["nope","wait"],"resumeData":{"ok":true}}`},
		{"resumeData of the wrong type", `{"resumeData":{"ok":"yes"}}`},
		{"resumeData deep", `{"resumeData":{"ok":true,"x":` + nested(9990) + `}}`},
		{"resumeData a string", `{"resumeData":"yes"}`},
	} {
		run := "s-" + strconv.Itoa(i)
		if r := f.send(t, "POST", "/api/workflows/approve-wf/start-async?runId="+run, []byte(`{"inputData":{"n":1}}`), false); r.status != 200 || !bytes.Contains(r.body, []byte(`"status":"suspended"`)) {
			t.Fatalf("start: %d %s", r.status, r.body)
		}
		r := f.send(t, "POST", "/api/workflows/approve-wf/resume-async?runId="+run, []byte(c.body), false)
		checkAccepted(t, "workflow "+c.name, r)
		t.Logf("workflow %s: %d %.200s", c.name, r.status, r.body)
	}

	cs := f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"hi","requireToolApproval":true}`)
	runID, callID := approvalOf(t, cs)
	for _, c := range []struct{ name, path, body string }{
		{"unknown tool call", "approve-tool-call", `{"runId":"` + runID + `","toolCallId":"nope"}`},
		{"tool call of another run", "approve-tool-call-generate", `{"runId":"nope","toolCallId":"` + callID + `"}`},
		{"huge decline reason", "decline-tool-call-generate", `{"runId":"` + runID + `","toolCallId":"nope","reason":"` + strings.Repeat("no ", 300_000) + `"}`},
		{"deep resumeData", "resume-stream", `{"runId":"` + runID + `","toolCallId":"nope","resumeData":` + nested(9990) + `}`},
	} {
		r := f.send(t, "POST", "/api/agents/calc-agent/"+c.path, []byte(c.body), false)
		checkAccepted(t, "agent "+c.name, r)
		t.Logf("agent %s: %d %.200s", c.name, r.status, r.body)
	}
	r := f.send(t, "POST", "/api/agents/calc-agent/approve-tool-call-generate", []byte(`{"runId":"`+runID+`","toolCallId":"`+callID+`"}`), false)
	if r.status != 200 || !bytes.Contains(r.body, []byte(`"text":"The sum is 5."`)) {
		t.Errorf("approving after the bad requests: %d %.300s", r.status, r.body)
	}
}
