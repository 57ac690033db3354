// Package zodmsg writes the validation messages Zod 4 writes, which
// Mastra's HTTP API answers with ("Invalid input: expected string,
// received number"), for the packages that check request bodies the way
// Mastra's Zod schemas do (server, server/aisdk, mcpserver).
package zodmsg

import (
	"bytes"
	"encoding/json"
)

// TypeOf is Zod's name for the type of a JSON value: "string",
// "number", "boolean", "object", "array", "null", or "undefined" when
// there is no value at all.
func TypeOf(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "undefined"
	}
	switch t[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// Expected is Zod's message for a value of the wrong type.
func Expected(want string, raw json.RawMessage) string {
	return "Invalid input: expected " + want + ", received " + TypeOf(raw)
}
