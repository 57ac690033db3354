package wire

import (
	"net/http"
	"strconv"
)

// WriteJSON answers with status and body, a JSON text, under the headers
// of Mastra's JSON answers (Content-Type application/json and the
// Content-Length).
func WriteJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
