package toolsearch

import (
	"github.com/gomastra/mastra/schema"
)

// The meta-tools' schemas as Zod's toJSONSchema writes Mastra's (draft
// 2020-12; inputs with io "input", outputs with io "output"), compiled
// with Zod's object semantics. testdata/mastra.json holds the originals.
const (
	draft2020 = `"$schema":"https://json-schema.org/draft/2020-12/schema",`

	searchInputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"query":{"type":"string","description":"Search keywords (e.g., \"weather\", \"github issue\", \"database query\")"}},` +
		`"required":["query"]}`

	searchOutputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"results":{"type":"array","items":{"type":"object","properties":{` +
		`"name":{"type":"string"},"description":{"type":"string"},"score":{"type":"number"}},` +
		`"required":["name","description","score"],"additionalProperties":false}},` +
		`"message":{"type":"string"}},` +
		`"required":["results","message"],"additionalProperties":false}`

	loadInputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"toolName":{"description":"The exact name of a tool to load (from search results)","type":"string"},` +
		`"toolNames":{"description":"Array of exact tool names to load in one call (from search results)","type":"array","items":{"type":"string"}}}}`

	stringArray    = `{"type":"array","items":{"type":"string"}}`
	loadOutputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"success":{"type":"boolean"},"message":{"type":"string"},"loadedCount":{"type":"number"},"toolName":{"type":"string"},` +
		`"loaded":` + stringArray + `,"notFound":` + stringArray + `,"alreadyLoaded":` + stringArray + `},` +
		`"required":["success","message"],"additionalProperties":false}`
)

var (
	searchInputSchema  = mustSchema(searchInputJSON)
	searchOutputSchema = mustSchema(searchOutputJSON)
	loadInputSchema    = mustSchema(loadInputJSON)
	loadOutputSchema   = mustSchema(loadOutputJSON)
)

func mustSchema(src string) *schema.Compiled {
	return schema.MustFromJSON([]byte(src), schema.ZodObjects())
}
