package toolsearch

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/gomastra/mastra/tools"
)

// generatedCatalogue is testdata/mastra.json's 1,000 synthetic tools (the
// capture script generates them; Mastra's scores on them are fixtures).
func generatedCatalogue(b *testing.B) tools.Set {
	b.Helper()
	raw, err := os.ReadFile("testdata/mastra.json")
	if err != nil {
		b.Fatal(err)
	}
	var f struct {
		Catalogs map[string][]struct{ Key, ID, Description string }
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		b.Fatal(err)
	}
	set := tools.Set{}
	for _, e := range f.Catalogs["generated"] {
		set[e.Key] = tools.New(tools.Config[struct{}, string]{
			ID: e.ID, Description: e.Description,
			Execute: func(tools.Context, struct{}) (string, error) { return "", nil },
		})
	}
	if len(set) != 1000 {
		b.Fatalf("generated catalogue has %d tools", len(set))
	}
	return set
}

var benchQueries = []string{
	"github issue", "create invoice stripe", "send slack message", "webhook audit log",
	"list the records of the team workspace with pagination and filters", "weather_get_issue",
}

// BenchmarkSearchTools measures search_tools over a 1,000-tool catalogue:
// building the index (New), ranking a query, and a whole search_tools
// call (input validation, ranking, result, output validation).
func BenchmarkSearchTools(b *testing.B) {
	set := generatedCatalogue(b)
	b.Run("index-1000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := New(Options{Tools: set}); err != nil {
				b.Fatal(err)
			}
		}
	})
	p, err := New(Options{Tools: set})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	rc := tools.NewRequestContext(nil)
	b.Run("query-1000", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if len(p.search(ctx, p.static, benchQueries[i%len(benchQueries)], rc)) == 0 {
				b.Fatal("no results")
			}
			i++
		}
	})
	prep, err := p.Prepare(ctx, Step{})
	if err != nil {
		b.Fatal(err)
	}
	search := prep.Tools[0].Tool
	args := make([]json.RawMessage, len(benchQueries))
	for i, q := range benchQueries {
		args[i], _ = json.Marshal(SearchInput{Query: q})
	}
	b.Run("search_tools-call-1000", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := search.Execute(ctx, args[i%len(args)], nil); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("prepare-step", func(b *testing.B) {
		b.ReportAllocs()
		step := Step{ThreadID: "t"}
		for b.Loop() {
			if _, err := p.Prepare(ctx, step); err != nil {
				b.Fatal(err)
			}
		}
	})
}
