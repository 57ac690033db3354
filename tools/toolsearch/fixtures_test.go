package toolsearch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/toolsearch"
)

// fixtures is testdata/mastra.json, written by testdata/capture.mjs from
// the real Mastra 1.71 (see the script for what each section holds).
type fixtures struct {
	Meta struct {
		SearchTools       metaFixture `json:"search_tools"`
		LoadTool          metaFixture `json:"load_tool"`
		AutoLoadToolNames []string
	}
	System struct {
		Guidance, GuidanceAutoLoad, Catalog, CatalogAutoLoad string
	}
	Catalogs map[string][]catalogEntry
	Search   []struct {
		Name, Catalog string
		Options       caseOptions
		Query         string
		Output        json.RawMessage
	}
	Load []struct {
		Name, Catalog string
		Options       caseOptions
		StepTools     []string
		Steps         []struct {
			ThreadID *string
			Tools    []string
			System   []string
			Calls    []fixtureCall
		}
	}
	CatalogText []struct {
		Name, Catalog string
		Options       caseOptions
		System        []string
	}
	AgentRuns []agentRunFixture
}

type metaFixture struct {
	ID, Description     string
	DescriptionAutoLoad *string
	InputSchema         json.RawMessage
	OutputSchema        json.RawMessage
}

type catalogEntry struct{ Key, ID, Description string }

type fixtureCall struct {
	Tool          string
	Input, Output json.RawMessage
}

// caseOptions are the processor options of a case, as the capture script
// wrote them.
type caseOptions struct {
	Search *struct {
		TopK     int
		MinScore float64
		AutoLoad bool
	}
	Filter *struct {
		Deny  map[string][]string
		Throw []string
	}
	Storage              string
	IncludeResolvedTools bool
	InjectCatalog        bool
}

type agentRunFixture struct {
	Name          string
	Options       caseOptions
	InjectCatalog bool
	Approval      []string
	Script        []struct {
		Tool string
		Args json.RawMessage
		Text string
	}
	FinishReason string
	ChunkTypes   []string
	Prompts      []struct {
		System []string
		Tools  []struct {
			Name, Description string
			InputSchema       json.RawMessage
		}
		LastToolResults []struct {
			ToolName string
			Output   struct {
				Type  string
				Value json.RawMessage
			}
		}
	}
}

var loadFixtures = sync.OnceValues(func() (*fixtures, error) {
	b, err := os.ReadFile("testdata/mastra.json")
	if err != nil {
		return nil, err
	}
	f := &fixtures{}
	return f, json.Unmarshal(b, f)
})

func mastraFixtures(t testing.TB) *fixtures {
	t.Helper()
	f, err := loadFixtures()
	if err != nil {
		t.Fatalf("fixtures: %v", err)
	}
	return f
}

// catalogueInput is every catalogue tool's input, as in the capture.
type catalogueInput struct {
	Value string `json:"value,omitempty"`
}

// catalogueOutput is every catalogue tool's result: its id and input.
type catalogueOutput struct {
	Ran   string         `json:"ran"`
	Input catalogueInput `json:"input"`
}

// catalogueTool is a fixture catalogue tool.
func catalogueTool(t testing.TB, id, description string, requireApproval bool) *tools.Tool {
	t.Helper()
	tool, err := tools.Build(tools.Config[catalogueInput, catalogueOutput]{
		ID: id, Description: description, RequireApproval: requireApproval,
		Execute: func(_ tools.Context, in catalogueInput) (catalogueOutput, error) {
			return catalogueOutput{Ran: id, Input: in}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// catalogueSet builds a named fixture catalogue; approval lists the keys
// of tools that require approval.
func catalogueSet(t testing.TB, f *fixtures, name string, approval ...string) tools.Set {
	t.Helper()
	entries, ok := f.Catalogs[name]
	if !ok {
		t.Fatalf("no catalogue %q", name)
	}
	set := make(tools.Set, len(entries))
	for _, e := range entries {
		set[e.Key] = catalogueTool(t, e.ID, e.Description, slices.Contains(approval, e.Key))
	}
	return set
}

var errDenied = errors.New("denied")

// options turns a case's options into processor options over catalogue.
func (o caseOptions) options(set tools.Set) toolsearch.Options {
	opts := toolsearch.Options{
		Tools: set, Storage: toolsearch.StorageMode(o.Storage),
		IncludeResolvedTools: o.IncludeResolvedTools, InjectCatalog: o.InjectCatalog,
	}
	if s := o.Search; s != nil {
		opts.Search = toolsearch.SearchOptions{TopK: s.TopK, MinScore: s.MinScore, AutoLoad: s.AutoLoad}
	}
	if spec := o.Filter; spec != nil {
		opts.Filter = func(a toolsearch.FilterArgs) error {
			if slices.Contains(spec.Throw, a.ToolName) {
				panic("filter failed")
			}
			if slices.Contains(spec.Deny[string(a.Phase)], a.ToolName) {
				return errDenied
			}
			return nil
		}
	}
	return opts
}

func newProcessor(t testing.TB, opts toolsearch.Options) *toolsearch.Processor {
	t.Helper()
	p, err := toolsearch.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// find returns the prepared tool of that name.
func find(t testing.TB, prep *toolsearch.Prepared, name string) *tools.Tool {
	t.Helper()
	for _, nt := range prep.Tools {
		if nt.Name == name {
			return nt.Tool
		}
	}
	t.Fatalf("no tool %q among %v", name, names(prep.Tools))
	return nil
}

func names(list []toolsearch.NamedTool) []string {
	out := make([]string, len(list))
	for i, nt := range list {
		out[i] = nt.Name
	}
	return out
}

// execute runs a tool on JSON arguments and returns its output as JSON.
func execute(t testing.TB, tool *tools.Tool, args json.RawMessage, rc *tools.RequestContext) json.RawMessage {
	t.Helper()
	res, err := tool.Execute(context.Background(), args, &tools.Invocation{RequestContext: rc})
	if err != nil {
		t.Fatalf("%s(%s): %v", tool.ID(), args, err)
	}
	out, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameJSON compares two JSON texts token by token: the same values with
// object keys in the same order. Strings are compared decoded, so a lone
// surrogate escape (which JavaScript can write) equals U+FFFD.
func sameJSON(t testing.TB, what string, want, got []byte) {
	t.Helper()
	if diff := cmp.Diff(jsonTokens(t, want), jsonTokens(t, got)); diff != "" {
		t.Errorf("%s (-mastra +go):\n%s\nmastra: %s\ngo:     %s", what, diff, want, got)
	}
}

// sameValue compares two JSON texts as values (key order aside).
func sameValue(t testing.TB, what string, want, got []byte) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-mastra +go):\n%s", what, diff)
	}
}

func jsonTokens(t testing.TB, raw []byte) []any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out []any
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("bad JSON %s: %v", raw, err)
		}
		if d, ok := tok.(json.Delim); ok {
			tok = string(d)
		}
		out = append(out, tok)
	}
}

func rcFor(threadID *string) *tools.RequestContext {
	rc := tools.NewRequestContext(nil)
	if threadID != nil {
		_ = rc.Set(tools.ThreadIDKey, *threadID)
	}
	return rc
}
