package compat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDraft07(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "defs and refs",
			in:   `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"$ref":"#/$defs/A"},"b":{"$ref":"#/$defs/A/properties/$defs"},"c":{"$ref":"#"},"d":{"$ref":"other.json#/$defs/X"},"e":{"$ref":"#anchor"}},"$defs":{"A":{"type":"object","properties":{"$defs":{"type":"string"}},"$defs":{"In":{"type":"integer"}}},"B":{"$ref":"#/$defs/A/$defs/In"}}}`,
			want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"$ref":"#/definitions/A"},"b":{"$ref":"#/definitions/A/properties/$defs"},"c":{"$ref":"#"},"d":{"$ref":"other.json#/$defs/X"},"e":{"$ref":"#anchor"}},"definitions":{"A":{"type":"object","properties":{"$defs":{"type":"string"}},"definitions":{"In":{"type":"integer"}}},"B":{"$ref":"#/definitions/A/definitions/In"}}}`,
		},
		{
			name: "definitions already there win",
			in:   `{"definitions":{"A":{"type":"string"}},"$defs":{"A":{"type":"integer"},"B":{"type":"boolean"}}}`,
			want: `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"A":{"type":"string"},"B":{"type":"boolean"}}}`,
		},
		{
			name: "tuples",
			in:   `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"properties":{"t":{"prefixItems":[{"type":"string"}]},"r":{"$ref":"#/prefixItems/1"}}}`,
			want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":[{"type":"string"},{"type":"number"}],"additionalItems":false,"properties":{"t":{"items":[{"type":"string"}]},"r":{"$ref":"#/items/1"}}}`,
		},
		{
			name: "draft-07 input stays",
			in:   `{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":[{"type":"string"}],"additionalItems":{"type":"number"},"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
			want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":[{"type":"string"}],"additionalItems":{"type":"number"},"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
		},
		{
			name: "dependencies",
			in:   `{"dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"required":["d"]},"x":{"$ref":"#/dependentSchemas/c"}}}`,
			want: `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"],"c":{"required":["d"]},"x":{"$ref":"#/dependencies/c"}}}`,
		},
		{
			name: "nothing else changes",
			in:   `{"type":"object","properties":{"a":{"type":"string","minLength":1,"format":"email"}},"required":[],"x-custom":{"k":1},"unevaluatedProperties":false}`,
			want: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string","minLength":1,"format":"email"}},"required":[],"x-custom":{"k":1},"unevaluatedProperties":false}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := mustSchema(t, []byte(tt.in))
			before, err := Marshal(in) // in may hold both $defs and definitions
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, Draft07(in))
			if diff := cmp.Diff(decode(t, []byte(tt.want)), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			after, _ := Marshal(in)
			if diff := cmp.Diff(string(before), string(after)); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
}

func TestDraft07Ref(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   "",
		"#":                                  "#",
		"#/$defs/A":                          "#/definitions/A",
		"#/$defs/$defs":                      "#/definitions/$defs",
		"#/$defs/A/$defs/B/properties/$defs": "#/definitions/A/definitions/B/properties/$defs",
		"#/properties/$defs/items/0":         "#/properties/$defs/items/0",
		"#/properties/x/prefixItems/0":       "#/properties/x/items/0",
		"#/allOf/0/$defs/Z":                  "#/allOf/0/definitions/Z",
		"#/items/$defs/Z":                    "#/items/definitions/Z",
		"x.json#/$defs/A":                    "x.json#/$defs/A",
	} {
		if got := draft07Ref(in); got != want {
			t.Errorf("draft07Ref(%q) = %q, want %q", in, got, want)
		}
	}
}
