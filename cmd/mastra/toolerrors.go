package main

// `mastra api agent run --show-tool-errors`: the Mastra CLI's digest of a
// generate response keeps toolCalls and toolResults, and a failed call is
// in neither (its toolResults entry is missing), so without the flag a
// tool's error is printed nowhere. The flag adds "toolErrors" to the
// digest; without it the output is the Mastra CLI's, byte for byte.

// showToolErrorsFlag names the flag, without its dashes.
const showToolErrorsFlag = "show-tool-errors"

// showToolErrorsUsage is the flag's usage text; the flag is left out of
// `agent run --help`, which stays the Mastra CLI's.
const showToolErrorsUsage = "also print the failed tool calls (toolErrors: tool name, call id, input and error)"

// toolErrorKeys are the members of a toolErrors entry, in order.
var toolErrorKeys = []string{"type", "toolCallId", "toolName", "input", "error"}

// toolErrors lists the failed tool calls of a generate response, in step
// order, each as {"type":"tool-error","toolCallId","toolName","input","error"}
// (members the response lacks are left out). A step's content reports a
// failure in one of two shapes:
//
//   - a "tool-result" part whose output is {"type":"error-text"|"error-json",
//     "value":v} (what Mastra's server sends): error is v;
//   - a "tool-error" part (the AI SDK's step content): its members as sent.
//
// A call id reported more than once is listed once. The result is never
// nil: a response without steps or failures gives an empty list.
func toolErrors(response any) []any {
	out := []any{}
	seen := map[string]bool{}
	steps, _ := property(response, "steps").([]any)
	for _, step := range steps {
		parts, _ := property(step, "content").([]any)
		for _, part := range parts {
			entry := toolErrorEntry(part)
			if entry == nil {
				continue
			}
			if id, ok := entry.lookup("toolCallId").(string); ok {
				if seen[id] {
					continue
				}
				seen[id] = true
			}
			out = append(out, entry)
		}
	}
	return out
}

// toolErrorEntry is the toolErrors entry for one step content part, or nil
// when the part reports no failure.
func toolErrorEntry(part any) *jsObject {
	var errValue any
	switch property(part, "type") {
	case "tool-error":
		errValue = property(part, "error")
	case "tool-result":
		output := property(part, "output")
		switch property(output, "type") {
		case "error-text", "error-json":
			errValue = property(output, "value")
		default:
			return nil
		}
	default:
		return nil
	}
	entry := objectOf("type", "tool-error")
	for _, k := range toolErrorKeys[1:] {
		v := property(part, k)
		if k == "error" {
			v = errValue
		}
		if v != undefined {
			entry.set(k, v)
		}
	}
	return entry
}

// withToolErrors returns the agent run digest with "toolErrors" (the
// failed calls of response, see toolErrors) right after "toolResults", or
// last when the digest has no toolResults. A digest that is not a plain
// object is returned as it is.
func withToolErrors(digest, response any) any {
	d, ok := digest.(*jsObject)
	if !ok {
		return digest
	}
	errs := toolErrors(response)
	if !d.has("toolResults") {
		out := d.clone()
		out.set("toolErrors", errs)
		return out
	}
	out := newObject()
	for _, k := range d.ownKeys() {
		out.set(k, d.lookup(k))
		if k == "toolResults" {
			out.set("toolErrors", errs)
		}
	}
	return out
}
