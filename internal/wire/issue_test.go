package wire

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

func TestWriteJSONAndAppendError(t *testing.T) {
	w := httptest.NewRecorder()
	WriteJSON(w, http.StatusBadRequest, AppendError(nil, "Invalid request body", []Issue{{Field: "root", Message: "Invalid input: expected object, received <array>"}}, StringifyGo))
	want := `{"error":"Invalid request body","issues":[{"field":"root","message":"Invalid input: expected object, received <array>"}]}`
	if w.Code != 400 || w.Body.String() != want || w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("%d %v %s", w.Code, w.Header(), w.Body)
	}
	if got := string(AppendError(nil, "x", nil, StringifyReplaced)); got != `{"error":"x"}` {
		t.Errorf("no issues: %s", got)
	}
	if got := string(AppendError(nil, "x", []Issue{}, StringifyGo)); got != `{"error":"x","issues":[]}` {
		t.Errorf("empty issues: %s", got)
	}
}
