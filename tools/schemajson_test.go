package tools_test

import (
	"testing"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

type schemaAnswer struct {
	Confirmed bool `json:"confirmed"`
}

type schemaNested struct {
	N      int    `json:"n" jsonschema:"how many, <at most> 3 & more"`
	Note   string `json:"note,omitempty"`
	Nested struct {
		X bool `json:"x"`
	} `json:"nested"`
}

// TestSchemaJSONIsMastras: the texts are what Mastra 1.71's
// JSON.stringify(standardSchemaToJSONSchema(toStandardSchema(s))) gives
// the equivalent Zod schema or JSON Schema (compat/testdata records the
// first one on a tool-call-suspended chunk).
func TestSchemaJSONIsMastras(t *testing.T) {
	raw, err := schema.FromJSON([]byte(`{"type":"object","required":["confirmed"],"properties":{"confirmed":{"description":"d","type":"boolean"},"n":{"type":"integer","minimum":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		s    schema.Schema
		want string
	}{
		{"a Go type", mustSchema[schemaAnswer](t),
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"confirmed":{"type":"boolean"}},"required":["confirmed"],"additionalProperties":false}`},
		{"nested objects, descriptions, optional fields", mustSchema[schemaNested](t),
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991,"description":"how many, <at most> 3 & more"},"note":{"type":"string"},` +
				`"nested":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false}},"required":["n","nested"],"additionalProperties":false}`},
		{"JSON Schema text: closed, in Zod's order", raw,
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"confirmed":{"type":"boolean","description":"d"},"n":{"type":"integer","minimum":1}},"required":["confirmed"],"additionalProperties":false}`},
		{"no schema", nil, ``},
	} {
		got, err := tools.SchemaJSON(tt.s)
		if err != nil || got != tt.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tt.name, got, err, tt.want)
		}
	}
	tool := tools.New(tools.Config[schemaAnswer, schemaAnswer]{ID: "t", ResumeSchema: mustSchema[schemaAnswer](t),
		Execute: func(_ tools.Context, in schemaAnswer) (schemaAnswer, error) { return in, nil }})
	if got, want := tool.ResumeSchemaJSON(), `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"confirmed":{"type":"boolean"}},"required":["confirmed"],"additionalProperties":false}`; got != want {
		t.Errorf("ResumeSchemaJSON: %s", got)
	}
}

func mustSchema[T any](t *testing.T) schema.Schema {
	t.Helper()
	s, err := schema.For[T]()
	if err != nil {
		t.Fatal(err)
	}
	return s
}
