package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
)

// JSON Schema dialects Mastra's MCP server declares: tools' own schemas
// are advertised as 2020-12 (the dialect MCP 2026-07-28 assumes), the
// agent and workflow tools as draft-07 (their schemas pass through
// Mastra's tool builder first).
const (
	draft202012 = "https://json-schema.org/draft/2020-12/schema"
	draft07     = "http://json-schema.org/draft-07/schema#"
)

// emptyObjectSchema is what a tool without an input schema advertises.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// renderSchema renders s as JSON Schema with "$schema": dialect first
// (kept if s names its own dialect) and every node's keywords in the
// order Zod writes them. A nil s renders as nil.
func renderSchema(s schema.Schema, dialect string) (json.RawMessage, error) {
	if s == nil || s.JSONSchema() == nil {
		return nil, nil
	}
	raw, err := compat.Marshal(s.JSONSchema())
	if err != nil {
		return nil, fmt.Errorf("mcpserver: render schema: %w", err)
	}
	return orderSchema(raw, dialect)
}

// orderSchema rewrites a JSON Schema text with "$schema": dialect first
// (when dialect is not empty and the schema has none), "properties": {}
// on a top-level object schema without properties, and keywords in Zod's
// order, rendered as JSON.stringify renders it.
func orderSchema(raw []byte, dialect string) (json.RawMessage, error) {
	v, err := decodeOrdered(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*wire.Object)
	if !ok { // the true/false schema
		return raw, nil
	}
	if dialect != "" && !obj.Has("$schema") {
		obj.Prepend("$schema", dialect)
	}
	if t, _ := obj.Get("type"); t == "object" && !obj.Has("properties") {
		// Zod writes the properties of every object, even none.
		obj.Set("properties", &wire.Object{})
	}
	wire.SortSchema(obj)
	return obj.AppendJS(nil), nil
}

// formSchema is a schema as an input-request form: no "$schema" (forms
// are a restricted flat subset of JSON Schema and carry no dialect).
func formSchema(raw []byte) (*wire.Object, error) {
	v, err := decodeOrdered(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*wire.Object)
	if !ok {
		return nil, fmt.Errorf("mcpserver: a form schema must be an object")
	}
	obj.Delete("$schema")
	wire.SortSchema(obj)
	return obj, nil
}

// decodeOrdered decodes JSON as JSON.parse does (a repeated key keeps its
// first place and its last value), keeping object member order: objects
// become *wire.Object, arrays []any, numbers json.Number (their text
// kept).
func decodeOrdered(raw []byte) (any, error) {
	v, err := wire.Decode(bytes.TrimSpace(raw), wire.LastWins)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: decode JSON: %w", err)
	}
	return v, nil
}
