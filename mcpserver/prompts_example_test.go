package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/tools"
)

// A server offering a prompt with a required argument.
func ExamplePrompts() {
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Prompts", Version: "1.0.0", RequestStateKey: []byte(strings.Repeat("k", 32)),
		Prompts: &mcpserver.Prompts{
			List: func(context.Context) ([]*mcp.Prompt, error) {
				return []*mcp.Prompt{{Name: "review", Description: "Review code",
					Arguments: []*mcp.PromptArgument{{Name: "language", Required: true}}}}, nil
			},
			Messages: func(_ context.Context, req *mcpserver.PromptRequest) ([]*mcp.PromptMessage, error) {
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{
					Text: "Review this " + req.Args["language"] + " code."}}}, nil
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	cs := exampleClient(srv, nil)
	defer cs.Close()
	ctx := context.Background()
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review", Arguments: map[string]string{"language": "Go"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Messages[0].Role, res.Messages[0].Content.(*mcp.TextContent).Text)
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review"})
	fmt.Println(err)
	// Output:
	// user Review this Go code.
	// calling "prompts/get": Missing required argument: language
}

// A prompt that asks the client for input before it is built, as
// Mastra's getPromptMessages does with suspend.
func ExamplePromptRequest_Suspend() {
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Briefs", Version: "1.0.0", RequestStateKey: []byte(strings.Repeat("k", 32)),
		Prompts: &mcpserver.Prompts{
			List: func(context.Context) ([]*mcp.Prompt, error) { return []*mcp.Prompt{{Name: "brief"}}, nil },
			Messages: func(_ context.Context, req *mcpserver.PromptRequest) ([]*mcp.PromptMessage, error) {
				if req.ResumeData == nil {
					return nil, req.Suspend(mcpserver.Question{Message: "Which topic?"})
				}
				var answer struct {
					Topic string `json:"topic"`
				}
				if err := json.Unmarshal(req.ResumeData, &answer); err != nil {
					return nil, err
				}
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Write a brief on " + answer.Topic}}}, nil
			},
			ResumeSchema: `{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`,
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	cs := exampleClient(srv, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			fmt.Println("asked:", req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"topic": "Go"}}, nil
		},
	})
	defer cs.Close()
	res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Messages[0].Content.(*mcp.TextContent).Text)
	// Output:
	// asked: Which topic?
	// Write a brief on Go
}

// NotifyPromptListChanged lists the prompts again and tells clients
// (Mastra's server.prompts.notifyListChanged).
func ExampleServer_NotifyPromptListChanged() {
	names := []string{"summarize"}
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Prompts", Version: "1.0.0", RequestStateKey: []byte(strings.Repeat("k", 32)),
		Prompts: &mcpserver.Prompts{
			List: func(context.Context) ([]*mcp.Prompt, error) {
				var list []*mcp.Prompt
				for _, n := range names {
					list = append(list, &mcp.Prompt{Name: n})
				}
				return list, nil
			},
			Messages: func(context.Context, *mcpserver.PromptRequest) ([]*mcp.PromptMessage, error) { return nil, nil },
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	names = []string{"summarize", "translate"}
	if err := srv.NotifyPromptListChanged(context.Background()); err != nil {
		log.Fatal(err)
	}
	cs := exampleClient(srv, nil)
	defer cs.Close()
	list, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range list.Prompts {
		fmt.Println(p.Name)
	}
	// Output:
	// summarize
	// translate
}

// A tool asking under a key of its choosing: a client of protocol
// 2026-07-28 gets inputRequests {"user_name": ...} and answers under it.
func ExampleQuestion() {
	greet := tools.New(tools.Config[struct{}, string]{ID: "greet", Description: "Greets the user",
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			var answer struct {
				Name string `json:"name"`
			}
			if ctx.ResumeData() == nil {
				return "", ctx.Suspend(mcpserver.Question{Message: "What is your name?", InputKey: "user_name"},
					tools.WithResumeSchema(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`))
			}
			if err := json.Unmarshal(ctx.ResumeData(), &answer); err != nil {
				return "", err
			}
			return "Hello, " + answer.Name + "!", nil
		}})
	srv, err := mcpserver.New(mcpserver.Config{Name: "Greeter", Version: "1.0.0",
		RequestStateKey: []byte(strings.Repeat("k", 32)), Tools: tools.Set{"greet": greet}})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	cs := exampleClient(srv, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
	})
	defer cs.Close()
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	if err != nil {
		log.Fatal(err)
	}
	for key, req := range first.InputRequests {
		fmt.Println(key, req.(*mcp.ElicitParams).Message)
	}
	done, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{"user_name": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.Content[0].(*mcp.TextContent).Text)
	// Output:
	// user_name What is your name?
	// Hello, Ada!
}
