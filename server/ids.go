package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
)

// idParams are the query and path parameters that hold an id the storage
// is asked for.
var idParams = []string{"runId", "threadId", "resourceId"}

// invalidPath is the 400 for path parameters that fail their rule.
func invalidPath(issues ...wire.Issue) *httpError {
	return &httpError{status: http.StatusBadRequest, msg: "Invalid path parameters", issues: issues}
}

// checkQueryIDs refuses a request whose query holds an id no storage may
// hold (storage.CheckID): 400 "Invalid query parameters" naming it.
func checkQueryIDs(r *http.Request) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	q := r.URL.Query()
	var issues wire.Issues
	for _, k := range idParams {
		if is := wire.IDIssue(k, q.Get(k)); is != nil {
			issues.Add(is.Field, is.Message)
		}
	}
	if len(issues) > 0 {
		return invalidQuery(issues...)
	}
	return nil
}

// checkPathIDs wraps h, the handler of pattern, so that an id path
// parameter ({runId}) no storage may hold is 400 "Invalid path
// parameters" naming it.
func (s *Server) checkPathIDs(pattern string, h http.HandlerFunc) http.HandlerFunc {
	var names []string
	for _, seg := range strings.Split(pattern, "/") {
		if p, ok := strings.CutPrefix(seg, "{"); ok && slices.Contains(idParams, strings.TrimSuffix(p, "}")) {
			names = append(names, strings.TrimSuffix(p, "}"))
		}
	}
	if len(names) == 0 {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		for _, name := range names {
			if is := wire.IDIssue(name, r.PathValue(name)); is != nil {
				s.writeError(w, r, invalidPath(*is))
				return
			}
		}
		h(w, r)
	}
}
