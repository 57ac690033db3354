package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

type WeatherInput struct {
	Location string `json:"location" jsonschema:"City name, e.g. San Francisco"`
}

type WeatherOutput struct {
	Location           string  `json:"location"`
	TemperatureCelsius float64 `json:"temperatureCelsius"`
	Conditions         string  `json:"conditions"`
}

var weatherTool = tools.New(tools.Config[WeatherInput, WeatherOutput]{
	ID: "weather-tool", Description: "Fetches weather for a location",
	Execute: func(_ tools.Context, in WeatherInput) (WeatherOutput, error) {
		return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
	},
})

func weatherAgent() *agent.Agent {
	a, err := agent.New(agent.Config{
		ID: "weather-agent", Name: "Weather Agent", Description: "Answers questions about the weather.",
		Instructions: "You are a helpful weather assistant.",
		Model:        mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: "Sunny in Paris."} }),
	})
	if err != nil {
		panic(err)
	}
	return a
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// A server exposing a tool and an agent, called by the Go SDK's client
// over an in-memory connection.
func ExampleNew() {
	srv, err := mcpserver.New(mcpserver.Config{
		ID: "weather", Name: "Weather Server", Version: "1.0.0",
		Tools:           tools.Set{"weather": weatherTool},
		Agents:          map[string]*agent.Agent{"forecaster": weatherAgent()},
		RequestStateKey: []byte("an example key of at least 32 bytes"),
		Logger:          quiet,
	})
	if err != nil {
		panic(err)
	}
	defer srv.Close()

	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCPServer().Connect(context.Background(), st, nil); err != nil {
		panic(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	list, _ := cs.ListTools(context.Background(), nil)
	for _, t := range list.Tools {
		fmt.Println(t.Name, "-", t.Description)
	}
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "weather", Arguments: map[string]any{"location": "Paris"}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// weather - Fetches weather for a location
	// ask_forecaster - Ask agent 'Weather Agent' a question. Agent description: Answers questions about the weather.
	// {"location":"Paris","temperatureCelsius":21,"conditions":"Sunny"}
}

// A server exposing everything a registry holds.
func ExampleFromMastra() {
	m := mastra.New(mastra.Config{
		Tools:  tools.Set{"weather": weatherTool},
		Agents: map[string]*agent.Agent{"forecaster": weatherAgent()},
		Logger: quiet,
	})
	srv, err := mcpserver.FromMastra(m, mcpserver.Config{Name: "My App", Version: "1.0.0", RequestStateKey: []byte("an example key of at least 32 bytes")})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	fmt.Println(srv.ID(), srv.ToolNames())
	// Output: my-app [weather ask_forecaster]
}

// The MCP routes mounted in the API server: the streamable HTTP transport
// at /api/mcp/<id>/mcp and Mastra's REST routes.
func ExampleRoutes() {
	srv, err := mcpserver.New(mcpserver.Config{ID: "weather", Name: "Weather", Version: "1.0.0",
		Tools: tools.Set{"weather": weatherTool}, RequestStateKey: []byte("an example key of at least 32 bytes"), Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	api := server.New(mastra.New(mastra.Config{Logger: quiet}), server.Options{Routes: mcpserver.Routes(srv), Logger: quiet})
	ts := httptest.NewServer(api)
	defer ts.Close()

	resp, err := http.Post(ts.URL+"/api/mcp/weather/tools/weather/execute", "application/json", strings.NewReader(`{"data":{"location":"Oslo"}}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/api/mcp/weather/mcp"}, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "weather", Arguments: map[string]any{"location": "Rome"}})
	fmt.Println(res.StructuredContent)
	// Output:
	// 200 {"result":{"location":"Oslo","temperatureCelsius":21,"conditions":"Sunny"}}
	// map[conditions:Sunny location:Rome temperatureCelsius:21]
}

// Serving streamable HTTP on a path of one's own.
func ExampleServer_HTTPHandler() {
	srv, err := mcpserver.New(mcpserver.Config{Name: "Weather", Version: "1.0.0",
		Tools: tools.Set{"weather": weatherTool}, RequestStateKey: []byte("an example key of at least 32 bytes"), Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	ts := httptest.NewServer(mux)
	defer ts.Close()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope"})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output: true Unknown tool: nope
}

// Serving a client over a pair of streams (the process's stdin and
// stdout in `mastra mcp`; pipes here).
func ExampleServer_ServeStdio() {
	srv, err := mcpserver.New(mcpserver.Config{Name: "Weather", Version: "1.0.0",
		Tools: tools.Set{"weather": weatherTool}, RequestStateKey: []byte("an example key of at least 32 bytes"), Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), serverIn, serverOut) }()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		panic(err)
	}
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "weather", Arguments: map[string]any{"location": "Lima"}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	cs.Close()
	serverOut.Close()
	fmt.Println(<-done)
	// Output:
	// {"location":"Lima","temperatureCelsius":21,"conditions":"Sunny"}
	// <nil>
}

// Run serves stdin/stdout; a program's main is this short.
func ExampleServer_Run() {
	srv, err := mcpserver.New(mcpserver.Config{Name: "Weather", Version: "1.0.0", Tools: tools.Set{"weather": weatherTool}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if os.Getenv("SERVE_MCP") != "" { // not when the example runs as a test
		if err := srv.Run(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// Running a tool without a client, as the REST execute route does; a
// suspending tool reports what it asks.
func ExampleServer_ExecuteTool() {
	type order struct {
		Item string `json:"item"`
	}
	approve := tools.New(tools.Config[order, string]{ID: "approve", Description: "Orders after approval",
		Execute: func(ctx tools.Context, in order) (string, error) {
			if ctx.ResumeData() == nil {
				return "", ctx.Suspend(map[string]string{"message": "Order " + in.Item + "?"})
			}
			return "ordered " + in.Item, nil
		}})
	srv, err := mcpserver.New(mcpserver.Config{Name: "Shop", Version: "1.0.0", Tools: tools.Set{"approve": approve},
		RequestStateKey: []byte("an example key of at least 32 bytes"), Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	x, _ := srv.ExecuteTool(context.Background(), "approve", []byte(`{"item":"tea"}`), nil)
	fmt.Println(x.Suspended, string(x.SuspendPayload))
	x, _ = srv.ExecuteTool(context.Background(), "approve", []byte(`{"item":"tea"}`),
		&mcpserver.ExecuteOptions{ResumeData: []byte(`{}`), SuspendPayload: x.SuspendPayload})
	fmt.Println(string(x.Output))
	_, err = srv.ExecuteTool(context.Background(), "nope", nil, nil)
	fmt.Println(err)
	// Output:
	// true {"message":"Order tea?"}
	// "ordered tea"
	// Unknown tool: nope
}

// A tool reaching the MCP request that called it, to report progress.
func ExampleRequestFrom() {
	slow := tools.New(tools.Config[struct{}, string]{ID: "slow", Description: "Works in steps",
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			if r, ok := mcpserver.RequestFrom(ctx); ok {
				_ = r.Progress(ctx, 1, 2, "half way")
				return "called by " + r.Client.Name + " over MCP", nil
			}
			return "called directly", nil
		}})
	srv, err := mcpserver.New(mcpserver.Config{Name: "Slow", Version: "1.0.0", Tools: tools.Set{"slow": slow},
		RequestStateKey: []byte("an example key of at least 32 bytes"), Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCPServer().Connect(context.Background(), st, nil); err != nil {
		panic(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "inspector", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	x, _ := srv.ExecuteTool(context.Background(), "slow", nil, nil)
	fmt.Println(string(x.Output))
	// Output:
	// called by inspector over MCP
	// "called directly"
}

func ExampleSlugify() {
	fmt.Println(mcpserver.Slugify("My Weather Server"), mcpserver.Slugify("APIServer2"), mcpserver.Slugify("Crème brûlée"))
	// Output: my-weather-server api-server2 creme-brulee
}

// The MCP routes under another API prefix, as server.Options.APIPrefix
// moves the API.
func ExampleRoutesWith() {
	srv, err := mcpserver.New(mcpserver.Config{ID: "weather", Name: "Weather", Version: "1.0.0",
		Tools: tools.Set{"weather": weatherTool}, RequestStateKey: []byte("an example key of at least 32 bytes"), Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	routes := mcpserver.RoutesWith(mcpserver.RouteOptions{Prefix: "/v1"}, srv)
	api := server.New(mastra.New(mastra.Config{Logger: quiet}), server.Options{APIPrefix: "/v1", Routes: routes, Logger: quiet})
	ts := httptest.NewServer(api)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/v1/mcp/v0/servers")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(strings.Contains(string(body), `"id":"weather"`), strings.Contains(string(body), `"transports":["streamable-http"]`))
	// Output: true true
}

// What the REST routes show of each tool.
func ExampleServer_Tools() {
	srv, err := mcpserver.New(mcpserver.Config{Name: "Weather", Version: "1.0.0",
		Tools:           tools.Set{"weather": weatherTool},
		Agents:          map[string]*agent.Agent{"forecaster": weatherAgent()},
		RequestStateKey: []byte("an example key of at least 32 bytes"), Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	for _, t := range srv.Tools() {
		fmt.Printf("%s %q %s\n", t.Name, t.ToolType, t.InputSchema)
	}
	// Output:
	// weather "" {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"location":{"type":"string","description":"City name, e.g. San Francisco"}},"required":["location"],"additionalProperties":false}
	// ask_forecaster "agent" {"type":"object","properties":{"message":{"type":"string","description":"The question or input for the agent."}},"required":["message"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}
}
