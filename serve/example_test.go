package serve_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/tools"
)

type greeting struct {
	Name string `json:"name"`
}

type reply struct {
	Text string `json:"text"`
}

var greetTool = tools.New(tools.Config[greeting, reply]{
	ID:          "greet",
	Description: "Greets someone by name",
	Execute: func(_ tools.Context, in greeting) (reply, error) {
		return reply{Text: "Hello, " + in.Name + "!"}, nil
	},
})

// An app's main: serve.Main opens the storage (SQLite in
// .mastra/mastra.db unless -storage says otherwise), builds the registry
// on it and serves Mastra's API, the AI SDK chat route and the dev studio
// on 127.0.0.1:4111 until SIGINT or SIGTERM. Options link more:
// serve.WithStorage(postgres.Driver) for postgres:// URLs (package
// storage/postgres), mcpserver.ServeOption() for MCP (package mcpserver).
func ExampleMain() {
	serve.Main(func(ctx context.Context, env serve.Env) (*mastra.Mastra, error) {
		return mastra.New(mastra.Config{
			Tools:  tools.Set{"greet": greetTool},
			Logger: env.Logger,
		}), nil
	})
}

// Run is Main without flags or exit: here on a free port and an
// in-memory store, stopped once a tool call has answered.
func ExampleRun() {
	ctx, stop := context.WithCancel(context.Background())
	build := func(context.Context, serve.Env) (*mastra.Mastra, error) {
		return mastra.New(mastra.Config{Tools: tools.Set{"greet": greetTool}}), nil
	}
	cfg := serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: ":memory:", NoStudio: true,
		Ready: func(addr string) {
			defer stop()
			res, err := http.Post("http://"+addr+"/api/tools/greet/execute", "application/json", strings.NewReader(`{"data":{"name":"Ada"}}`))
			if err != nil {
				fmt.Println(err)
				return
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			fmt.Println(res.StatusCode, string(body))
		}}
	if err := serve.Run(ctx, cfg, os.Getenv, slog.New(slog.DiscardHandler), build); err != nil {
		fmt.Println(err)
	}
	// Output: 200 {"text":"Hello, Ada!"}
}
