package mastraerror_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gomastra/mastra/mastraerror"
)

// TestChunkJSON: encoding/json writes the form of the agent's error
// chunks and FullOutput.error: empty fields and the cause left out.
func TestChunkJSON(t *testing.T) {
	tests := []struct {
		name string
		err  *mastraerror.Error
		want string
	}{
		{"plain", &mastraerror.Error{Message: "model failed", Cause: errors.New("401")}, `{"message":"model failed"}`},
		{"id only", &mastraerror.Error{Message: "model failed", ID: "X"}, `{"message":"model failed","code":"X"}`},
		{"mastra error", &mastraerror.Error{
			Message: "Structured output validation failed: - temp: <missing>", Domain: mastraerror.DomainAgent, Category: mastraerror.CategorySystem,
			ID: mastraerror.IDStructuredOutputSchemaValidationFailed, Details: map[string]any{"value": "{}"},
		}, `{"message":"Structured output validation failed: - temp: \u003cmissing\u003e","domain":"AGENT","category":"SYSTEM","code":"STRUCTURED_OUTPUT_SCHEMA_VALIDATION_FAILED","details":{"value":"{}"}}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.err)
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: %s, %v\nwant %s", tt.name, b, err, tt.want)
		}
	}
}

// TestMastraJSON: MarshalMastra writes MastraError.toJSON(): every key,
// details {} when nil, the cause nested when it is a MastraError.
func TestMastraJSON(t *testing.T) {
	tests := []struct {
		name string
		err  *mastraerror.Error
		want string
	}{
		{"nil details", &mastraerror.Error{ID: "X", Domain: mastraerror.DomainTool, Category: mastraerror.CategorySystem, Message: "t"},
			`{"message":"t","domain":"TOOL","category":"SYSTEM","code":"X","details":{}}`},
		{"plain cause", &mastraerror.Error{ID: "X", Message: "t", Cause: errors.New("boom")},
			`{"message":"t","domain":"","category":"","code":"X","details":{},"cause":{"message":"boom","name":"Error"}}`},
		{"MastraError cause", &mastraerror.Error{ID: "X", Message: "t", Cause: &mastraerror.Error{ID: "Y", Domain: mastraerror.DomainMCP, Message: "inner", Details: map[string]any{"b": 1, "a": 2}}},
			`{"message":"t","domain":"","category":"","code":"X","details":{},"cause":{"message":"inner","domain":"MCP","category":"","code":"Y","details":{"a":2,"b":1}}}`},
		{"plain *Error cause", &mastraerror.Error{ID: "X", Message: "t", Cause: &mastraerror.Error{ID: mastraerror.IDWorkflowResumeNotSuspended, Message: "inner"}},
			`{"message":"t","domain":"","category":"","code":"X","details":{},"cause":{"message":"inner","name":"Error"}}`},
	}
	for _, tt := range tests {
		b, err := tt.err.MarshalMastra()
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: %s, %v\nwant %s", tt.name, b, err, tt.want)
		}
	}
}
