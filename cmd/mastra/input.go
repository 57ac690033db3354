package main

import "slices"

// splitArgs separates a command's identity arguments from its JSON input
// the way the Mastra CLI does: a last argument that looks like a JSON
// object is the input even when identity arguments are missing (so that
// `tool execute '{"a":1}'` reports the missing <toolId>).
func splitArgs(d *descriptor, args []string) (identity []string, input string) {
	if d.acceptsInput && len(args) > 0 {
		last := args[len(args)-1]
		if len(jsTrimStart(last)) > 0 && jsTrimStart(last)[0] == '{' && len(args) <= len(d.positionals) {
			return args[:len(args)-1], last
		}
	}
	n := min(len(args), len(d.positionals))
	identity = args[:n]
	if d.acceptsInput && len(args) > len(d.positionals) {
		input = args[len(d.positionals)]
	}
	return identity, input
}

// parseInput parses the inline JSON argument, which must be an object.
// It returns nil when the command takes no input or none was given.
func parseInput(d *descriptor, text string) (*jsObject, error) {
	if !d.acceptsInput {
		return nil, nil
	}
	if text == "" {
		if d.inputRequired {
			return nil, newAPIError(codeMissingInput, "Command requires a single inline JSON input argument",
				"command", "mastra api "+d.name)
		}
		return nil, nil
	}
	v, err := parseJSON(decodeUTF8([]byte(text), false))
	if err != nil {
		return nil, newAPIError(codeInvalidJSON, "Input must be valid JSON", "message", err.Error())
	}
	obj, ok := v.(*jsObject)
	if !ok {
		return nil, newAPIError(codeInvalidJSON, "Input JSON must be an object")
	}
	return obj, nil
}

// pathParam is one resolved path parameter.
type pathParam struct{ name, value string }

// resolvePathParams takes the route's path parameters from the identity
// arguments, then (for parameters that are not positional) from string
// fields of the input.
func resolvePathParams(d *descriptor, identity []string, input *jsObject) ([]pathParam, error) {
	var params []pathParam
	for i, name := range d.positionals {
		if i >= len(identity) || identity[i] == "" {
			return nil, missingArgument(name)
		}
		params = append(params, pathParam{name, identity[i]})
	}
	for _, name := range pathParamNames(d.path) {
		if slices.ContainsFunc(params, func(p pathParam) bool { return p.name == name }) {
			continue
		}
		var value string
		if input != nil {
			value, _ = input.lookup(name).(string)
		}
		if value == "" {
			return nil, missingArgument(name)
		}
		params = append(params, pathParam{name, value})
	}
	return params, nil
}

// stripPathParams drops the fields that became path parameters from the
// input, so that ids are not sent twice.
func stripPathParams(input *jsObject, params []pathParam) *jsObject {
	if input == nil {
		return nil
	}
	out := input.clone()
	for _, p := range params {
		out.del(p.name)
	}
	return out
}

// splitInput divides the input between the query string and the body: GET
// sends everything as query parameters; other methods send route query
// parameters (those that are not also body parameters) in the query and the
// rest in the body. `tool execute` and `mcp tool execute` first wrap an input
// without its own data key as {"data": input}.
func splitInput(d *descriptor, input *jsObject) (query, body *jsObject) {
	if input == nil {
		return nil, nil
	}
	if d.method == "GET" {
		return input, nil
	}
	if (d.key == "toolExecute" || d.key == "mcpToolExecute") && !input.has("data") {
		input = objectOf("data", input)
	}
	if len(d.queryParams) == 0 {
		return nil, input
	}
	query, body = newObject(), newObject()
	for _, k := range input.ownKeys() {
		if slices.Contains(d.queryParams, k) && !slices.Contains(d.bodyParams, k) {
			query.set(k, input.vals[k])
		} else {
			body.set(k, input.vals[k])
		}
	}
	if query.len() == 0 {
		query = nil
	}
	if body.len() == 0 {
		body = nil
	}
	return query, body
}
