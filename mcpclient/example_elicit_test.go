package mcpclient_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/mcpclient"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// bookingServer is an MCP server whose tool asks the user for a seat
// (elicitation) while it runs.
// It reports each booking to booked, when set.
func bookingServer(booked func(string)) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "airline", Version: "1.0.0"},
		// A revision where tools send elicitation/create in flight.
		&mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	mcp.AddTool(srv, &mcp.Tool{Name: "book", Description: "Books a flight"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Which seat?", RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"seat": map[string]any{"type": "string"},
					"meal": map[string]any{"type": "string", "enum": []any{"veg", "fish"}, "default": "veg"},
				},
				"required": []any{"seat"},
			}})
			if err != nil {
				return nil, nil, err
			}
			if res.Action != "accept" {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not booked: " + res.Action}}}, nil, nil
			}
			text := fmt.Sprintf("booked seat %v with a %v meal", res.Content["seat"], res.Content["meal"])
			if booked != nil {
				booked(text)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	return srv
}

// An application handler answers the server's questions; the requested
// schema's defaults fill the fields the answer leaves out.
func ExampleServerConfig_elicitationHandler() {
	server := inProcess(bookingServer(nil))
	server.ElicitationHandler = func(_ context.Context, req *mcpclient.ElicitationRequest) (*mcpclient.ElicitationResponse, error) {
		fmt.Printf("%s asks: %s\n", req.Server, req.Message)
		return &mcpclient.ElicitationResponse{Action: mcpclient.ElicitationAccept, Content: map[string]any{"seat": "12A"}}, nil
	}
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"airline": server}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	set, err := c.ServerTools(context.Background(), "airline")
	if err != nil {
		log.Fatal(err)
	}
	res, err := set["book"].Execute(context.Background(), nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text)
	// Output:
	// airline asks: Which seat?
	// booked seat 12A with a veg meal
}

// Registering the handler at run time (Mastra's
// client.elicitation.onRequest): here the user always declines.
func ExampleClient_OnElicitationRequest() {
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"airline": inProcess(bookingServer(nil))}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	err = c.OnElicitationRequest("airline", func(context.Context, *mcpclient.ElicitationRequest) (*mcpclient.ElicitationResponse, error) {
		return &mcpclient.ElicitationResponse{Action: mcpclient.ElicitationDecline}, nil
	})
	if err != nil {
		log.Fatal(err)
	}
	set, _ := c.ServerTools(context.Background(), "airline")
	res, err := set["book"].Execute(context.Background(), nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text)
	// Output: not booked: decline
}

// Without a handler, an agent's call suspends on the server's question;
// the person's answer resumes it (from the studio's form, or in code).
func ExampleElicitationSuspension() {
	srv := bookingServer(func(text string) { fmt.Println("server:", text) })
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"airline": inProcess(srv)}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "airline_book", Args: `{}`}}},
		mock.Step{Text: "Your flight is booked."},
	)
	a, err := agent.New(agent.Config{ID: "travel", Name: "Travel", Instructions: "Book flights.", Model: m, Tools: c.ListTools(ctx)})
	if err != nil {
		log.Fatal(err)
	}
	out, err := a.Generate(ctx, "Book my flight")
	if err != nil {
		log.Fatal(err)
	}
	question, _, err := agent.SuspendPayloadAs[mcpclient.ElicitationSuspension](out)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.FinishReason, "-", question.Message)

	w, _ := out.Waiting()
	answer := mcpclient.ElicitationResponse{Action: mcpclient.ElicitationAccept, Content: map[string]any{"seat": "3F", "meal": "fish"}}
	out, err = a.ResumeGenerate(ctx, out.RunID, answer, agent.WithToolCallID(w.ToolCallID))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Text)
	// Output:
	// suspended - Which seat?
	// server: booked seat 3F with a fish meal
	// Your flight is booked.
}

// Subscribing to a resource and hearing about its changes.
func ExampleClient_SubscribeResource() {
	updated := make(chan string, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1.0.0"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{"2025-11-25"},
		SubscribeHandler:          func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler:        func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"docs": inProcess(srv)}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	_ = c.OnResourceUpdated("docs", func(u mcpclient.ResourceUpdate) { updated <- u.URI })
	if err := c.SubscribeResource(ctx, "docs", "file:///readme.md"); err != nil {
		log.Fatal(err)
	}
	_ = srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "file:///readme.md"})
	fmt.Println("changed:", <-updated)
	_ = c.UnsubscribeResource(ctx, "docs", "file:///readme.md")
	// Output: changed: file:///readme.md
}

// An agent whose tools follow the servers' tool lists: a tool the server
// adds is offered from the next run on.
func ExampleClient_ToolsFunc() {
	srv := weatherServer()
	c := newExampleClient2(srv)
	defer c.Close()
	ctx := context.Background()
	changed := make(chan struct{}, 1)
	_ = c.OnToolListChanged("weather", func() { changed <- struct{}{} })

	a, err := agent.New(agent.Config{ID: "weather", Name: "Weather", Instructions: "Help.",
		Model: mock.New(mock.Step{Text: "ok"}, mock.Step{Text: "ok"}), ToolsFunc: c.ToolsFunc()})
	if err != nil {
		log.Fatal(err)
	}
	_, _ = a.Generate(ctx, "hi")

	mcp.AddTool(srv, &mcp.Tool{Name: "alerts", Description: "Weather alerts"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	<-changed
	set, _ := c.ToolsFunc()(ctx, tools.NewRequestContext(nil))
	fmt.Println(len(set), set["weather_alerts"] != nil)
	// Output: 2 true
}

// The other list-changed notifications (Mastra's
// client.resources.onListChanged and client.prompts.onListChanged).
func ExampleClient_OnResourceListChanged() {
	srv := weatherServer()
	c := newExampleClient2(srv)
	defer c.Close()
	resources, prompts := make(chan struct{}, 1), make(chan struct{}, 1)
	_ = c.OnResourceListChanged("weather", func() { resources <- struct{}{} })
	_ = c.OnPromptListChanged("weather", func() { prompts <- struct{}{} })
	_ = c.Connect(context.Background())
	srv.RemoveResources("weather://stations")
	<-resources
	srv.RemovePrompts("packing")
	<-prompts
	fmt.Println("both lists changed")
	// Output: both lists changed
}

func newExampleClient2(srv *mcp.Server) *mcpclient.Client {
	c, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{"weather": inProcess(srv)}})
	if err != nil {
		log.Fatal(err)
	}
	return c
}
