package mcpclient_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"sort"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/mcpclient"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// weatherServer is a small MCP server run in process by the examples.
func weatherServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"},
		&mcp.ServerOptions{Instructions: "Temperatures are in Celsius."})
	type in struct {
		City string `json:"city" jsonschema:"the city"`
	}
	type out struct {
		City        string  `json:"city"`
		Temperature float64 `json:"temperature"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "forecast", Description: "Tomorrow's forecast",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, args in) (*mcp.CallToolResult, out, error) {
			return nil, out{City: args.City, Temperature: 18}, nil
		})
	srv.AddResource(&mcp.Resource{URI: "weather://stations", Name: "stations", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "Oslo, Rome"}}}, nil
		})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "weather://stations/{id}", Name: "station"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "a station"}}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "packing", Description: "What to pack",
		Arguments: []*mcp.PromptArgument{{Name: "city", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user",
				Content: &mcp.TextContent{Text: "What should I pack for " + req.Params.Arguments["city"] + "?"}}}}, nil
		})
	return srv
}

// inProcess reaches srv through in-memory transports (one per connection).
func inProcess(srv *mcp.Server) mcpclient.ServerConfig {
	return mcpclient.ServerConfig{NewTransport: func() (mcp.Transport, error) {
		client, server := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), server, nil); err != nil {
			return nil, err
		}
		return client, nil
	}}
}

// newExampleClient is the client most examples use.
func newExampleClient() *mcpclient.Client {
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"weather": inProcess(weatherServer())}})
	if err != nil {
		log.Fatal(err)
	}
	return c
}

// Configuring servers: a stdio server started as a child process and a
// streamable HTTP server (falling back to HTTP+SSE), each with its policies.
func ExampleNew() {
	headers := http.Header{}
	headers.Set("Authorization", "Bearer <token>")
	c, err := mcpclient.New(mcpclient.Config{
		ID:      "my-client",
		Timeout: 30 * time.Second,
		Servers: map[string]mcpclient.ServerConfig{
			"filesystem": {
				Command: "npx",
				Args:    []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"},
				Env:     map[string]string{"LOG_LEVEL": "warn"},
				// Ask before anything that is not read-only.
				ToolApproval: func(_ context.Context, req mcpclient.ApprovalRequest) (bool, error) {
					return req.Annotations == nil || !req.Annotations.ReadOnlyHint, nil
				},
			},
			"remote": {
				URL:                    "https://mcp.example.com/mcp",
				Headers:                headers,
				OnToolError:            mcpclient.ToolErrorReturn,
				ForwardInstructions:    true,
				EnableProgressTracking: true,
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fmt.Println(c.ID(), c.Servers())
	// Output: my-client [filesystem remote]
}

// The tools of every server, namespaced, given to an agent.
func ExampleClient_ListTools() {
	c := newExampleClient()
	defer c.Close()
	set := c.ListTools(context.Background())
	for id, t := range set {
		fmt.Println(id, "-", t.Description())
	}

	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "weather_forecast", Args: `{"city":"Oslo"}`}}},
		mock.Step{Text: "It will be 18°C in Oslo."},
	)
	a, err := agent.New(agent.Config{ID: "weather-agent", Name: "Weather Agent", Model: m, Tools: set})
	if err != nil {
		log.Fatal(err)
	}
	out, err := a.Generate(context.Background(), "Weather in Oslo tomorrow?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Text)
	// Output:
	// weather_forecast - Tomorrow's forecast
	// It will be 18°C in Oslo.
}

// Listing reports the servers that could not be reached.
func ExampleClient_ListToolsWithErrors() {
	c, err := mcpclient.New(mcpclient.Config{
		Logger: slog.New(slog.DiscardHandler), // the failure is logged too
		Servers: map[string]mcpclient.ServerConfig{
			"weather": inProcess(weatherServer()),
			"broken":  {Command: "/nonexistent/mcp-server"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	set, errs := c.ListToolsWithErrors(context.Background())
	fmt.Println(len(set), "tool;", "broken failed:", errs["broken"] != nil)
	// Output: 1 tool; broken failed: true
}

// Toolsets keep each server's own tool names, for per-call toolsets.
func ExampleClient_ListToolsets() {
	c := newExampleClient()
	defer c.Close()
	sets := c.ListToolsets(context.Background())
	fmt.Println(sets["weather"]["forecast"].ID())
	// Output: weather_forecast
}

// ListToolsetsWithErrors is ListToolsets with the failures.
func ExampleClient_ListToolsetsWithErrors() {
	c := newExampleClient()
	defer c.Close()
	sets, errs := c.ListToolsetsWithErrors(context.Background())
	fmt.Println(len(sets["weather"]), len(errs))
	// Output: 1 0
}

// One server's tools.
func ExampleClient_ServerTools() {
	c := newExampleClient()
	defer c.Close()
	set, err := c.ServerTools(context.Background(), "weather")
	if err != nil {
		log.Fatal(err)
	}
	res, err := set["forecast"].Execute(context.Background(), []byte(`{"city":"Rome"}`), nil)
	if err != nil {
		log.Fatal(err)
	}
	sr := res.Output.(*mcpclient.StructuredResult)
	fmt.Println(sr.Value)
	// Output: map[city:Rome temperature:18]
}

// Connecting eagerly reports unreachable servers up front.
func ExampleClient_Connect() {
	c := newExampleClient()
	defer c.Close()
	fmt.Println(c.Connect(context.Background()))
	// Output: <nil>
}

func ExampleClient_ListResources() {
	c := newExampleClient()
	defer c.Close()
	res, _ := c.ListResources(context.Background())
	fmt.Println(res["weather"][0].URI)
	// Output: weather://stations
}

func ExampleClient_ReadResource() {
	c := newExampleClient()
	defer c.Close()
	res, err := c.ReadResource(context.Background(), "weather", "weather://stations")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Contents[0].Text)
	// Output: Oslo, Rome
}

func ExampleClient_ListResourceTemplates() {
	c := newExampleClient()
	defer c.Close()
	tpl, _ := c.ListResourceTemplates(context.Background())
	fmt.Println(tpl["weather"][0].URITemplate)
	// Output: weather://stations/{id}
}

func ExampleClient_ListPrompts() {
	c := newExampleClient()
	defer c.Close()
	prompts, _ := c.ListPrompts(context.Background())
	fmt.Println(prompts["weather"][0].Name, "-", prompts["weather"][0].Description)
	// Output: packing - What to pack
}

func ExampleClient_GetPrompt() {
	c := newExampleClient()
	defer c.Close()
	p, err := c.GetPrompt(context.Background(), "weather", "packing", map[string]string{"city": "Oslo"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Messages[0].Content.(*mcp.TextContent).Text)
	// Output: What should I pack for Oslo?
}

func ExampleClient_ServerInstructions() {
	c := newExampleClient()
	defer c.Close()
	_ = c.Connect(context.Background())
	fmt.Println(c.ServerInstructions()["weather"])
	// Output: Temperatures are in Celsius.
}

// Forwarding a trusted server's instructions into an agent's prompt.
func ExampleClient_Guidance() {
	sc := inProcess(weatherServer())
	sc.ForwardInstructions = true
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"weather": sc}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	set := c.ListTools(context.Background())
	fmt.Println("You plan trips.\n\n" + c.Guidance(set))
	// Output:
	// You plan trips.
	//
	// ## Guidance from MCP server "weather"
	//
	// Temperatures are in Celsius.
}

// Disconnect drops the connections; the next use reconnects.
func ExampleClient_Disconnect() {
	c := newExampleClient()
	defer c.Close()
	set := c.ListTools(context.Background())
	c.Disconnect()
	_, err := set["weather_forecast"].Execute(context.Background(), []byte(`{"city":"Oslo"}`), nil)
	fmt.Println(err)
	// Output: <nil>
}

func ExampleClient_ReconnectServer() {
	c := newExampleClient()
	defer c.Close()
	fmt.Println(c.ReconnectServer(context.Background(), "weather"))
	// Output: <nil>
}

// Close is final: the client's tools fail afterwards.
func ExampleClient_Close() {
	c := newExampleClient()
	set := c.ListTools(context.Background())
	c.Close()
	_, err := set["weather_forecast"].Execute(context.Background(), []byte(`{"city":"Oslo"}`), nil)
	fmt.Println(err)
	// Output: mcpclient: client is closed
}

// Progress notifications of a call reach the tool's writer (in an agent
// run: tool-output chunks) and OnProgress.
func ExampleServerConfig_progress() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "jobs"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "build"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 1, Message: "compiled"})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	sc := inProcess(srv)
	sc.EnableProgressTracking = true
	done := make(chan mcpclient.Progress, 1)
	sc.OnProgress = func(p mcpclient.Progress) { done <- p }
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"jobs": sc}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ListTools(context.Background())["jobs_build"].Execute(context.Background(), nil, nil); err != nil {
		log.Fatal(err)
	}
	p := <-done
	fmt.Println(p.Server, p.Progress, p.Total, p.Message)
	// Output: jobs 1 1 compiled
}

func ExampleToolID() {
	fmt.Println(mcpclient.ToolID("github", "create_issue"))
	// Output: github_create_issue
}

// A structured result encodes to its structured value; its content blocks
// stay available.
func ExampleStructuredResult() {
	c := newExampleClient()
	defer c.Close()
	set := c.ListTools(context.Background())
	res, err := set["weather_forecast"].Execute(context.Background(), []byte(`{"city":"Oslo"}`), &tools.Invocation{})
	if err != nil {
		log.Fatal(err)
	}
	raw, _ := res.JSON()
	sr := res.Output.(*mcpclient.StructuredResult)
	keys := make([]string, 0)
	for k := range sr.Value.(map[string]any) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(string(raw), keys, len(sr.Content))
	// Output: {"city":"Oslo","temperature":18} [city temperature] 1
}
