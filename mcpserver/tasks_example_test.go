package mcpserver_test

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/tools"
)

// A long-running tool served as an MCP task: a client that declares the
// tasks extension gets a task id at once and polls tasks/get for the
// result (mcpclient does this with ServerConfig.Tasks).
func ExampleTasksOptions() {
	report := tools.New(tools.Config[struct{ Days int }, string]{
		ID: "report", Description: "Builds the activity report of the last days",
		Execute: func(ctx tools.Context, in struct{ Days int }) (string, error) {
			select { // the slow part; a cancelled task cancels ctx
			case <-time.After(10 * time.Millisecond):
			case <-ctx.Done():
				return "", ctx.Err()
			}
			return fmt.Sprintf("report of %d days", in.Days), nil
		},
	})
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Reports", Version: "1.0.0",
		Tools: tools.Set{"report": report},
		Tasks: mcpserver.TasksOptions{
			Tools:        map[string]mcpserver.TaskSupport{"report": mcpserver.TaskOptional},
			TTL:          time.Hour,       // how long a finished task stays readable
			PollInterval: 2 * time.Second, // suggested to clients
		},
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
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(mcpserver.TasksExtension, map[string]any{})
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, &mcp.ClientOptions{Capabilities: caps})
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	_, advertised := cs.InitializeResult().Capabilities.Extensions[mcpserver.TasksExtension]
	fmt.Println("server advertises tasks:", advertised)
	// Output:
	// server advertises tasks: true
}
