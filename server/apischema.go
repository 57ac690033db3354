package server

import (
	_ "embed"
	"net/http"
)

// apiSchemaJSON is the route catalogue GET /system/api-schema answers
// with: {"version":1,"routes":[...]}, one entry per JSON route this
// server serves, each exactly as Mastra 1.71's own catalogue describes
// it (copied from the recorded spec/http/system-api-schema.json, in its
// order). Like Mastra's, it lists only routes that answer JSON: the
// streaming routes (agents' stream, resume-stream, approve-tool-call,
// decline-tool-call; workflows' stream and resume-stream) are not in it.
// The CLI's --schema output is built from it.
//
//go:embed apischema.json
var apiSchemaJSON []byte

// GET /system/api-schema.
func (s *Server) apiSchema(w http.ResponseWriter, _ *http.Request) {
	writeRawJSON(w, http.StatusOK, apiSchemaJSON)
}
