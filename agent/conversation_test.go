package agent

import (
	"testing"
	"unsafe"

	"github.com/gomastra/mastra/model"
)

// TestConversationSharesWhatDidNotChange: each call lists user then
// response; a grown conversation shares the earlier backing array, and a
// replaced message starts a new one without changing what earlier calls
// returned.
func TestConversationSharesWhatDidNotChange(t *testing.T) {
	msg := func(role model.Role, text string) model.Message {
		return model.Message{Role: role, Content: []model.Part{{Type: model.MessageText, Text: text}}}
	}
	user := []model.Message{msg(model.RoleUser, "hi")}
	response := []model.Message{msg(model.RoleAssistant, "a1")}
	var c conversation
	first := c.of(user, response)
	response = append(response, msg(model.RoleTool, "t1"))
	second := c.of(user, response) // 3 messages: the array grows (to 4)
	response = append(response, msg(model.RoleAssistant, "a2"))
	if grown := c.of(user, response); len(first) != 2 || len(second) != 3 || len(grown) != 4 || unsafe.SliceData(grown) != unsafe.SliceData(second) {
		t.Fatalf("a grown conversation should share its array: %d, %d, %d messages", len(first), len(second), len(grown))
	}
	response[0] = msg(model.RoleAssistant, "replaced")
	third := c.of(user, response)
	if unsafe.SliceData(third) == unsafe.SliceData(second) || third[1].Content[0].Text != "replaced" {
		t.Fatalf("a replaced message should start a new array, got %q", third[1].Content[0].Text)
	}
	if second[1].Content[0].Text != "a1" || first[1].Content[0].Text != "a1" {
		t.Fatal("earlier lists changed")
	}
	if got := c.of(user, response[:1]); len(got) != 2 || got[1].Content[0].Text != "replaced" {
		t.Fatalf("a shorter conversation: %d messages", len(got))
	}
}
