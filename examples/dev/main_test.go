package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomastra/mastra/serve"
)

// TestTheDevServerServesTheExample starts the example as `go run
// ./examples/dev` does (on a free port of 127.0.0.1, SQLite in a temp
// dir, a local wttr.in) and calls it over HTTP as the guide's
// `mastra api tool execute weather-tool` does.
func TestTheDevServerServesTheExample(t *testing.T) {
	j1, err := os.ReadFile("../weather/weather/testdata/san-francisco.j1.json")
	if err != nil {
		t.Fatal(err)
	}
	wttr := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(j1) }))
	defer wttr.Close()
	env := map[string]string{"WEATHER_BASE_URL": wttr.URL, "OPENAI_API_KEY": ""}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	var summary, logs strings.Builder
	cfg := serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: filepath.Join(t.TempDir(), "mastra.db"), Summary: &summary, Ready: func(a string) { ready <- a }}
	for _, o := range options() {
		o(&cfg)
	}
	go func() {
		done <- serve.Run(ctx, cfg, func(k string) string { return env[k] }, slog.New(slog.NewTextHandler(&logs, nil)), build)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		// A clean start warns about nothing (the error is the agent's,
		// asked for without a key above); the summary says what is
		// served where, MCP included.
		if strings.Contains(logs.String(), "level=WARN") {
			t.Errorf("logs: %s", logs.String())
		}
		for _, want := range []string{"  studio  http://" + addr + "/\n", "  API     http://" + addr + "/api  (5 tools, 3 agents, 1 workflow)",
			"  MCP     http://" + addr + "/api/mcp/mastra/mcp", "not served over MCP: askUserTool"} {
			if !strings.Contains(summary.String(), want) {
				t.Errorf("summary lacks %q:\n%s", want, summary.String())
			}
		}
	}()
	call := func(method, path, body string) string {
		req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	if got := call("POST", "/api/tools/weather-tool/execute", `{"data":{"location":"San Francisco"}}`); got != `{"location":"San Francisco","temperatureCelsius":14,"conditions":"Partly cloudy"}` {
		t.Errorf("weather-tool: %s", got)
	}
	// web_fetch is served, and refuses a loopback address before any dial.
	if got := call("POST", "/api/tools/web_fetch/execute", `{"data":{"url":"http://127.0.0.1:9/"}}`); got != `{"content":"Failed to fetch URL: URL resolves to a private or reserved address.","isError":true}` {
		t.Errorf("web_fetch: %s", got)
	}
	if got := call("GET", "/api/agents", ""); !strings.Contains(got, `"weather-agent"`) || !strings.Contains(got, `"supervisor"`) {
		t.Errorf("agents: %s", got)
	}
	if got := call("POST", "/api/workflows/activityPlanning/start-async", `{"inputData":{"location":"San Francisco"}}`); !strings.Contains(got, `"status":"success"`) || !strings.Contains(got, "walk in a park") {
		t.Errorf("workflow: %.500s", got)
	}
	// Without a key the agent answers with an error naming the variable.
	if got := call("POST", "/api/agents/weather-agent/generate", `{"messages":"Weather in Paris?"}`); !strings.Contains(got, "OPENAI_API_KEY") {
		t.Errorf("agent without a key: %.500s", got)
	}
}
