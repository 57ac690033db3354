package mcpserver

import (
	_ "embed"
	"encoding/json"
	"regexp"
)

// apiSchemaJSON holds Mastra 1.71's route catalogue entries for the MCP
// routes (cut, byte for byte, from the catalogue a Mastra 1.71 server
// answers at GET /api/system/api-schema), so that the API server's
// /system/api-schema lists them and `mastra api mcp … --schema` works.
//
//go:embed apischema.json
var apiSchemaJSON []byte

// routeSchemas are those entries by "METHOD /mastra/path".
var routeSchemas = func() map[string]json.RawMessage {
	var entries []json.RawMessage
	if err := json.Unmarshal(apiSchemaJSON, &entries); err != nil {
		panic("mcpserver: apischema.json: " + err.Error())
	}
	m := make(map[string]json.RawMessage, len(entries))
	for _, e := range entries {
		var head struct{ Method, Path string }
		if err := json.Unmarshal(e, &head); err != nil {
			panic("mcpserver: apischema.json: " + err.Error())
		}
		m[head.Method+" "+head.Path] = e
	}
	return m
}()

var muxParam = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// routeSchema is the catalogue entry of a route given in ServeMux form
// ("/mcp/{serverId}/tools"), or nil for routes Mastra's catalogue does
// not list (the transport).
func routeSchema(method, muxPath string) json.RawMessage {
	return routeSchemas[method+" "+muxParam.ReplaceAllString(muxPath, ":$1")]
}
