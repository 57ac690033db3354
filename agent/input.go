package agent

import (
	"fmt"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
)

// splitInput separates the request's input from what it carries of an
// earlier response: the assistant and tool messages after its last user
// message (a client sends the model's tool calls back with the results of
// the client tools it ran, and then asks the run to go on). Mastra merges
// them into one assistant message that the run's first step continues,
// which makes them part of the run's response (nonUser, response.messages),
// not of its input; so do these. Tool messages without results carry
// nothing and are dropped.
func splitInput(msgs []model.Message) (input, carried []model.Message) {
	cut := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		if role := msgs[i].Role; role == model.RoleUser {
			break
		} else if role == model.RoleAssistant || role == model.RoleTool {
			cut = i
		}
	}
	input = make([]model.Message, 0, len(msgs))
	for i, m := range msgs {
		switch {
		case m.Role == model.RoleTool && len(m.Content) == 0:
		case i >= cut && m.Role != model.RoleSystem:
			carried = append(carried, m)
		default:
			// A system message among the carried ones stays with the
			// input: it is no part of the merged assistant message.
			input = append(input, m)
		}
	}
	return input, carried
}

// inputMessages is a run's input as messages.
func inputMessages(input any) ([]model.Message, error) {
	switch t := input.(type) {
	case string:
		return []model.Message{model.UserText(t)}, nil
	case model.Message:
		return []model.Message{t}, nil
	case []model.Message:
		return t, nil
	}
	return nil, fmt.Errorf("agent: input must be a string, a model.Message or a []model.Message, not %T", input)
}

// newID is a random UUID.
func newID() string { return uuid.New() }
