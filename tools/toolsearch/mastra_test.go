package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/toolsearch"
)

func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The meta-tools have Mastra's ids, descriptions and schemas, and models
// are given Mastra's draft-07 conversion of them.
func TestMastraMetaTools(t *testing.T) {
	f := mastraFixtures(t)
	set := catalogueSet(t, f, "small")
	plain, err := newProcessor(t, toolsearch.Options{Tools: set}).Prepare(context.Background(), toolsearch.Step{})
	if err != nil {
		t.Fatal(err)
	}
	auto, err := newProcessor(t, toolsearch.Options{Tools: set, Search: toolsearch.SearchOptions{AutoLoad: true}}).
		Prepare(context.Background(), toolsearch.Step{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(f.Meta.AutoLoadToolNames, names(auto.Tools)); diff != "" {
		t.Errorf("autoLoad tools (-mastra +go):\n%s", diff)
	}
	for _, c := range []struct {
		want           metaFixture
		tool, autoTool *tools.Tool
	}{
		{f.Meta.SearchTools, find(t, plain, "search_tools"), find(t, auto, "search_tools")},
		{f.Meta.LoadTool, find(t, plain, "load_tool"), nil},
	} {
		if c.tool.ID() != c.want.ID || c.tool.Description() != c.want.Description {
			t.Errorf("%s: id/description %q %q", c.want.ID, c.tool.ID(), c.tool.Description())
		}
		if c.autoTool != nil && (c.want.DescriptionAutoLoad == nil || c.autoTool.Description() != *c.want.DescriptionAutoLoad) {
			t.Errorf("%s: autoLoad description %q", c.want.ID, c.autoTool.Description())
		}
		// jsonschema.Schema marshals its keys in its own order: compare
		// values, as for the model-facing schema below (its key order is the
		// compat layer's concern).
		sameValue(t, c.want.ID+" input schema", c.want.InputSchema, jsonOf(t, c.tool.InputSchema().JSONSchema()))
		sameValue(t, c.want.ID+" output schema", c.want.OutputSchema, jsonOf(t, c.tool.OutputSchema().JSONSchema()))
	}
	// What a model is given (from the first prompt of a captured run).
	run := f.AgentRuns[0]
	for _, want := range run.Prompts[0].Tools[:2] {
		tool := find(t, plain, want.Name)
		if tool.Description() != want.Description {
			t.Errorf("%s: model description differs", want.Name)
		}
		got, err := compat.Marshal(tool.ModelSchema(compat.Model{Provider: "mock", ModelID: "m"}).Schema)
		if err != nil {
			t.Fatal(err)
		}
		sameValue(t, want.Name+" model schema", want.InputSchema, got)
	}
}

func TestMastraSystemMessages(t *testing.T) {
	f := mastraFixtures(t)
	set := catalogueSet(t, f, "small")
	for _, c := range []struct {
		name string
		opts toolsearch.Options
		want []string
	}{
		{"plain", toolsearch.Options{Tools: set}, []string{f.System.Guidance}},
		{"autoLoad", toolsearch.Options{Tools: set, Search: toolsearch.SearchOptions{AutoLoad: true}}, []string{f.System.GuidanceAutoLoad}},
		{"catalog", toolsearch.Options{Tools: set, InjectCatalog: true}, []string{f.System.Guidance, f.System.Catalog}},
		{"catalog autoLoad", toolsearch.Options{Tools: set, InjectCatalog: true, Search: toolsearch.SearchOptions{AutoLoad: true}},
			[]string{f.System.GuidanceAutoLoad, f.System.CatalogAutoLoad}},
	} {
		prep, err := newProcessor(t, c.opts).Prepare(context.Background(), toolsearch.Step{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, prep.System); diff != "" {
			t.Errorf("%s (-mastra +go):\n%s", c.name, diff)
		}
	}
}

func TestMastraCatalogText(t *testing.T) {
	f := mastraFixtures(t)
	for _, c := range f.CatalogText {
		opts := c.Options.options(catalogueSet(t, f, c.Catalog))
		opts.InjectCatalog = true
		prep, err := newProcessor(t, opts).Prepare(context.Background(), toolsearch.Step{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.System, prep.System); diff != "" {
			t.Errorf("%s (-mastra +go):\n%s", c.Name, diff)
		}
	}
}

// search_tools returns what Mastra's returned: the same tools, order,
// truncated descriptions, scores to 2 decimals and messages, over small,
// Unicode and 1,000-tool catalogues, with topK, minScore, filters and
// autoLoad.
func TestMastraSearch(t *testing.T) {
	f := mastraFixtures(t)
	for _, c := range f.Search {
		p := newProcessor(t, c.Options.options(catalogueSet(t, f, c.Catalog)))
		prep, err := p.Prepare(context.Background(), toolsearch.Step{})
		if err != nil {
			t.Fatal(err)
		}
		args := jsonOf(t, map[string]string{"query": c.Query})
		got := execute(t, find(t, prep, "search_tools"), args, nil)
		sameJSON(t, c.Name, c.Output, got)
	}
}

// Sequences of load_tool and search_tools calls on one processor across
// steps and threads give Mastra's results, and each step offers Mastra's
// tools in Mastra's order.
func TestMastraLoadSequences(t *testing.T) {
	f := mastraFixtures(t)
	for _, c := range f.Load {
		t.Run(c.Name, func(t *testing.T) {
			p := newProcessor(t, c.Options.options(catalogueSet(t, f, c.Catalog)))
			stepTools := resolvedStepTools(t, c.StepTools)
			for i, s := range c.Steps {
				rc := rcFor(s.ThreadID)
				prep, err := p.Prepare(context.Background(), toolsearch.Step{RequestContext: rc, Tools: stepTools})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(s.Tools, names(prep.Tools)); diff != "" {
					t.Errorf("step %d tools (-mastra +go):\n%s", i, diff)
				}
				if diff := cmp.Diff(s.System, prep.System); diff != "" {
					t.Errorf("step %d system (-mastra +go):\n%s", i, diff)
				}
				for j, call := range s.Calls {
					got := execute(t, find(t, prep, call.Tool), call.Input, rc)
					sameJSON(t, fmt.Sprintf("step %d call %d %s(%s)", i, j, call.Tool, call.Input), call.Output, got)
				}
			}
		})
	}
}

// resolvedStepTools are the capture's request-resolved tools, for the
// keys it lists (in its order).
func resolvedStepTools(t testing.TB, keys []string) []toolsearch.NamedTool {
	t.Helper()
	all := map[string]*tools.Tool{
		"search_tools": emptyTool(t, "my_search", "user search tool"),
		"resolvedCrm":  emptyTool(t, "crm_lookup", "Look up a CRM contact"),
		"weather":      emptyTool(t, "weather_override", "Resolved weather"),
	}
	var out []toolsearch.NamedTool
	for _, k := range keys {
		out = append(out, toolsearch.NamedTool{Name: k, Tool: all[k]})
	}
	return out
}

func emptyTool(t testing.TB, id, description string) *tools.Tool {
	t.Helper()
	tool, err := tools.Build(tools.Config[struct{}, map[string]any]{
		ID: id, Description: description,
		Execute: func(tools.Context, struct{}) (map[string]any, error) { return map[string]any{}, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}
