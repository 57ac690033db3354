// Package mastratest holds what the tests of several packages share to
// compare gomastra's JSON with Mastra's recorded answers: Normalise, which
// drops what differs between two runs of one conversation, and
// AlignGenerateOutput, which removes from Mastra's generate output what
// gomastra's agent documents it does not produce. It is for tests only.
package mastratest

import "maps"

// Normalise drops what differs between two runs of the same conversation
// from v, a value decoded by encoding/json into any (maps, slices,
// scalars): in every object the keys runId, messageId and startedAt, and a
// providerOptions or providerMetadata that holds nothing but Mastra's
// {"mastra": {"createdAt": ...}} stamp. Each extra function is called on
// every object too, after those deletions and before its values are
// normalised. Normalise changes v in place and returns it.
func Normalise(v any, extra ...func(map[string]any)) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range []string{"runId", "messageId", "startedAt"} {
			delete(x, k)
		}
		for _, f := range extra {
			f(x)
		}
		for _, k := range []string{"providerOptions", "providerMetadata"} {
			if m, ok := x[k].(map[string]any); ok {
				if mm, ok := m["mastra"].(map[string]any); ok && len(m) == 1 && len(mm) == 1 && mm["createdAt"] != nil {
					delete(x, k)
				}
			}
		}
		for k, e := range x {
			x[k] = Normalise(e, extra...)
		}
	case []any:
		for i := range x {
			x[i] = Normalise(x[i], extra...)
		}
	}
	return v
}

// AlignGenerateOutput removes from want, Mastra's generate FullOutput as
// decoded by encoding/json, what gomastra's agent does not produce (see
// agent/shape_test.go): the messages in memory's formats (messages,
// rememberedMessages, response.dbMessages and uiMessages, and those of
// each step's response) and the steps' static/dynamic tool-call filters.
// Mastra's generate route empties or drops parts of each step's response
// that gomastra keeps; stepResponse's entries are set in every step's
// response instead.
func AlignGenerateOutput(want map[string]any, stepResponse map[string]any) {
	delete(want, "messages")
	delete(want, "rememberedMessages")
	resp := want["response"].(map[string]any)
	delete(resp, "dbMessages")
	delete(resp, "uiMessages")
	for _, st := range want["steps"].([]any) {
		step := st.(map[string]any)
		for _, k := range []string{"staticToolCalls", "dynamicToolCalls", "staticToolResults", "dynamicToolResults"} {
			delete(step, k)
		}
		r := step["response"].(map[string]any)
		delete(r, "dbMessages")
		delete(r, "uiMessages")
		maps.Copy(r, stepResponse)
	}
}
