package mcpclient

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// Bounds on the schemas of an untrusted tool catalogue (Mastra's): deeper
// or bigger schemas are not validated against.
const (
	maxSchemaDepth = 128
	maxSchemaNodes = 10_000
)

// draft202012 is the dialect MCP schemas have when they declare none.
const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// toolSchemas are one tool's schemas as the client uses them.
type toolSchemas struct {
	// input validates arguments (a failing schema when too complex).
	input schema.Schema
	// output describes the output schema without validating (the tool's
	// result is often the CallToolResult envelope, which would not match);
	// nil when the server declared none.
	output schema.Schema
	// structured validates structuredContent; nil when there is no output
	// schema or structuredErr says why it cannot be used.
	structured    *schema.Compiled
	structuredErr error
}

// buildSchemas compiles a tool's input and output schemas. An input
// schema that does not compile is an error (the tool is skipped); an output
// schema that does not compile only fails the calls that return
// structuredContent.
func buildSchemas(server, tool string, in, out any) (*toolSchemas, error) {
	ts := &toolSchemas{}
	inMap, err := schemaMap(in)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	if inMap == nil {
		inMap = map[string]any{"type": "object"}
	}
	inMap = withDefaultDialect(inMap)
	if msg := complexityError(inMap); msg != "" {
		js, err := rawJSONSchema(inMap)
		if err != nil {
			return nil, fmt.Errorf("input schema: %w", err)
		}
		ts.input = failingSchema{js: js, message: msg}
	} else if ts.input, err = schema.FromMap(inMap); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}

	outMap, err := schemaMap(out)
	if err != nil || outMap == nil {
		if err != nil {
			ts.structuredErr = fmt.Errorf("output schema: %w", err)
		}
		return ts, nil
	}
	outMap = withDefaultDialect(outMap)
	js, err := rawJSONSchema(outMap)
	if err != nil {
		ts.structuredErr = fmt.Errorf("output schema: %w", err)
		return ts, nil
	}
	ts.output = describedSchema{js: js}
	if msg := complexityError(outMap); msg != "" {
		ts.structuredErr = newMastraError(IDOutputSchemaTooComplex,
			fmt.Sprintf("MCP tool %q has a schema that is too complex: %s", tool, msg),
			map[string]any{"toolName": tool, "serverName": server}, nil)
		return ts, nil
	}
	if ts.structured, err = schema.FromMap(outMap); err != nil {
		ts.structuredErr = fmt.Errorf("mcpclient: tool %q: output schema: %w", tool, err)
	}
	return ts, nil
}

// schemaMap returns a schema the SDK decoded (normally map[string]any) as
// a JSON object; nil for no schema.
func schemaMap(v any) (map[string]any, error) {
	switch s := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return s, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	return m, nil
}

// withDefaultDialect marks a schema without $schema as draft 2020-12, the
// MCP default.
func withDefaultDialect(m map[string]any) map[string]any {
	if _, ok := m["$schema"]; ok {
		return m
	}
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	out["$schema"] = draft202012
	return out
}

func rawJSONSchema(m map[string]any) (*jsonschema.Schema, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(b, &js); err != nil {
		return nil, err
	}
	return &js, nil
}

// Keywords whose values are schemas, walked by complexityError.
var (
	schemaMapKeywords   = []string{"$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies"}
	schemaArrayKeywords = []string{"prefixItems", "allOf", "anyOf", "oneOf", "items"}
	schemaKeywords      = []string{"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems",
		"items", "contains", "propertyNames", "not", "if", "then", "else", "contentSchema"}
)

// complexityError says why a schema is too deep or too big to validate
// against, "" when it is not. Only schema-bearing keywords count, so large
// "default" or "examples" values do not.
func complexityError(root map[string]any) string {
	type item struct {
		v     any
		depth int
	}
	stack := []item{{root, 0}}
	nodes := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		m, ok := it.v.(map[string]any)
		if !ok {
			continue
		}
		nodes++
		if it.depth > maxSchemaDepth {
			return fmt.Sprintf("JSON Schema exceeds the maximum depth of %d", maxSchemaDepth)
		}
		if nodes > maxSchemaNodes {
			return fmt.Sprintf("JSON Schema exceeds the maximum node count of %d", maxSchemaNodes)
		}
		for _, k := range schemaMapKeywords {
			if children, ok := m[k].(map[string]any); ok {
				for _, c := range children {
					stack = append(stack, item{c, it.depth + 1})
				}
			}
		}
		for _, k := range schemaArrayKeywords {
			if children, ok := m[k].([]any); ok {
				for _, c := range children {
					stack = append(stack, item{c, it.depth + 1})
				}
			}
		}
		for _, k := range schemaKeywords {
			if c, ok := m[k]; ok {
				stack = append(stack, item{c, it.depth + 1})
			}
		}
	}
	return ""
}

// describedSchema publishes a JSON Schema without validating anything
// (Mastra's no-op output validator for MCP tools). It reports every value
// valid and unchanged, so the tools package keeps the tool's Go result.
type describedSchema struct{ js *jsonschema.Schema }

func (d describedSchema) JSONSchema() *jsonschema.Schema                    { return d.js }
func (d describedSchema) Validate(v any) (any, []schema.Issue)              { return v, nil }
func (d describedSchema) ValidateChanged(v any) (any, bool, []schema.Issue) { return v, false, nil }
func (d describedSchema) ValidJSON([]byte) bool                             { return true }

// failingSchema rejects every value with one message (a schema too complex
// to validate against).
type failingSchema struct {
	js      *jsonschema.Schema
	message string
}

func (f failingSchema) JSONSchema() *jsonschema.Schema { return f.js }
func (f failingSchema) Validate(any) (any, []schema.Issue) {
	return nil, []schema.Issue{{Code: "custom", Message: f.message}}
}

// footerLimit is Mastra's validation-message footer length, in UTF-16 code
// units.
const footerLimit = 200

// outputValidationError is the ValidationError Mastra's validateToolOutput
// returns for structuredContent that does not match the output schema:
// header naming the tool, one "- <path>: <message>" line per issue, and
// the returned value (JSON, indented, cut at 200 characters).
func outputValidationError(tool string, issues []schema.Issue, value any) *tools.ValidationError {
	var b strings.Builder
	b.WriteString("Tool output validation failed for " + tool + ". The tool returned invalid output:\n")
	b.WriteString(tools.IssueList(issues))
	shown, more := schema.CapIssues(issues)
	b.WriteString("\n\nReturned output: ")
	b.WriteString(footer(value))
	return &tools.ValidationError{Message: b.String(), Errors: fieldErrors(shown), Issues: shown, Truncated: more}
}

func footer(v any) string {
	const unserializable = "[Unable to serialize data]"
	raw, err := json.Marshal(v)
	if err != nil {
		return unserializable
	}
	s, err := jsjson.StringifyPrefix(raw, "  ", 4*footerLimit+4)
	if err != nil {
		return unserializable
	}
	if cut, truncated := jsjson.TruncateUTF16(s, footerLimit); truncated {
		return cut + "... (truncated)"
	}
	return s
}

// fieldErrors is the {errors, fields} tree of issues.
func fieldErrors(issues []schema.Issue) tools.FieldErrors {
	root := tools.FieldErrors{Errors: []string{}}
	for _, is := range issues {
		cur := &root
		for _, seg := range is.Path {
			next := cur.Field(seg)
			if next == nil {
				next = &tools.FieldErrors{}
				cur.Fields = append(cur.Fields, tools.FieldEntry{Key: seg, Errors: next})
			}
			cur = next
		}
		cur.Errors = append(cur.Errors, is.Message)
	}
	return root
}
