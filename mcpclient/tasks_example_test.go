package mcpclient_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/mcpclient"
)

// A server whose long-running tools answer with MCP tasks: the call polls
// the task and returns its result; with Background, an agent with
// background tasks enabled keeps answering while the task runs.
func ExampleTasksConfig() {
	client, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{
		"reports": {
			URL: "http://127.0.0.1:4111/api/mcp/reports/mcp",
			Tasks: &mcpclient.TasksConfig{
				PollInterval: 2 * time.Second, // when the server suggests none
				Timeout:      time.Hour,       // then the task is cancelled
				Background:   true,
			},
		},
	}})
	if err != nil {
		panic(err)
	}
	defer client.Close()

	// A call whose task did not complete fails with a *TaskError:
	err = &mcpclient.TaskError{Server: "reports", Tool: "report", TaskID: "t1", Kind: mcpclient.ErrTaskFailed, Message: "worker crashed"}
	var te *mcpclient.TaskError
	fmt.Println(errors.Is(err, mcpclient.ErrTaskFailed), errors.As(err, &te) && te.TaskID == "t1")
	// Output:
	// true true
}
