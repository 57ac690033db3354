package builtin

// web_fetch's schemas: Mastra's zod schemas as z.toJSONSchema writes them
// (testdata/webfetch/mastra.json holds the captured originals).
const (
	webFetchInputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"url":{"type":"string","minLength":1,"description":"The fully qualified HTTP or HTTPS URL to fetch."}},` +
		`"required":["url"]}`

	webFetchOutputJSON = `{` + draft2020 + `"type":"object","properties":{` +
		`"content":{"type":"string"},"truncated":{"type":"boolean"},"status":{"type":"number"},` +
		`"statusText":{"type":"string"},"contentType":{"type":["string","null"]},"url":{"type":"string"},` +
		`"ok":{"type":"boolean"},"isError":{"type":"boolean"}},` +
		`"required":["content"],"additionalProperties":false}`
)
