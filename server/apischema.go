package server

import (
	"bytes"
	_ "embed"
	"net/http"

	"github.com/gomastra/mastra/internal/wire"
)

// apiSchemaJSON is the route catalogue GET /system/api-schema answers
// with: {"version":1,"routes":[...]}, one entry per JSON route this
// server serves, each exactly as Mastra 1.71's own catalogue describes
// it (copied, in its order, from the catalogue a Mastra 1.71 server
// answers). Like Mastra's, it lists only routes that answer JSON: the
// streaming routes (agents' stream, resume-stream, approve-tool-call,
// decline-tool-call; workflows' stream and resume-stream) are not in it.
// The CLI's --schema output is built from it.
//
//go:embed apischema.json
var apiSchemaJSON []byte

// apiSchemaWith is the catalogue with the custom routes' own entries
// (Route.Schema) after the built-in ones.
func apiSchemaWith(routes []Route) []byte {
	var extra [][]byte
	for _, rt := range routes {
		if len(rt.Schema) > 0 {
			extra = append(extra, rt.Schema)
		}
	}
	if len(extra) == 0 {
		return apiSchemaJSON
	}
	// apiSchemaJSON ends with the routes array's "]}".
	b := append([]byte(nil), bytes.TrimRight(apiSchemaJSON, "\n")...)
	b = b[:len(b)-2]
	for _, e := range extra {
		b = append(append(b, ','), e...)
	}
	return append(b, "]}"...)
}

// GET /system/api-schema.
func (s *Server) apiSchema(w http.ResponseWriter, _ *http.Request) {
	wire.WriteJSON(w, http.StatusOK, s.schema)
}
