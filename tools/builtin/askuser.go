package builtin

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/tools"
)

// Selection modes of an ask_user prompt with options.
const (
	SingleSelect = "single_select"
	MultiSelect  = "multi_select"
)

// AskUserOption is one choice of an ask_user prompt. Label is the answer
// returned when it is selected.
type AskUserOption struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// AskUserInput is ask_user's input. Options nil asks an open question;
// SelectionMode requires options and defaults to single_select.
type AskUserInput struct {
	Question      string          `json:"question"`
	Options       []AskUserOption `json:"options,omitzero"`
	SelectionMode string          `json:"selectionMode,omitempty"`
}

// AskUserSuspendPayload is what ask_user suspends with: the host renders the
// question (and choices) from it. Options is kept when the model sent an
// empty list; SelectionMode is set only when there are options.
type AskUserSuspendPayload struct {
	Question      string          `json:"question"`
	Options       []AskUserOption `json:"options,omitzero"`
	SelectionMode string          `json:"selectionMode,omitempty"`
}

// AskUserResult is what ask_user returns to the model.
type AskUserResult struct {
	Content string `json:"content"`
	IsError bool   `json:"isError"`
}

// AskUserTool (id "ask_user") asks the user a question and waits for the
// answer. In an agent run it suspends with an [AskUserSuspendPayload]; the
// host resumes the call with the answer: a string (free text, single
// select) or an array of strings (multi select), returned to the model as
// "User answered: <answer>" (array items joined with ", "). Without an
// agent (a direct call) it returns the question as readable text instead.
// A selectionMode without options is reported to the model as an error
// result. Its Execute output is an [AskUserResult] (nil when suspended).
// Like Mastra's, the tool has no output schema.
var AskUserTool = tools.New(tools.Config[AskUserInput, any]{
	ID: "ask_user",
	Description: "Ask the user a question and wait for their response. Use this when you need clarification, " +
		"want to validate assumptions, or need the user to make a decision between options. Provide options for " +
		"structured choices (2-4 options), or omit them for open-ended questions. Use selectionMode to choose whether " +
		"the user can pick one option or multiple options.",
	InputSchema:   mustSchema(askUserInputJSON),
	SuspendSchema: mustSchema(askUserSuspendJSON),
	ResumeSchema:  mustSchema(askUserResumeJSON),
	Execute:       askUser,
})

func askUser(ctx tools.Context, in AskUserInput) (any, error) {
	if in.SelectionMode != "" && len(in.Options) == 0 {
		return askUserFailed("selectionMode requires options."), nil
	}
	mode := ""
	if len(in.Options) > 0 {
		mode = in.SelectionMode
		if mode == "" {
			mode = SingleSelect
		}
	}
	if raw := ctx.ResumeData(); raw != nil {
		answer, err := formatAnswer(raw)
		if err != nil {
			return askUserFailed(err.Error()), nil
		}
		return AskUserResult{Content: "User answered: " + answer}, nil
	}
	if ctx.Agent() != nil {
		err := ctx.Suspend(AskUserSuspendPayload{Question: in.Question, Options: in.Options, SelectionMode: mode})
		if err != nil && !errors.Is(err, tools.ErrSuspended) {
			return askUserFailed(err.Error()), nil
		}
		return nil, err
	}
	var b strings.Builder
	b.WriteString("[Question for user]: ")
	b.WriteString(in.Question)
	if len(in.Options) > 0 {
		b.WriteString("\nOptions: ")
		for i, o := range in.Options {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(o.Label)
		}
	}
	if mode != "" {
		b.WriteString("\nSelection mode: ")
		b.WriteString(mode)
	}
	return AskUserResult{Content: b.String()}, nil
}

func askUserFailed(msg string) AskUserResult {
	return AskUserResult{Content: "Failed to ask user: " + msg, IsError: true}
}

// formatAnswer renders resume data (a string or an array of strings, as the
// resume schema checked) the way Mastra's formatQuestionAnswer does.
func formatAnswer(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return "", fmt.Errorf("resume data must be a string or an array of strings: %w", err)
	}
	return strings.Join(list, ", "), nil
}
