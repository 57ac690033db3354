package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

type noIn struct{}

type foundOut struct {
	Found string `json:"found"`
}

// finder reports the id of the agent "calcAgent" it finds through the
// registry it runs in.
func finder() *tools.Tool {
	return tools.New(tools.Config[noIn, foundOut]{
		ID: "finder", Description: "finds the calc agent",
		Execute: func(ctx tools.Context, _ noIn) (foundOut, error) {
			m := mastra.FromContext(ctx)
			if m == nil {
				return foundOut{}, nil
			}
			a, err := m.GetAgent("calcAgent")
			if err != nil {
				return foundOut{}, err
			}
			return foundOut{Found: a.ID()}, nil
		},
	})
}

// registryApp serves a registry whose only tools are an agent's: add and
// finder belong to calcAgent alone.
func registryApp(t *testing.T) *httptest.Server {
	t.Helper()
	a, err := agent.New(agent.Config{ID: "calc-agent", Tools: tools.Set{"add": addTool(), "finder": finder()},
		Model: mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "finder", Args: `{}`}}}, mock.Step{Text: "done"})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"calcAgent": a}, Logger: quiet})
	ts := httptest.NewServer(New(m, Options{Logger: quiet}))
	t.Cleanup(ts.Close)
	return ts
}

func call(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// A tool run by an agent route reaches the registry the agent is in.
func TestAgentRouteToolsReachTheRegistry(t *testing.T) {
	ts := registryApp(t)
	code, body := call(t, "POST", ts.URL+"/api/agents/calcAgent/generate", `{"messages":"go"}`)
	if code != 200 || !strings.Contains(body, `"found":"calc-agent"`) {
		t.Errorf("generate: %d %s; want the tool to find calc-agent", code, body)
	}
}

// Tools given only to an agent are listed, got and executed through the
// registry's tool routes, as Mastra's are.
func TestToolRoutesReachAgentsTools(t *testing.T) {
	ts := registryApp(t)
	code, body := call(t, "GET", ts.URL+"/api/tools", "")
	if code != 200 || !strings.HasPrefix(body, `{"add":{"id":"add",`) || !strings.Contains(body, `,"finder":{"id":"finder",`) {
		t.Errorf("GET /api/tools: %d %s; want add then finder", code, body)
	}
	if code, body := call(t, "GET", ts.URL+"/api/tools/finder", ""); code != 200 || !strings.HasPrefix(body, `{"id":"finder",`) {
		t.Errorf("GET /api/tools/finder: %d %s", code, body)
	}
	if code, body := call(t, "POST", ts.URL+"/api/tools/add/execute", `{"data":{"a":2,"b":3}}`); code != 200 || body != `{"sum":5}` {
		t.Errorf("execute add: %d %s", code, body)
	}
	if code, body := call(t, "POST", ts.URL+"/api/tools/finder/execute", `{"data":{}}`); code != 200 || body != `{"found":"calc-agent"}` {
		t.Errorf("execute finder: %d %s", code, body)
	}
}
