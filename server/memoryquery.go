package server

import (
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/gomastra/mastra/internal/wire"
)

// pageQuery is a memory list's paging: page numbers count from 0; a
// perPage of 0 is Mastra's perPage=false (everything on one page).
type pageQuery struct {
	Page, PerPage int
	// Descending orders by createdAt (or updatedAt, ByUpdated), newest
	// first.
	Descending, ByUpdated bool
}

// readPageQuery reads ?page=&perPage= with Mastra's defaults (page 0,
// perPage defaultPerPage) and the order (orderBy as JSON, or as
// orderBy[field]= and orderBy[direction]=, defaulting to createdAt and
// defaultDesc). A value that is not a page number fails with Mastra's
// "Invalid query parameters".
func readPageQuery(q url.Values, defaultPerPage int, defaultDesc bool) (pageQuery, error) {
	p := pageQuery{PerPage: defaultPerPage, Descending: defaultDesc}
	var issues wire.Issues
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			issues.Add("page", "Invalid input: expected a non-negative integer")
		}
		p.Page = n
	}
	switch v := q.Get("perPage"); v {
	case "":
	case "false":
		p.PerPage = 0
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			issues.Add("perPage", "Invalid input: expected a positive integer or false")
		}
		p.PerPage = n
	}
	field, direction := q.Get("orderBy[field]"), q.Get("orderBy[direction]")
	if raw := q.Get("orderBy"); raw != "" {
		var o struct{ Field, Direction string }
		if json.Unmarshal([]byte(raw), &o) == nil {
			field, direction = o.Field, o.Direction
		}
	}
	switch field {
	case "", "createdAt":
	case "updatedAt":
		p.ByUpdated = true
	default:
		issues.Add("orderBy.field", `Invalid option: expected one of "createdAt"|"updatedAt"`)
	}
	switch direction {
	case "":
	case "ASC":
		p.Descending = false
	case "DESC":
		p.Descending = true
	default:
		issues.Add("orderBy.direction", `Invalid option: expected one of "ASC"|"DESC"`)
	}
	if len(issues) > 0 {
		return p, invalidQuery(issues...)
	}
	return p, nil
}

// window is the [start, end) of p's page in a list of n items, and
// whether items follow it.
func (p pageQuery) window(n int) (start, end int, hasMore bool) {
	if p.PerPage == 0 {
		return 0, n, false
	}
	start = min(p.Page*p.PerPage, n)
	end = min(start+p.PerPage, n)
	return start, end, end < n
}

// perPageJSON is perPage as Mastra answers it: a number, or false.
func (p pageQuery) perPageJSON() any {
	if p.PerPage == 0 {
		return false
	}
	return p.PerPage
}
