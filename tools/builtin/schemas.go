package builtin

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema"
)

// The schemas below are Mastra's zod schemas as zod's toJSONSchema writes
// them (draft 2020-12; input schemas with io "input", output schemas with
// io "output"), compiled with Zod's object semantics: unknown keys are
// stripped unless additionalProperties is false. testdata/mastra.json
// holds the captured originals and the tests compare them.

const draft2020 = `"$schema":"https://json-schema.org/draft/2020-12/schema",`

// Ask-user schemas.
const (
	askUserOptionJSON = `{"type":"object","properties":{` +
		`"label":{"type":"string","description":"Short display text for this option (1-5 words)"},` +
		`"description":{"description":"Explanation of what this option means","type":"string"}},` +
		`"required":["label"]}`

	askUserInputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"question":{"type":"string","minLength":1,"description":"The question to ask the user. Should be clear and specific."},` +
		`"options":{"description":"Optional choices. If provided, shows a selection list. If omitted, shows a free-text input.","type":"array","items":` + askUserOptionJSON + `},` +
		`"selectionMode":{"description":"Controls how many provided options the user can select. Defaults to single_select when options are provided. Requires options.","type":"string","enum":["single_select","multi_select"]}},` +
		`"required":["question"]}`

	askUserSuspendJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"question":{"type":"string"},` +
		`"options":{"type":"array","items":` + askUserOptionJSON + `},` +
		`"selectionMode":{"type":"string","enum":["single_select","multi_select"]}},` +
		`"required":["question"]}`

	askUserResumeJSON = `{` + draft2020 + `"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}`
)

// Submit-plan schemas.
const (
	submitPlanInputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		"\"path\":{\"type\":\"string\",\"description\":\"Path to the plan markdown file on disk (e.g. `.mastracode/plans/add-dark-mode.md`).\"}}," +
		`"required":["path"]}`

	submitPlanSuspendJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"toolId":{"type":"string","const":"submit_plan"},"path":{"type":"string"},"title":{"type":"string"},"plan":{"type":"string"}},` +
		`"required":["path"]}`

	submitPlanResumeJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"action":{"type":"string","enum":["approved","rejected"]},"feedback":{"type":"string"},"path":{"type":"string"},"title":{"type":"string"},"plan":{"type":"string"}},` +
		`"required":["action"]}`
)

// Task schemas.
const (
	taskIDJSON = `{"type":"string","minLength":1,"description":"Stable task identifier (for example, 'task_investigate_tests'). Keep this unchanged across updates."}`

	taskFieldsJSON = `"content":{"type":"string","minLength":1,"description":"Task description in imperative form (e.g., 'Fix authentication bug')"},` +
		`"status":{"type":"string","enum":["pending","in_progress","completed"],"description":"Current task status"},` +
		`"activeForm":{"type":"string","minLength":1,"description":"Present continuous form shown during execution (e.g., 'Fixing authentication bug')"}`

	// taskItemInputJSON is a task as task_write takes it (id optional).
	taskItemInputJSON = `{"type":"object","properties":{"id":` + taskIDJSON + `,` + taskFieldsJSON + `},` +
		`"required":["content","status","activeForm"]}`

	// taskItemOutputJSON is a task in a result.
	taskItemOutputJSON = `{"type":"object","properties":{"id":` + taskIDJSON + `,` + taskFieldsJSON + `},` +
		`"required":["id","content","status","activeForm"],"additionalProperties":false}`

	taskWriteInputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"tasks":{"type":"array","items":` + taskItemInputJSON + `,"description":"The complete updated task list"}},` +
		`"required":["tasks"]}`

	taskUpdateInputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"id":` + taskIDJSON + `,` +
		`"content":{"description":"New task description in imperative form","type":"string","minLength":1},` +
		`"status":{"description":"New task status","type":"string","enum":["pending","in_progress","completed"]},` +
		`"activeForm":{"description":"New present continuous form shown during execution","type":"string","minLength":1}},` +
		`"required":["id"]}`

	taskCompleteInputJSON = `{` + draft2020 + `"type":"object","properties":{"id":` + taskIDJSON + `},"required":["id"]}`

	taskCheckInputJSON = `{` + draft2020 + `"type":"object","properties":{}}`

	taskResultPropsJSON = `"content":{"type":"string"},"tasks":{"type":"array","items":` + taskItemOutputJSON + `},"isError":{"type":"boolean"}`

	taskResultJSON = `{` + draft2020 + `"type":"object","properties":{` + taskResultPropsJSON + `},` +
		`"required":["content","tasks","isError"],"additionalProperties":false}`

	countJSON = `{"type":"integer","minimum":0,"maximum":9007199254740991}`

	taskCheckResultJSON = `{` + draft2020 + `"type":"object","properties":{` + taskResultPropsJSON + `,` +
		`"summary":{"type":"object","properties":{"total":` + countJSON + `,"completed":` + countJSON + `,"inProgress":` + countJSON +
		`,"pending":` + countJSON + `,"incomplete":` + countJSON + `,"hasTasks":{"type":"boolean"},"allCompleted":{"type":"boolean"}},` +
		`"required":["total","completed","inProgress","pending","incomplete","hasTasks","allCompleted"],"additionalProperties":false},` +
		`"incompleteTasks":{"type":"array","items":` + taskItemOutputJSON + `}},` +
		`"required":["content","tasks","isError","summary","incompleteTasks"],"additionalProperties":false}`
)

// mustSchema compiles one of the constants above; they are fixed, so a
// failure is a bug caught by any test.
func mustSchema(src string) *schema.Compiled {
	return schema.MustFromJSON([]byte(src), schema.ZodObjects())
}

// atLeastOneField is task_update's input schema: the object schema plus
// Mastra's refinement "Provide at least one field to update.", which, as in
// Zod, is checked only when the object's own checks found nothing that
// stops validation (a wrong type or enum value does; a too-short string
// does not). It deliberately has no ValidJSON fast path, so the tools
// package always calls Validate.
type atLeastOneField struct {
	base   *schema.Compiled
	fields []string
}

func (s atLeastOneField) JSONSchema() *jsonschema.Schema { return s.base.JSONSchema() }

func (s atLeastOneField) Validate(v any) (any, []schema.Issue) {
	out, issues := s.base.Validate(v)
	for _, is := range issues {
		if !continuable(is.Code) {
			return out, issues
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return out, issues
	}
	for _, f := range s.fields {
		if _, ok := m[f]; ok {
			return out, issues
		}
	}
	return out, append(issues, schema.Issue{Code: "custom", Path: []string{}, Message: "Provide at least one field to update."})
}

// continuable reports whether Zod keeps checking a value after an issue
// with this code (refinement-style checks) rather than aborting it.
func continuable(code string) bool {
	switch code {
	case "too_small", "too_big", "invalid_format", "not_multiple_of", "custom":
		return true
	}
	return false
}
