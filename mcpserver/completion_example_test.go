package mcpserver_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/mcpserver"
)

// Completions for a prompt argument: the languages starting with what
// the user typed.
func ExampleCompleteFunc() {
	languages := []string{"Go", "Gleam", "Rust"}
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Prompts", Version: "1.0.0", RequestStateKey: []byte(strings.Repeat("k", 32)),
		Complete: func(_ context.Context, req mcpserver.CompletionRequest) ([]string, error) {
			var out []string
			if req.Prompt == "review" && req.Argument == "language" {
				for _, l := range languages {
					if strings.HasPrefix(l, req.Value) {
						out = append(out, l)
					}
				}
			}
			return out, nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	cs := exampleClient(srv, nil)
	defer cs.Close()
	res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "review"},
		Argument: mcp.CompleteParamsArgument{Name: "language", Value: "G"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Completion.Values, res.Completion.Total)
	// Output: [Go Gleam] 2
}
