package mcpserver

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema"
)

// messageDescription describes the one input of an ask_<key> tool.
const messageDescription = "The question or input for the agent."

// askInputJSON is the input schema an ask_<key> tool advertises, with
// Mastra's keys and their order (the dialect last: Mastra's builder adds
// it to the plain JSON Schema the tool was created with).
var askInputJSON = json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"` +
	messageDescription + `"}},"required":["message"],"additionalProperties":false,"$schema":"` + draft07 + `"}`)

// askInputSchema validates an ask_<key> tool's input, {message: string}
// and nothing else, wording its issues as Mastra's validator of plain
// JSON Schemas does (Ajv with allErrors): "must be object", "must have
// required property 'message'", one "must NOT have additional properties"
// per extra key, "must be string"; in that order.
type askInputSchema struct{}

var askJSONSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"message": {Type: "string", Description: messageDescription},
	},
	Required:             []string{"message"},
	AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
}

// JSONSchema implements schema.Schema.
func (askInputSchema) JSONSchema() *jsonschema.Schema { return askJSONSchema }

// Validate implements schema.Schema.
func (askInputSchema) Validate(v any) (any, []schema.Issue) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, []schema.Issue{{Code: "invalid_type", Path: []string{}, Message: "must be object"}}
	}
	var issues []schema.Issue
	msg, has := obj["message"]
	if !has {
		issues = append(issues, schema.Issue{Code: "invalid_type", Path: []string{}, Message: "must have required property 'message'"})
	}
	for k := range obj {
		if k != "message" {
			issues = append(issues, schema.Issue{Code: "unrecognized_keys", Path: []string{}, Message: "must NOT have additional properties"})
		}
	}
	if has {
		if _, isString := msg.(string); !isString {
			issues = append(issues, schema.Issue{Code: "invalid_type", Path: []string{"message"}, Message: "must be string"})
		}
	}
	if len(issues) > 0 {
		return nil, issues
	}
	return obj, nil
}
