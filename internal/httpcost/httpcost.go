// Package httpcost measures what answering one request costs a handler:
// its answer and the bytes allocated meanwhile. It is for tests that
// bound the memory a hostile request can cost (bounds on bytes, never on
// time).
package httpcost

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
)

// Post answers a JSON POST of body to path with h and returns the answer
// and the bytes allocated meanwhile (runtime.MemStats.TotalAlloc, after a
// GC), which include other goroutines' allocations: bound it generously.
func Post(h http.Handler, path, body string) (*httptest.ResponseRecorder, uint64) {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h.ServeHTTP(rec, req)
	runtime.ReadMemStats(&after)
	return rec, after.TotalAlloc - before.TotalAlloc
}
