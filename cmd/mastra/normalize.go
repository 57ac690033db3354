package main

import "strings"

// normalizeResponse prepares a response body for printing as the Mastra
// CLI does: under every schema-like key (one ending in "schema", or
// "parameters", case-insensitive) a string holding JSON is parsed, a
// superjson {"json": ...} wrapper is unwrapped and "$schema" keys are
// removed, so `tool get` shows the input schema as a JSON Schema object.
// key is the property the value sits under ("" at the top); meta says that
// the value is inside schema metadata.
func normalizeResponse(v any, key string, meta bool) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalizeResponse(e, key, meta)
		}
		return out
	case *jsObject:
		out := newObject()
		for _, k := range t.ownKeys() {
			if meta && k == "$schema" {
				continue
			}
			out.set(k, normalizeResponse(t.vals[k], k, meta || isSchemaField(k)))
		}
		if isSchemaField(key) && out.len() == 1 && out.has("json") {
			return out.vals["json"]
		}
		return out
	case string:
		if isSchemaField(key) {
			return parseSchemaString(t, key)
		}
	}
	return v
}

// isSchemaField matches /(^schema$|schema$|^parameters$)/i (ASCII case
// folding, as a JavaScript regular expression without the u flag does).
func isSchemaField(key string) bool {
	lower := asciiLower(key)
	return strings.HasSuffix(lower, "schema") || lower == "parameters"
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func parseSchemaString(s, key string) any {
	trimmed := jsTrimSpace(s)
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') {
		return s
	}
	parsed, err := parseJSON(trimmed)
	if err != nil {
		return s
	}
	return normalizeResponse(parsed, key, true)
}

// normalizeData applies a command's own reshaping of its response.
func normalizeData(d *descriptor, data any) any {
	switch {
	case d.key == "agentRun":
		return agentRunDigest(data)
	case d.key == "toolGet":
		return toolWithInputSchemaFirst(data)
	case strings.HasPrefix(d.key, "workflowRun"):
		return normalizeWorkflowStatus(data)
	}
	return data
}

// toolWithInputSchemaFirst is {inputSchema: t.inputSchema ?? t.parameters
// ?? t.input, ...t}: the tool with its input schema as the first field.
func toolWithInputSchemaFirst(data any) any {
	if !isObject(data) {
		return data
	}
	out := objectOf("inputSchema", coalesce(property(data, "inputSchema"), property(data, "parameters"), property(data, "input")))
	keys, vals := entries(data)
	for i, k := range keys {
		out.set(k, vals[i])
	}
	return out
}
