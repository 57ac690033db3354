package reconnecttest

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// AgentID is the id of the scripted agent every replica of a trial runs.
const AgentID = "reconnect-agent"

// Config returns the scripted agent's configuration over store (nil: no
// storage, the agent's in-memory event log). Two agents built from it
// over one database stand for two replicas of a server. Each run makes
// two steps: text deltas and a lookup tool call whose arguments stream in
// deltas, then a longer text answer; both name the run's prompt, so that
// the events of different runs differ. partDelay is the model's wait
// between stream parts (0: none).
func Config(store storage.Store, partDelay time.Duration) agent.Config {
	cfg := agent.Config{ID: AgentID, Name: "Reconnect", Instructions: "You look things up.",
		Model: scriptedModel(partDelay), Tools: tools.Set{"lookup": lookupTool()},
		Logger: slog.New(slog.DiscardHandler)}
	if store != nil {
		cfg.Storage = store
	}
	return cfg
}

type lookupIn struct {
	Query string `json:"query"`
}

type lookupOut struct {
	Answer string `json:"answer"`
}

func lookupTool() *tools.Tool {
	return tools.New(tools.Config[lookupIn, lookupOut]{ID: "lookup", Description: "Look a query up",
		Execute: func(_ tools.Context, in lookupIn) (lookupOut, error) {
			return lookupOut{Answer: "found " + in.Query}, nil
		}})
}

// scriptedModel answers a prompt without a tool result with text and a
// lookup call, and one with a result with a long text answer.
func scriptedModel(partDelay time.Duration) *mock.Model {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		prompt := lastUserText(req)
		if !hasToolResult(req) {
			return mock.Step{PartDelay: partDelay, Text: "Let me look up " + prompt + " for you first.",
				ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "lookup", Args: fmt.Sprintf(`{"query":%q}`, prompt), ChunkSize: 5}}}
		}
		answer := "The lookup for " + prompt + " found what you asked about, and that is all of it."
		return mock.Step{PartDelay: partDelay, Text: answer}
	})
}

func hasToolResult(req *model.Request) bool {
	for _, m := range req.Messages {
		if m.Role == model.RoleTool {
			return true
		}
	}
	return false
}

func lastUserText(req *model.Request) string {
	text := ""
	for _, m := range req.Messages {
		if m.Role != model.RoleUser {
			continue
		}
		for _, p := range m.Content {
			if p.Type == model.MessageText {
				text = p.Text
			}
		}
	}
	return text
}
