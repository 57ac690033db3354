package compat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

func TestSelect(t *testing.T) {
	tests := []struct {
		provider, model string
		want            string
	}{
		// OpenAI reasoning: o1/o3/o4 and "openai" in provider or model id.
		{"openai.chat", "o3-mini", NameOpenAIReasoning},
		{"openai.responses", "o1", NameOpenAIReasoning},
		{"openai.chat", "o4-mini", NameOpenAIReasoning},
		{"openrouter", "openai/o3", NameOpenAIReasoning},
		{"azure", "openai-o1-preview", NameOpenAIReasoning},
		// OpenAI.
		{"openai.chat", "gpt-4o", NameOpenAI},
		{"openai.responses", "gpt-4.1-mini", NameOpenAI},
		{"openrouter", "openai/gpt-4o-mini", NameOpenAI},
		{"groq.chat", "llama-3.3-70b-versatile", NameOpenAI},
		{"groq.chat", "deepseek-r1-distill-llama-70b", NameOpenAI}, // first match wins
		{"groq.chat", "o3-like", ""},                               // reasoning id: not OpenAI, and groq is not reasoning
		{"openai.chat", "o1-gemini-claude", NameOpenAIReasoning},
		// Google.
		{"google.generative-ai", "gemini-2.5-pro", NameGoogle},
		{"google.vertex.chat", "gemini-2.0-flash", NameGoogle},
		{"openrouter", "google/gemini-2.5-flash", NameGoogle},
		{"openrouter", "google/gemma-3-27b-it", NameGoogle},
		{"custom", "gemini-1.5-pro", NameGoogle},
		{"google.vertex.anthropic.messages", "claude-sonnet-4", NameAnthropic}, // claude beats google
		{"custom", "gemini", ""},                                               // "gemini" without "-" matches nothing
		// Anthropic.
		{"anthropic.messages", "claude-3-5-sonnet-20241022", NameAnthropic},
		{"openrouter", "anthropic/claude-3.5-haiku", NameAnthropic},
		{"bedrock", "us.anthropic.claude-3-7-sonnet", NameAnthropic},
		// DeepSeek.
		{"deepseek.chat", "deepseek-chat", NameDeepSeek},
		{"openrouter", "deepseek/deepseek-v3", NameDeepSeek},
		{"deepseek.chat", "deepseek-r1", ""},
		{"openrouter", "deepseek/deepseek-r1-0528", ""},
		// Meta.
		{"openrouter", "meta-llama/llama-3.1-8b-instruct", NameMeta},
		{"together", "meta-llama-3-70b", NameMeta},
		// None.
		{"mistral.chat", "mistral-large-latest", ""},
		{"xai.chat", "grok-3", ""},
		{"", "", ""},
		{"OpenAI", "GPT-4O", ""}, // case-sensitive, as in Mastra
	}
	for _, tt := range tests {
		t.Run(tt.provider+"/"+tt.model, func(t *testing.T) {
			m := Model{Provider: tt.provider, ModelID: tt.model}
			got := ""
			if l := Select(m); l != nil {
				got = l.Name()
			}
			if got != tt.want {
				t.Errorf("Select = %q, want %q", got, tt.want)
			}
			// Select is the first layer whose ShouldApply is true.
			for _, l := range Layers() {
				if l.ShouldApply(m) {
					if l.Name() != got {
						t.Errorf("first applicable layer is %q", l.Name())
					}
					break
				}
			}
			_, name := Apply(&jsonschema.Schema{Type: "object"}, m)
			if name != tt.want {
				t.Errorf("Apply reports %q, want %q", name, tt.want)
			}
		})
	}
}

func TestLayerPredicates(t *testing.T) {
	// Each predicate on its own (not just the first match).
	tests := []struct {
		l     Layer
		m     Model
		apply bool
	}{
		{OpenAILayer{}, Model{Provider: "openai.chat", ModelID: "o3"}, false},
		{OpenAILayer{}, Model{Provider: "x", ModelID: "openai/gpt-4o"}, true},
		{OpenAIReasoningLayer{}, Model{Provider: "groq.chat", ModelID: "o3"}, false},
		{OpenAIReasoningLayer{}, Model{Provider: "openai.chat", ModelID: "gpt-4o"}, false},
		{GoogleLayer{}, Model{Provider: "google", ModelID: "claude-3"}, false},
		{GoogleLayer{}, Model{Provider: "x", ModelID: "my-google-model"}, true},
		{AnthropicLayer{}, Model{Provider: "anthropic", ModelID: "sonnet"}, false},
		{DeepSeekLayer{}, Model{ModelID: "deepseek-coder"}, true},
		{DeepSeekLayer{}, Model{ModelID: "deepseek-r1"}, false},
		{MetaLayer{}, Model{ModelID: "llama-3"}, false},
		{MetaLayer{}, Model{ModelID: "metamorph"}, true},
	}
	for _, tt := range tests {
		if got := tt.l.ShouldApply(tt.m); got != tt.apply {
			t.Errorf("%s.ShouldApply(%+v) = %v", tt.l.Name(), tt.m, got)
		}
	}
}

func TestLayersOrder(t *testing.T) {
	var names []string
	for _, l := range Layers() {
		names = append(names, l.Name())
	}
	want := []string{NameOpenAIReasoning, NameOpenAI, NameGoogle, NameAnthropic, NameDeepSeek, NameMeta}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Error(diff)
	}
}

func TestApplyNil(t *testing.T) {
	for _, m := range []Model{{}, {Provider: "openai", ModelID: "gpt-4o"}} {
		if s, name := Apply(nil, m); s != nil || name != "" {
			t.Errorf("Apply(nil) = %v, %q", s, name)
		}
	}
	for _, l := range Layers() {
		if l.Process(nil) != nil {
			t.Errorf("%s.Process(nil) != nil", l.Name())
		}
	}
	if Draft07(nil) != nil || RestoreOptional(nil, 1) != 1 || ValidationSchema(nil, Model{}) != nil {
		t.Error("nil handling")
	}
}

// rewriteCases are representative rewrites, written out. Every expectation
// was checked against @mastra/schema-compat 1.3.11 (they are among the
// records of testdata/mastra_golden.json too).
var rewriteCases = []struct {
	name  string
	layer Layer // nil: Apply with no layer
	in    string
	want  string
}{
	{
		name: "no layer: draft-07 with objects closed, nothing else",
		in:   `{"type":"object","properties":{"a":{"type":"string","minLength":2},"o":{"type":"object","properties":{"x":{"type":"integer","minimum":0}}}},"required":["a"]}`,
		want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string","minLength":2},"o":{"type":"object","properties":{"x":{"type":"integer","minimum":0}},"additionalProperties":false}},"required":["a"],"additionalProperties":false}`,
	},
	{
		name:  "openai: nested optional objects",
		layer: OpenAILayer{},
		in:    `{"type":"object","properties":{"user":{"type":"object","properties":{"name":{"type":"string"},"nick":{"type":"string"}},"required":["name"]}}}`,
		want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"required":["user"],"x-optional":["user"],
			"properties":{"user":{"anyOf":[{"type":"object","additionalProperties":false,"required":["name","nick"],"x-optional":["nick"],
				"properties":{"name":{"type":"string"},"nick":{"anyOf":[{"type":"string"},{"type":"null"}]}}},{"type":"null"}]}}}`,
	},
	{
		name:  "openai: arrays with item limits, formats and patterns",
		layer: OpenAILayer{},
		in:    `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","format":"email"},"minItems":1,"maxItems":1},"host":{"type":"string","format":"hostname"},"site":{"type":"string","format":"uri"},"code":{"type":"string","pattern":"^[A-Z]{3}$"}},"required":["tags","host","site","code"]}`,
		want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"required":["tags","host","site","code"],"properties":{
			"tags":{"type":"array","description":"constraints: exact length 1","items":{"type":"string","description":"constraints: a valid email"}},
			"host":{"type":"string","format":"hostname"},
			"site":{"type":"string"},
			"code":{"type":"string","description":"constraints: input must match this regex ^[A-Z]{3}$"}}}`,
	},
	{
		name:  "openai: optional type array and enum gain null",
		layer: OpenAILayer{},
		in:    `{"type":"object","properties":{"n":{"type":["integer","string"],"enum":[1,"a"]},"k":{"type":"string","const":"x"}}}`,
		want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"required":["n","k"],"x-optional":["n","k"],"properties":{
			"n":{"enum":[1,"a",null],"anyOf":[{"type":"integer"},{"type":"string"},{"type":"null"}]},
			"k":{"anyOf":[{"type":"string","const":"x"},{"type":"null"}]}}}`,
	},
	{
		name:  "google: nullable collapse, numbers in the description, non-string enum removed",
		layer: GoogleLayer{},
		in:    `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"type":["number","null"],"minimum":0,"maximum":1},"c":{"type":"integer","enum":[1,2]},"d":{"const":"x"},"e":{}},"required":["a"],"additionalProperties":false}`,
		want: `{"type":"object","required":["a"],"properties":{
			"a":{"type":"string","nullable":true},
			"b":{"type":"number","nullable":true,"description":"constraints: greater than or equal to 0, lower than or equal to 1"},
			"c":{"type":"integer"},
			"d":{"enum":["x"]},
			"e":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"integer"},{"type":"boolean"},{"type":"object"},{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"integer"},{"type":"boolean"},{"type":"object"}]}}]}}}`,
	},
	{
		name:  "google: $ref inlined, recursion unrolled once, definitions dropped",
		layer: GoogleLayer{},
		in:    `{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#"}},"home":{"$ref":"#/definitions/Addr"}},"required":["name"],"definitions":{"Addr":{"type":"object","properties":{"street":{"type":"string"}}}}}`,
		want: `{"type":"object","required":["name"],"properties":{
			"name":{"type":"string"},
			"home":{"type":"object","properties":{"street":{"type":"string"}}},
			"kids":{"type":"array","items":{"type":"object","required":["name"],"properties":{
				"name":{"type":"string"},
				"home":{"type":"object","properties":{"street":{"type":"string"}}},
				"kids":{"type":"array","items":{"type":"object"}}}}}}}`,
	},
	{
		name:  "anthropic: root union of objects merged",
		layer: AnthropicLayer{},
		in:    `{"anyOf":[{"type":"object","properties":{"kind":{"type":"string","const":"a"},"x":{"type":"string"}},"required":["kind","x"]},{"type":"object","properties":{"kind":{"type":"string","const":"b"},"x":{"type":"string"}},"required":["kind"]}]}`,
		want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"required":["kind"],"properties":{
			"kind":{"anyOf":[{"type":"string","const":"a"},{"type":"string","const":"b"}]},
			"x":{"type":"string"}}}`,
	},
	{
		name:  "deepseek: common rewriting only; allOf merged",
		layer: DeepSeekLayer{},
		in:    `{"allOf":[{"type":"object","properties":{"a":{"type":"string","maxLength":3}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number","exclusiveMinimum":0}}}],"description":"both"}`,
		want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","description":"both","additionalProperties":false,"required":["a"],"properties":{
			"a":{"type":"string","description":"constraints: maximum length 3"},
			"b":{"type":"number","description":"constraints: greater than 0"}}}`,
	},
	{
		name:  "meta: anyOf branches normalised",
		layer: MetaLayer{},
		in:    `{"type":"object","properties":{"v":{"anyOf":[{"type":"string","minLength":1,"pattern":"^a"},{"type":"null"}]}},"required":["v"]}`,
		want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"required":["v"],"properties":{
			"v":{"anyOf":[{"type":"string","description":"constraints: minimum length 1\nconstraints: input must match this regex ^a"},{"type":"null"}]}}}`,
	},
}

func TestRewrites(t *testing.T) {
	for _, tt := range rewriteCases {
		t.Run(tt.name, func(t *testing.T) {
			in := mustSchema(t, []byte(tt.in))
			var got *jsonschema.Schema
			if tt.layer == nil {
				var name string
				got, name = Apply(in, Model{Provider: "mistral", ModelID: "mistral-large"})
				if name != "" {
					t.Fatalf("layer %q applied", name)
				}
			} else {
				got = tt.layer.Process(in)
			}
			if diff := cmp.Diff(decode(t, []byte(tt.want)), render(t, got)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// richSchema exercises every keyword position, shared sub-schemas and Extra.
func richSchema() *jsonschema.Schema {
	min, max := 1.0, 10.0
	shared := &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(2), Format: "email"}
	c := any(map[string]any{"k": []any{1.0, "x"}})
	return &jsonschema.Schema{
		Schema: "https://json-schema.org/draft/2020-12/schema",
		Type:   "object",
		Properties: map[string]*jsonschema.Schema{
			"a":    shared,
			"b":    shared,
			"n":    {Types: []string{"null", "integer"}, Minimum: &min, Maximum: &max},
			"arr":  {Type: "array", PrefixItems: []*jsonschema.Schema{{Type: "string"}}, Items: &jsonschema.Schema{Type: "number"}, MinItems: jsonschema.Ptr(1)},
			"u":    {AnyOf: []*jsonschema.Schema{{Type: "string", Pattern: "^a"}, {Type: "null"}, {}}},
			"o":    {OneOf: []*jsonschema.Schema{{Ref: "#/$defs/D"}, {Type: "boolean"}}},
			"all":  {AllOf: []*jsonschema.Schema{{Properties: map[string]*jsonschema.Schema{"z": {Type: "string"}}}}},
			"c":    {Const: &c, Extra: map[string]any{"x-meta": map[string]any{"deep": []any{"v"}}}},
			"any":  {},
			"rec":  {Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "integer"}, PropertyNames: &jsonschema.Schema{Pattern: "^k"}},
			"e":    {Enum: []any{1.0, "two", nil}},
			"self": {Ref: "#"},
		},
		Required:         []string{"a"},
		DependentSchemas: map[string]*jsonschema.Schema{"a": {Required: []string{"b"}}},
		Defs: map[string]*jsonschema.Schema{
			"D": {Type: "object", Properties: map[string]*jsonschema.Schema{"next": {Ref: "#/$defs/D"}, "v": {Type: "string"}}},
		},
		Extra:         map[string]any{"x-root": []any{map[string]any{"a": 1.0}}},
		PropertyOrder: []string{"n", "a"},
	}
}

// TestInputsNeverModified runs every entry point on inputs and compares them
// with an independent copy afterwards.
func TestInputsNeverModified(t *testing.T) {
	inputs := map[string]func() *jsonschema.Schema{"rich": richSchema}
	for _, c := range loadGolden(t) {
		raw := c.Input
		inputs[c.Name] = func() *jsonschema.Schema { return mustSchema(t, raw) }
	}
	type entry struct {
		name string
		run  func(*jsonschema.Schema)
	}
	var entries []entry
	for _, l := range Layers() {
		entries = append(entries, entry{l.Name(), func(s *jsonschema.Schema) { l.Process(s) }})
	}
	entries = append(entries,
		entry{"apply-none", func(s *jsonschema.Schema) { Apply(s, Model{}) }},
		entry{"draft07", func(s *jsonschema.Schema) { Draft07(s) }},
		entry{"validation-haiku", func(s *jsonschema.Schema) { ValidationSchema(s, Model{ModelID: "claude-3.5-haiku"}) }},
		entry{"restore", func(s *jsonschema.Schema) {
			RestoreOptional(s, map[string]any{"a": nil, "b": []any{nil}})
		}},
		entry{"marshal", func(s *jsonschema.Schema) { Marshal(s) }},
	)
	for name, mk := range inputs {
		for _, e := range entries {
			in, want := mk(), mk()
			e.run(in)
			if diff := cmp.Diff(want, in); diff != "" {
				t.Errorf("%s modified input %s:\n%s", e.name, name, diff)
			}
		}
	}
}

// TestResultsIndependent checks that a result shares nothing with its input:
// rewriting the result again (in place) leaves the input alone.
func TestResultsIndependent(t *testing.T) {
	in, want := richSchema(), richSchema()
	for _, l := range Layers() {
		out := l.Process(in)
		walk(openAIRules{}, out) // mutate the result heavily
		walk(googleRules{}, out)
	}
	out := Draft07(in)
	walk(openAIRules{}, out)
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("input changed through a result:\n%s", diff)
	}
}

func TestRichSchemaAllLayers(t *testing.T) {
	// Every layer copes with every keyword position and emits a schema
	// jsonschema.Schema itself can marshal and resolve.
	for _, l := range append(Layers(), nil) {
		var out *jsonschema.Schema
		if l == nil {
			out, _ = Apply(richSchema(), Model{})
		} else {
			out = l.Process(richSchema())
		}
		if _, err := json.Marshal(out); err != nil {
			t.Errorf("%v: json.Marshal: %v", l, err)
		}
		if _, err := Marshal(out); err != nil {
			t.Errorf("%v: Marshal: %v", l, err)
		}
		if out.Schema != Draft07URI && (l == nil || l.Name() != NameGoogle) {
			t.Errorf("%v: $schema %q", l, out.Schema)
		}
	}
}

func TestPointerCycle(t *testing.T) {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	s.Properties["self"] = s
	s.Properties["list"] = &jsonschema.Schema{Type: "array", Items: s}
	for _, l := range Layers() {
		out := l.Process(s)
		if _, err := Marshal(out); err != nil {
			t.Errorf("%s: %v", l.Name(), err)
		}
	}
	d := Draft07(s)
	if got := d.Properties["self"]; got == nil || got.Properties != nil {
		t.Errorf("cycle not cut: %+v", got)
	}
	if got := d.Properties["list"].Items; got == nil || got.Properties != nil {
		t.Errorf("cycle not cut: %+v", got)
	}
}

func TestDeepAndWideSchemas(t *testing.T) {
	const depth = 5000
	deep := &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1)}
	for i := range depth {
		if i%2 == 0 {
			deep = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"p": deep}}
		} else {
			deep = &jsonschema.Schema{Type: "array", Items: deep, MaxItems: jsonschema.Ptr(3)}
		}
	}
	wide := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for i := range 10000 {
		wide.Properties[fmt.Sprintf("p%05d", i)] = &jsonschema.Schema{Types: []string{"string", "null"}, MaxLength: jsonschema.Ptr(i)}
	}
	for _, s := range []*jsonschema.Schema{deep, wide} {
		for _, l := range Layers() {
			start := time.Now()
			out := l.Process(s)
			if out == nil {
				t.Fatal("nil result")
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("%s took %v", l.Name(), d)
			}
		}
	}
	out := OpenAILayer{}.Process(wide)
	if n := len(optionalList(out)); n != 10000 {
		t.Errorf("x-optional has %d names", n)
	}
}

func TestDeepAnyOfChain(t *testing.T) {
	// Mastra re-processes anyOf branches after their children; a long chain
	// must stay polynomial.
	s := &jsonschema.Schema{Type: "string"}
	for range 200 {
		s = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, {Type: "null"}}}
	}
	root := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"v": s}}
	for _, l := range Layers() {
		start := time.Now()
		l.Process(root)
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s took %v", l.Name(), d)
		}
	}
}

func TestGoogleInlineBudget(t *testing.T) {
	// D0 → D1 → ... → D39, each referencing the next twice: full inlining
	// would copy 2^40 nodes.
	defs := map[string]*jsonschema.Schema{}
	const n = 40
	for i := range n {
		next := fmt.Sprintf("#/definitions/D%d", i+1)
		if i == n-1 {
			defs[fmt.Sprintf("D%d", i)] = &jsonschema.Schema{Type: "string"}
			continue
		}
		defs[fmt.Sprintf("D%d", i)] = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"l": {Ref: next}, "r": {Ref: next},
		}}
	}
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"root": {Ref: "#/definitions/D0"}}, Definitions: defs}
	start := time.Now()
	out := GoogleLayer{}.Process(s)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	b, err := Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"$ref"`) || strings.Contains(string(b), "definitions") {
		t.Error("references or definitions left")
	}
	if len(b) > 100<<20 {
		t.Errorf("output of %d bytes", len(b))
	}
}

func TestValidationSchema(t *testing.T) {
	orig := mustSchema(t, []byte(`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":5,"pattern":"^a"},"l":{"type":"array","items":{"type":["string","null"],"maxLength":1}}}}`))
	for _, m := range []Model{{Provider: "anthropic", ModelID: "claude-3-5-sonnet"}, {Provider: "openai", ModelID: "gpt-4o"}, {}} {
		if got := ValidationSchema(orig, m); got != orig {
			t.Errorf("%+v: want the original", m)
		}
	}
	got := ValidationSchema(orig, Model{Provider: "anthropic", ModelID: "claude-3.5-haiku-20241022"})
	want := `{"type":"object","properties":{"s":{"type":"string","pattern":"^a"},"l":{"type":"array","items":{"type":["string","null"]}}}}`
	if diff := cmp.Diff(decode(t, []byte(want)), render(t, got)); diff != "" {
		t.Error(diff)
	}
	// openai "claude-3.5-haiku" model ids via an OpenAI provider select OpenAI: untouched.
	if got := ValidationSchema(orig, Model{Provider: "openai", ModelID: "claude-3.5-haiku"}); got != orig {
		t.Error("only the Anthropic layer strips")
	}
}

func TestJSNumber(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", 1: "1", -3: "-3", 1.5: "1.5", 0.1: "0.1", 1e21: "1e+21", 1.5e22: "1.5e+22", 1e20: "100000000000000000000",
		1e-6: "0.000001", 1e-7: "1e-7", -2.5e-8: "-2.5e-8", 123456789.125: "123456789.125", 9007199254740993: "9007199254740992",
	} {
		if got := jsNumber(f); got != want {
			t.Errorf("jsNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestMarshal(t *testing.T) {
	s := &jsonschema.Schema{
		Type:          "object",
		Properties:    map[string]*jsonschema.Schema{"z": {}, "a": {Not: &jsonschema.Schema{}}, "m": {Required: []string{}, Enum: []any{}}},
		PropertyOrder: []string{"z"},
		AnyOf:         []*jsonschema.Schema{},
		Required:      []string{},
		Extra:         map[string]any{"x-optional": []string{"z"}},
	}
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","x-optional":["z"],"properties":{"z":{},"a":false,"m":{"enum":[],"required":[]}},"required":[],"anyOf":[]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if b, _ := Marshal(nil); string(b) != "null" {
		t.Errorf("nil: %s", b)
	}
	if b, _ := Marshal(&jsonschema.Schema{}); string(b) != "{}" {
		t.Errorf("empty: %s", b)
	}
	// Whatever Marshal writes decodes to the same schema.
	for _, c := range loadGolden(t) {
		for _, l := range Layers() {
			out := l.Process(mustSchema(t, c.Input))
			b, err := Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			var back jsonschema.Schema
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			b2, _ := json.Marshal(&back)
			b3, _ := json.Marshal(out)
			if diff := cmp.Diff(decode(t, b3), decode(t, b2)); diff != "" {
				t.Errorf("%s/%s: round trip:\n%s", c.Name, l.Name(), diff)
			}
		}
	}
}

// TestCloneCompleteness fills every field of jsonschema.Schema and checks
// that clone copies all of them without sharing anything mutable, so that a
// new field in a future jsonschema-go is noticed.
func TestCloneCompleteness(t *testing.T) {
	s := &jsonschema.Schema{}
	fill(reflect.ValueOf(s).Elem(), 2)
	c := clone(s)
	if diff := cmp.Diff(s, c); diff != "" {
		t.Fatalf("clone differs:\n%s", diff)
	}
	checkNoSharing(t, reflect.ValueOf(s).Elem(), reflect.ValueOf(c).Elem(), "Schema")
}

var schemaType = reflect.TypeFor[jsonschema.Schema]()

func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), depth)
		}
	case reflect.Pointer:
		if v.Type().Elem() == schemaType && depth == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		if v.Type().Elem() == schemaType {
			fill(p.Elem(), depth-1)
		} else {
			fill(p.Elem(), depth)
		}
		v.Set(p)
	case reflect.Slice:
		if v.Type().Elem() == reflect.TypeFor[*jsonschema.Schema]() && depth == 0 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth)
		v.Set(s)
	case reflect.Map:
		if v.Type().Elem() == reflect.TypeFor[*jsonschema.Schema]() && depth == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(k, depth)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, depth)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"k": []any{"v"}}))
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(3)
	case reflect.Uint8:
		v.SetUint('1')
	case reflect.Float64:
		v.SetFloat(1.5)
	}
}

func checkNoSharing(t *testing.T, a, b reflect.Value, path string) {
	t.Helper()
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			checkNoSharing(t, a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)
		}
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if a.IsNil() {
			return
		}
		if a.Kind() != reflect.Slice && a.UnsafePointer() == b.UnsafePointer() {
			t.Errorf("%s is shared", path)
		}
		if a.Kind() == reflect.Slice && a.Len() > 0 && a.Index(0).Addr().UnsafePointer() == b.Index(0).Addr().UnsafePointer() {
			t.Errorf("%s is shared", path)
		}
		switch a.Kind() {
		case reflect.Pointer:
			checkNoSharing(t, a.Elem(), b.Elem(), path)
		case reflect.Slice:
			for i := range a.Len() {
				checkNoSharing(t, a.Index(i), b.Index(i), path+"[]")
			}
		case reflect.Map:
			for _, k := range a.MapKeys() {
				checkNoSharing(t, a.MapIndex(k), b.MapIndex(k), path+"[k]")
			}
		}
	case reflect.Interface:
		if !a.IsNil() {
			checkNoSharing(t, a.Elem(), b.Elem(), path)
		}
	}
}

func TestNilSubSchemas(t *testing.T) {
	s := &jsonschema.Schema{
		Type:        "object",
		Properties:  map[string]*jsonschema.Schema{"a": nil, "b": {AnyOf: []*jsonschema.Schema{nil, {Type: "null"}}}, "c": {AllOf: []*jsonschema.Schema{nil}}},
		AnyOf:       []*jsonschema.Schema{nil},
		OneOf:       []*jsonschema.Schema{nil, {Type: "object"}},
		ItemsArray:  []*jsonschema.Schema{nil},
		Definitions: map[string]*jsonschema.Schema{"N": nil},
		Not:         &jsonschema.Schema{Ref: "#/definitions/N"},
	}
	for _, l := range Layers() {
		out := l.Process(s)
		if _, err := Marshal(out); err != nil {
			t.Errorf("%s: %v", l.Name(), err)
		}
		RestoreOptional(out, map[string]any{"a": nil, "b": nil, "c": map[string]any{}})
	}
	ValidationSchema(s, Model{ModelID: "claude-3.5-haiku"})
}
