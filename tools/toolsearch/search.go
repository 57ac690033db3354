package toolsearch

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/tools"
)

// Boosts added to a result's BM25 score for each query term: the term is
// the whole lowercased tool name, or a substring of it.
const (
	exactNameBoost     = 5
	substringNameBoost = 2
)

// Description truncation in search results and the injected catalogue.
const (
	maxDescriptionUnits = 150
	truncatedUnits      = 147
)

// SearchResult is one search_tools result.
type SearchResult struct {
	// Name is the tool's id: what load_tool takes.
	Name string `json:"name"`
	// Description is at most 150 UTF-16 code units: a longer one is cut
	// to 147 and "..." added.
	Description string `json:"description"`
	// Score is the boosted BM25 score rounded to 2 decimals.
	Score float64 `json:"score"`
}

// search ranks the catalogue for query as Mastra does: BM25 over
// "<id> <description>", the best topK*2 hits (all hits when a filter is
// set) boosted by name match, re-sorted, then, best first, those scoring
// above MinScore that exist by id and pass the filter, at most TopK.
func (p *Processor) search(ctx context.Context, c *catalog, query string, rc *tools.RequestContext) []SearchResult {
	if c.index.size() == 0 {
		return nil
	}
	limit := p.topK * 2
	if p.filter != nil {
		limit = c.index.size()
	}
	terms := tokenize(query)
	hits := c.index.search(terms, limit)
	if len(hits) == 0 {
		return nil
	}
	for i := range hits {
		name := jsLower(c.index.names[hits[i].doc])
		for _, term := range terms {
			if name == term {
				hits[i].score += exactNameBoost
			} else if strings.Contains(name, term) {
				hits[i].score += substringNameBoost
			}
		}
	}
	slices.SortStableFunc(hits, byScoreDesc)
	var out []SearchResult
	for _, h := range hits {
		if h.score <= p.minScore {
			continue
		}
		name := c.index.names[h.doc]
		t := c.byID[name]
		if t == nil || !p.allowed(ctx, t, rc, PhaseSearch) {
			continue
		}
		out = append(out, SearchResult{Name: name, Description: truncateDescription(c.descriptions[name]), Score: round2(h.score)})
		if len(out) >= p.topK {
			break
		}
	}
	return out
}

// round2 is JavaScript's Math.round(x*100)/100: halves round up.
func round2(x float64) float64 {
	v := x * 100
	r := math.Floor(v)
	if v-r >= 0.5 {
		r++
	}
	return r / 100
}

// truncateDescription cuts a description longer than 150 UTF-16 code
// units to its first 147 and adds "...". Where the cut falls inside a
// surrogate pair, JavaScript keeps a lone high surrogate, which a Go
// string cannot hold: it becomes U+FFFD, as it does when Go decodes
// JavaScript's JSON of it.
func truncateDescription(s string) string {
	if len(s) <= maxDescriptionUnits || jsjson.UTF16Len(s) <= maxDescriptionUnits {
		return s
	}
	cut, _ := jsjson.TruncateUTF16(s, truncatedUnits)
	return cut + "..."
}
