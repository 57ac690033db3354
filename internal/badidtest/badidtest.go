// Package badidtest holds the requests that pass ids no storage may hold
// (a NUL character) to the server, and the app they address, so that the
// server's tests (on SQLite) and storage/postgres's run the same ones. It
// is for tests only.
package badidtest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/dberrtest"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// BadIDRequest is a request naming a run, thread or resource by an id no
// storage may hold (a NUL character in it); Field is the field the 4xx
// answer must name.
type BadIDRequest struct {
	Method, Target, Body, Field string
}

// nul is an id with a NUL character, as JSON and as a URL.
const (
	nulJSON = `"a\u0000b"`
	nulURL  = "a%00b"
)

// BadIDRequests are the requests of BadIDApp's API (under /api, the chat
// route at /chat/{agentId}) that pass an id to the storage.
var BadIDRequests = []BadIDRequest{
	{"POST", "/api/tools/echo/execute?runId=" + nulURL, `{"data":{"a":1}}`, "runId"},
	{"POST", "/api/agents/mem-agent/generate", `{"messages":"hi","memory":{"thread":` + nulJSON + `,"resource":"r"}}`, "memory.thread"},
	{"POST", "/api/agents/mem-agent/generate", `{"messages":"hi","memory":{"thread":{"id":` + nulJSON + `},"resource":"r"}}`, "memory.thread"},
	{"POST", "/api/agents/mem-agent/stream", `{"messages":"hi","memory":{"thread":"t","resource":` + nulJSON + `}}`, "memory.resource"},
	{"POST", "/api/agents/mem-agent/generate", `{"messages":"hi","runId":` + nulJSON + `}`, "runId"},
	{"POST", "/api/agents/mem-agent/resume-stream", `{"runId":` + nulJSON + `}`, "runId"},
	{"POST", "/api/agents/mem-agent/approve-tool-call", `{"runId":` + nulJSON + `,"toolCallId":"c"}`, "runId"},
	{"POST", "/api/agents/mem-agent/decline-tool-call-generate", `{"runId":` + nulJSON + `,"toolCallId":"c"}`, "runId"},
	{"POST", "/api/agents/mem-agent/send-tool-approval", `{"threadId":` + nulJSON + `,"resourceId":"r","toolCallId":"c","approved":true}`, "threadId"},
	{"GET", "/api/agents/mem-agent/suspended-runs?threadId=" + nulURL, "", "threadId"},
	{"GET", "/api/agents/mem-agent/suspended-runs?resourceId=" + nulURL, "", "resourceId"},
	{"POST", "/api/workflows/one-step/create-run?runId=" + nulURL, `{}`, "runId"},
	{"POST", "/api/workflows/one-step/start-async?runId=" + nulURL, `{"inputData":{}}`, "runId"},
	{"POST", "/api/workflows/one-step/start-async", `{"inputData":{},"resourceId":` + nulJSON + `}`, "resourceId"},
	{"POST", "/api/workflows/one-step/stream?runId=" + nulURL, `{"inputData":{}}`, "runId"},
	{"POST", "/api/workflows/one-step/resume-async?runId=" + nulURL, `{"resumeData":{}}`, "runId"},
	{"GET", "/api/workflows/one-step/runs?resourceId=" + nulURL, "", "resourceId"},
	{"GET", "/api/workflows/one-step/runs/" + nulURL, "", "runId"},
	{"POST", "/api/workflows/one-step/runs/" + nulURL + "/cancel", "", "runId"},
	{"POST", "/chat/mem-agent", `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"memory":{"thread":` + nulJSON + `,"resource":"r"}}`, "memory.thread"},
	{"POST", "/chat/mem-agent", `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"runId":` + nulJSON + `,"resumeData":{"approved":true}}`, "runId"},
}

// BadIDApp is the registry BadIDRequests address, on st: the tool echo,
// the agent mem-agent (memory on st, a scripted model answering "ok") and
// the workflow one-step (snapshots on st).
func BadIDApp(st storage.Store) *mastra.Mastra {
	echo := tools.New(tools.Config[map[string]any, map[string]any]{ID: "echo", Description: "Echoes its input.",
		Execute: func(_ tools.Context, in map[string]any) (map[string]any, error) { return in, nil }})
	a, err := agent.New(agent.Config{ID: "mem-agent", Name: "mem-agent", Instructions: "Answer.",
		Model: mock.New(mock.Step{Text: "ok"}).RepeatLast(), Storage: st, Memory: &agent.MemoryOptions{}})
	if err != nil {
		panic(err)
	}
	w := workflows.New(workflows.Config{ID: "one-step", Storage: st}).
		Then(workflows.NewStep(workflows.StepConfig[map[string]any, map[string]any]{ID: "same",
			Execute: func(_ workflows.StepContext, in map[string]any) (map[string]any, error) { return in, nil }}))
	if err := w.Commit(); err != nil {
		panic(err)
	}
	return mastra.New(mastra.Config{Tools: map[string]*tools.Tool{"echo": echo},
		Agents: map[string]*agent.Agent{"memAgent": a}, Workflows: map[string]*workflows.Workflow{"oneStep": w}})
}

// CheckBadIDs sends BadIDRequests to h and fails t for each answer that
// is not a 400 naming the request's field, or that carries a storage's
// error text.
func CheckBadIDs(t *testing.T, h http.Handler) {
	t.Helper()
	for _, c := range BadIDRequests {
		code, got := dberrtest.Send(h, dberrtest.Request{Method: c.Method, Target: c.Target, Body: c.Body})
		if code != http.StatusBadRequest || !strings.Contains(got, `"field":"`+c.Field+`"`) {
			t.Errorf("%s %s %s: %d %.300s", c.Method, c.Target, c.Body, code, got)
		}
		dberrtest.CheckNoLeak(t, c.Method+" "+c.Target, got, []string{"SQLSTATE", "postgres", "sqlite", "invalid byte sequence"})
	}
}
