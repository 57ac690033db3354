package main

import (
	"context"
	"slices"
	"strings"
)

// routeSchemaManifest is the route the CLI reads route schemas from.
var routeSchemaManifest = apiRoute{method: "GET", path: "/system/api-schema", shape: responseShape{kind: "single"}}

// commandSchema is the --schema output: the command's usage, examples and
// input description built from the target server's route manifest (GET
// {prefix}/system/api-schema). For `tool execute` that is the route's
// generic {data, requestContext} body, not the tool's own input schema
// (`tool get` shows that).
func (c *apiConfig) commandSchema(ctx context.Context, d *descriptor, t *apiTarget) (any, error) {
	if !d.acceptsInput {
		return nil, newAPIError(codeSchemaUnavailable, "This command does not accept JSON input")
	}
	manifest, err := c.do(ctx, apiRequest{
		target:    t,
		timeoutMs: t.timeoutMs,
		desc:      &descriptor{key: "schema", method: routeSchemaManifest.method, path: routeSchemaManifest.path},
	})
	if err != nil {
		return nil, err
	}
	routes, ok := property(manifest, "routes").([]any)
	if !ok {
		return nil, newAPIError(codeSchemaUnavailable, "Target server returned an invalid schema manifest",
			"reason", "invalid_manifest")
	}
	for _, r := range routes {
		if r == nil {
			// The Mastra CLI reads candidate.method and so throws on null.
			return nil, unreachable("Cannot read properties of null (reading 'method')")
		}
		if property(r, "method") == d.method && property(r, "path") == d.path {
			return buildRouteSchema(d, r), nil
		}
	}
	return nil, newAPIError(codeSchemaUnavailable, "Target server did not expose a schema for this command",
		"method", d.method, "path", d.path)
}

func buildRouteSchema(d *descriptor, r any) *jsObject {
	pathSchema := property(r, "pathParamSchema")
	querySchema := property(r, "queryParamSchema")
	bodySchema := property(r, "bodySchema")

	source := "body"
	var inputSchema any
	switch {
	case d.method == "GET":
		source, inputSchema = "query", querySchema
	case truthy(querySchema):
		source, inputSchema = "query+body", mergeObjectSchemas(querySchema, bodySchema)
	default:
		inputSchema = mergeObjectSchemas(querySchema, bodySchema)
	}

	var examples []any
	for _, e := range d.allExamples() {
		examples = append(examples, objectOf("description", e.description, "command", e.command))
	}
	if examples == nil {
		examples = []any{}
	}
	return objectOf(
		"command", d.usage(),
		"description", d.description,
		"method", d.method,
		"path", d.path,
		"positionals", positionalSchemas(d, pathSchema),
		"examples", examples,
		"input", objectOf("required", d.inputRequired, "source", source, "schema", inputSchema),
		"schemas", objectOf("pathParams", pathSchema, "query", querySchema, "body", bodySchema),
		"response", objectOf("list", d.list, "shape", d.shape.value(), "schema", property(r, "responseSchema")),
	)
}

// mergeObjectSchemas combines the query and body schemas of a route into one
// object schema (properties of both, required of both, body's
// additionalProperties first).
func mergeObjectSchemas(query, body any) any {
	if !truthy(query) {
		return body
	}
	if !truthy(body) {
		return query
	}
	props := newObject()
	for _, s := range []any{query, body} {
		keys, vals := entries(coalesce(property(s, "properties"), newObject()))
		for i, k := range keys {
			props.set(k, vals[i])
		}
	}
	required := []any{}
	for _, s := range []any{query, body} {
		list, _ := property(s, "required").([]any)
		for _, v := range list {
			if !slices.ContainsFunc(required, func(x any) bool { return sameValueZero(x, v) }) {
				required = append(required, v)
			}
		}
	}
	return objectOf(
		"type", "object",
		"properties", props,
		"required", required,
		"additionalProperties", coalesce(property(body, "additionalProperties"), property(query, "additionalProperties")),
	)
}

// sameValueZero is the equality of a JavaScript Set: primitives by value,
// objects by identity.
func sameValueZero(a, b any) bool {
	switch x := a.(type) {
	case *jsObject:
		y, ok := b.(*jsObject)
		return ok && x == y
	case []any:
		return false // parsed arrays are never the same object
	}
	return a == b
}

func positionalSchemas(d *descriptor, pathSchema any) []any {
	props := coalesce(property(pathSchema, "properties"), newObject())
	required, _ := property(pathSchema, "required").([]any)
	out := []any{}
	for _, name := range d.positionals {
		req := slices.Contains(required, any(name)) || strings.Contains(d.path, ":"+name)
		schema := property(props, name)
		out = append(out, objectOf(
			"name", name,
			"required", req,
			"description", property(schema, "description"),
			"schema", schema,
		))
	}
	return out
}
