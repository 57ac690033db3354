package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/examples/httpbench/app"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// The app behind Mastra's HTTP API, asked what the benchmark asks.
func ExampleNew() {
	m, err := app.New(app.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := server.New(m, server.Options{})
	defer srv.Shutdown(context.Background())
	ts := httptest.NewServer(srv)
	defer ts.Close()

	for _, req := range []struct{ path, body string }{
		{"/api/tools/add/execute", `{"data":{"a":41,"b":1}}`},
		{"/api/agents/calc-agent/generate", `{"messages":"hi"}`},
	} {
		resp, err := http.Post(ts.URL+req.path, "application/json", strings.NewReader(req.body))
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct {
			Sum  *int   `json:"sum"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(b, &out)
		if out.Sum != nil {
			fmt.Println(resp.StatusCode, "sum", *out.Sum)
		} else {
			fmt.Println(resp.StatusCode, out.Text)
		}
	}
	// Output:
	// 200 sum 42
	// 200 The sum is 5.
}

// The add tool on its own.
func ExampleNewAddTool() {
	res, err := app.NewAddTool().Execute(context.Background(), json.RawMessage(`{"a":2,"b":3}`), &tools.Invocation{})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := res.JSON()
	fmt.Println(string(out))
	// Output: {"sum":5}
}

// The scripted model drives any agent: here two tool steps, then the
// answer, so the run makes three model calls.
func ExampleNewModel() {
	a, err := agent.New(agent.Config{ID: "twice", Model: app.NewModel(2), Tools: tools.Set{"add": app.NewAddTool()}})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := a.Generate(context.Background(), "hi")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(out.Steps), "steps:", out.Text)
	// Output: 3 steps: The sum is 5.
}

// Build is what a main hands to serve.Main (see calcserver).
func ExampleBuild() {
	store, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	env := serve.Env{Storage: store, Getenv: func(k string) string {
		if k == app.AgentStorageEnv {
			return "1"
		}
		return ""
	}}
	m, err := app.Build(context.Background(), env)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := m.GetAgent("calcAgent")
	fmt.Println(a.ID(), "keeps its runs in the server's storage:", a.Storage() == store)
	// Output: calc-agent keeps its runs in the server's storage: true
}
