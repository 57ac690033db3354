package schema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gomastra/mastra/schema"
)

type color string

// propertyJSON infers the schema of the struct type of v and returns the
// JSON of its property name and its required list.
func propertyJSON(t *testing.T, v any, name string) (string, []string) {
	t.Helper()
	c, err := schema.ForType(reflect.TypeOf(v))
	if err != nil {
		t.Fatalf("%T: %v", v, err)
	}
	js := c.JSONSchema()
	b, err := json.Marshal(js.Properties[name])
	if err != nil {
		t.Fatal(err)
	}
	return string(b), js.Required
}

const safe = "9007199254740991"

// TestTagKeywordsWriteJSONSchema: each keyword on the types it fits, and
// the property schema a model is served.
func TestTagKeywordsWriteJSONSchema(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"minimum on int", struct {
			F int `json:"f" schema:"minimum=1"`
		}{}, `{"type":"integer","minimum":1,"maximum":` + safe + `}`},
		{"maximum on int8 keeps its lower bound", struct {
			F int8 `json:"f" schema:"maximum=100"`
		}{}, `{"type":"integer","minimum":-128,"maximum":100}`},
		{"minimum and maximum on float", struct {
			F float64 `json:"f" schema:"minimum=-1.5,maximum=2.5"`
		}{}, `{"type":"number","minimum":-1.5,"maximum":2.5}`},
		{"exclusiveMinimum replaces the inferred minimum", struct {
			F uint `json:"f" schema:"exclusiveMinimum=0"`
		}{}, `{"type":"integer","maximum":` + safe + `,"exclusiveMinimum":0}`},
		{"exclusiveMaximum", struct {
			F float32 `json:"f" schema:"exclusiveMaximum=1"`
		}{}, `{"type":"number","exclusiveMaximum":1}`},
		{"multipleOf", struct {
			F float64 `json:"f" schema:"multipleOf=0.5"`
		}{}, `{"type":"number","multipleOf":0.5}`},
		{"minLength and maxLength", struct {
			F string `json:"f" schema:"minLength=2, maxLength=5"`
		}{}, `{"type":"string","minLength":2,"maxLength":5}`},
		{"pattern keeps a regexp backslash", struct {
			F string `json:"f" schema:"pattern=^\\d{3}$"`
		}{}, `{"type":"string","pattern":"^\\d{3}$"}`},
		{"format", struct {
			F string `json:"f" schema:"format=email"`
		}{}, `{"type":"string","format":"email"}`},
		{"enum of strings", struct {
			F string `json:"f" schema:"enum=red|green|blue"`
		}{}, `{"type":"string","enum":["red","green","blue"]}`},
		{"enum on a named string type", struct {
			F color `json:"f" schema:"enum=red|green"`
		}{}, `{"type":"string","enum":["red","green"]}`},
		{"enum of numbers is JSON", struct {
			F int `json:"f" schema:"enum=1|2|3"`
		}{}, `{"type":"integer","enum":[1,2,3],"minimum":-` + safe + `,"maximum":` + safe + `}`},
		{"const", struct {
			F string `json:"f" schema:"const=v1"`
		}{}, `{"type":"string","const":"v1"}`},
		{"const of a bool", struct {
			F bool `json:"f" schema:"const=true"`
		}{}, `{"type":"boolean","const":true}`},
		{"default string", struct {
			F string `json:"f" schema:"default=red"`
		}{}, `{"type":"string","default":"red"}`},
		{"default number", struct {
			F int `json:"f" schema:"default=3"`
		}{}, `{"type":"integer","default":3,"minimum":-` + safe + `,"maximum":` + safe + `}`},
		{"default array with an escaped comma", struct {
			F []int `json:"f" schema:"default=[1\\,2]"`
		}{}, `{"type":"array","items":{"type":"integer","minimum":-` + safe + `,"maximum":` + safe + `},"default":[1,2]}`},
		{"minItems and maxItems", struct {
			F []string `json:"f" schema:"minItems=1,maxItems=3"`
		}{}, `{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}`},
		{"description", struct {
			F string `json:"f" schema:"description=what to order"`
		}{}, `{"type":"string","description":"what to order"}`},
		{"items.", struct {
			F []string `json:"f" schema:"items.enum=a|b,items.minLength=1,minItems=1"`
		}{}, `{"type":"array","items":{"type":"string","enum":["a","b"],"minLength":1},"minItems":1}`},
		{"items.items.", struct {
			F [][]float64 `json:"f" schema:"items.items.minimum=0,items.maxItems=2"`
		}{}, `{"type":"array","items":{"type":"array","items":{"type":"number","minimum":0},"maxItems":2}}`},
		{"escapes", struct {
			F string `json:"f" schema:"enum=a\\,b|c\\|d|e\\\\|f\\g"`
		}{}, `{"type":"string","enum":["a,b","c|d","e\\","f\\g"]}`},
		{"nullable enum allows null", struct {
			F *string `json:"f" schema:"enum=a|b"`
		}{}, `{"type":["null","string"],"enum":["a","b",null]}`},
		{"nullable const is an enum with null", struct {
			F *int `json:"f" schema:"const=7"`
		}{}, `{"type":["null","integer"],"enum":[7,null],"minimum":-` + safe + `,"maximum":` + safe + `}`},
		{"nullable slice of enums", struct {
			F *[]string `json:"f" schema:"items.enum=a|b"`
		}{}, `{"type":["null","array"],"items":{"type":"string","enum":["a","b"]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := propertyJSON(t, tt.v, "f"); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestTagDefaultMakesFieldOptional: a field with a default is not
// required, and Validate fills the default in, as Zod's .default() does.
func TestTagDefaultMakesFieldOptional(t *testing.T) {
	type in struct {
		City  string `json:"city"`
		Units string `json:"units" schema:"enum=metric|imperial,default=metric"`
		Days  int    `json:"days" schema:"minimum=1,maximum=7,default=3"`
	}
	c := schema.MustFor[in]()
	if got := c.JSONSchema().Required; !reflect.DeepEqual(got, []string{"city"}) {
		t.Errorf("required %v, want [city]", got)
	}
	out, is := c.Validate(map[string]any{"city": "Oslo"})
	if len(is) > 0 {
		t.Fatal(issueLines(is))
	}
	got, _ := json.Marshal(out)
	if want := `{"city":"Oslo","days":3,"units":"metric"}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestTagConstraintsValidateInZodsWords: the issues a model gets for
// values breaking tagged constraints are Zod's for the equivalent
// construct.
func TestTagConstraintsValidateInZodsWords(t *testing.T) {
	type in struct {
		Quantity int      `json:"quantity" schema:"minimum=1,maximum=10"`
		Ratio    float64  `json:"ratio,omitempty" schema:"exclusiveMinimum=0,exclusiveMaximum=1"`
		Step     float64  `json:"step,omitempty" schema:"multipleOf=0.5"`
		Color    string   `json:"color,omitempty" schema:"enum=red|green"`
		Version  string   `json:"version,omitempty" schema:"const=v1"`
		Code     string   `json:"code,omitempty" schema:"minLength=2,maxLength=3,pattern=^[A-Z]+$"`
		Exact    string   `json:"exact,omitempty" schema:"minLength=2,maxLength=2"`
		Email    string   `json:"email,omitempty" schema:"format=email"`
		Tags     []string `json:"tags,omitempty" schema:"maxItems=1,items.enum=a|b"`
		Shade    *string  `json:"shade,omitempty" schema:"enum=light|dark"`
		Mode     *string  `json:"mode,omitempty" schema:"const=fast"`
		Level    int      `json:"level,omitempty" schema:"enum=1|2"`
		Digits   string   `json:"digits,omitempty" schema:"pattern=^\\d+$"`
	}
	c := schema.MustFor[in]()
	tests := []struct{ input, want string }{
		{`{"quantity":0}`, "too_small quantity: Too small: expected number to be >=1"},
		{`{"quantity":11}`, "too_big quantity: Too big: expected number to be <=10"},
		{`{"quantity":1.5}`, "invalid_type quantity: Invalid input: expected int, received number"},
		{`{"quantity":1,"ratio":0}`, "too_small ratio: Too small: expected number to be >0"},
		{`{"quantity":1,"ratio":1}`, "too_big ratio: Too big: expected number to be <1"},
		{`{"quantity":1,"step":0.3}`, "not_multiple_of step: Invalid number: must be a multiple of 0.5"},
		{`{"quantity":1,"color":"blue"}`, `invalid_value color: Invalid option: expected one of "red"|"green"`},
		{`{"quantity":1,"version":"v2"}`, `invalid_value version: Invalid input: expected "v1"`},
		{`{"quantity":1,"code":"abcd"}`, "too_big code: Too big: expected string to have <=3 characters\ninvalid_format code: Invalid string: must match pattern /^[A-Z]+$/"},
		{`{"quantity":1,"exact":"a"}`, "too_small exact: Too small: expected string to have exactly 2 characters"},
		{`{"quantity":1,"email":"nope"}`, "invalid_format email: Invalid email address"},
		{`{"quantity":1,"tags":["c","a"]}`, `invalid_value tags.0: Invalid option: expected one of "a"|"b"` + "\ntoo_big tags: Too big: expected array to have <=1 items"},
		{`{"quantity":1,"shade":"grey"}`, `invalid_value shade: Invalid option: expected one of "light"|"dark"`},
		{`{"quantity":1,"mode":"slow"}`, `invalid_value mode: Invalid input: expected "fast"`},
		{`{"quantity":1,"shade":null,"mode":null}`, ""},
		{`{"quantity":1,"level":3}`, "invalid_value level: Invalid option: expected one of 1|2"},
		{`{"quantity":1,"digits":"12a"}`, `invalid_format digits: Invalid string: must match pattern /^\d+$/`},
	}
	for _, tt := range tests {
		var v any
		if err := json.Unmarshal([]byte(tt.input), &v); err != nil {
			t.Fatal(err)
		}
		_, is := c.Validate(v)
		if got := issueLines(is); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.input, got, tt.want)
		}
	}
}

type taggedInner struct {
	Level int `json:"level" schema:"minimum=high"`
}

type taggedOuter struct {
	Inner []taggedInner `json:"inner"`
}

// TestTagErrors: every tag that cannot be applied is a *TagError naming
// the struct type and field, saying what is wrong.
func TestTagErrors(t *testing.T) {
	tests := []struct {
		name  string
		v     any
		field string // Type.Field in the message
		want  string // in the message
	}{
		{"unknown keyword", struct {
			F int `json:"f" schema:"min=1"`
		}{}, ".F", `unknown keyword "min" (known: `},
		{"not keyword=value", struct {
			F int `json:"f" schema:"minimum"`
		}{}, ".F", `"minimum" is not keyword=value`},
		{"empty tag", struct {
			F int `json:"f" schema:""`
		}{}, ".F", "empty tag"},
		{"keyword twice", struct {
			F int `json:"f" schema:"minimum=1,minimum=2"`
		}{}, ".F", "minimum given twice"},
		{"number keyword on a string", struct {
			F string `json:"f" schema:"minimum=1"`
		}{}, ".F", "minimum applies to numbers, and the field's JSON type is string"},
		{"string keyword on a number", struct {
			F int `json:"f" schema:"minLength=1"`
		}{}, ".F", "minLength applies to strings, and the field's JSON type is integer"},
		{"array keyword on a string", struct {
			F string `json:"f" schema:"maxItems=1"`
		}{}, ".F", "maxItems applies to arrays, and the field's JSON type is string"},
		{"format on an element that is no string", struct {
			F []int `json:"f" schema:"items.format=email"`
		}{}, ".F", "format applies to strings, and the element's JSON type is integer"},
		{"bad number", struct {
			F int `json:"f" schema:"minimum=one"`
		}{}, ".F", `minimum: "one" is not a number`},
		{"fractional length", struct {
			F string `json:"f" schema:"maxLength=1.5"`
		}{}, ".F", `maxLength: "1.5" is not a non-negative integer`},
		{"negative count", struct {
			F []int `json:"f" schema:"minItems=-1"`
		}{}, ".F", `minItems: "-1" is not a non-negative integer`},
		{"multipleOf zero", struct {
			F float64 `json:"f" schema:"multipleOf=0"`
		}{}, ".F", "multipleOf: 0 is not positive"},
		{"bound outside the Go type", struct {
			F int8 `json:"f" schema:"maximum=300"`
		}{}, ".F", "maximum: 300 is outside the range of int8 (-128 to 127)"},
		{"unsatisfiable numbers", struct {
			F int `json:"f" schema:"minimum=5,maximum=1"`
		}{}, ".F", "no number is within the bounds (lower 5, upper 1)"},
		{"unsatisfiable exclusive numbers", struct {
			F float64 `json:"f" schema:"exclusiveMinimum=1,exclusiveMaximum=1"`
		}{}, ".F", "no number is within the bounds (lower 1, upper 1)"},
		{"unsatisfiable lengths", struct {
			F string `json:"f" schema:"minLength=3,maxLength=2"`
		}{}, ".F", "minLength 3 is above maxLength 2"},
		{"unsatisfiable item counts", struct {
			F []string `json:"f" schema:"minItems=2,maxItems=1"`
		}{}, ".F", "minItems 2 is above maxItems 1"},
		{"minimum with exclusiveMinimum", struct {
			F int `json:"f" schema:"minimum=1,exclusiveMinimum=0"`
		}{}, ".F", "use one of minimum and exclusiveMinimum"},
		{"pattern with format", struct {
			F string `json:"f" schema:"pattern=x,format=email"`
		}{}, ".F", "use one of pattern and format"},
		{"enum with const", struct {
			F string `json:"f" schema:"enum=a|b,const=a"`
		}{}, ".F", "use one of enum and const"},
		{"default not in the enum", struct {
			F string `json:"f" schema:"enum=a|b,default=c"`
		}{}, ".F", `default: "c": Invalid option: expected one of "a"|"b"`},
		{"default below the minimum", struct {
			F int `json:"f" schema:"minimum=1,default=0"`
		}{}, ".F", "default: 0: Too small: expected number to be >=1"},
		{"enum value against the pattern", struct {
			F string `json:"f" schema:"pattern=^[a-z]+$,enum=a|B"`
		}{}, ".F", `enum: "B": Invalid string: must match pattern /^[a-z]+$/`},
		{"enum of a number field is JSON", struct {
			F int `json:"f" schema:"enum=one|two"`
		}{}, ".F", `enum: "one" is not JSON (only a string field's values are plain text)`},
		{"description in both tags", struct {
			F string `json:"f" jsonschema:"the f" schema:"description=an f"`
		}{}, ".F", "the field is described by its jsonschema tag already; use one"},
		{"empty description", struct {
			F string `json:"f" schema:"description="`
		}{}, ".F", "empty description"},
		{"items. on a non-slice", struct {
			F string `json:"f" schema:"items.enum=a"`
		}{}, ".F", `"items." keywords apply to slices and arrays, and string is not one`},
		{"items. too deep", struct {
			F []string `json:"f" schema:"items.items.minLength=1"`
		}{}, ".F", `"items." keywords apply to slices and arrays, and string is not one`},
		{"default on elements", struct {
			F []string `json:"f" schema:"items.default=a"`
		}{}, ".F", `default: a default applies to a struct field, not to "items."`},
		{"bad regexp", struct {
			F string `json:"f" schema:"pattern=(a"`
		}{}, ".F", "pattern: error parsing regexp: missing closing ): `(a`"},
		{"unknown format", struct {
			F string `json:"f" schema:"format=phone"`
		}{}, ".F", `format: "phone" is not a format the validator checks (`},
		{"tag on a json:\"-\" field", struct {
			F string `json:"-" schema:"minLength=1"`
		}{}, ".F", "the field is not a property of the schema"},
		{"tag on an unexported field", struct {
			f string `schema:"minLength=1"`
		}{}, ".f", "the field is not a property of the schema"},
		{"nested type", taggedOuter{}, "schema_test.taggedInner.Level", `minimum: "high" is not a number`},
		{"constraint in the jsonschema tag", struct {
			Quantity int `json:"quantity" jsonschema:"minimum=1"`
		}{}, ".Quantity", `tag jsonschema:"minimum=1": the jsonschema tag is the description; constraints go in the schema tag, as in schema:"minimum=1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.ForType(reflect.TypeOf(tt.v))
			var te *schema.TagError
			if !errors.As(err, &te) {
				t.Fatalf("error %v (%T), want a *schema.TagError", err, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.field+": tag ") || !strings.Contains(msg, tt.want) {
				t.Errorf("error\n %s\nwant it to name %s and say\n %s", msg, tt.field, tt.want)
			}
			if te.Type == nil || !strings.HasSuffix(te.Type.String()+"."+te.Field, tt.field) {
				t.Errorf("TagError names %v.%s, want %s", te.Type, te.Field, tt.field)
			}
		})
	}
}

// TestTagWithBadGoQuotingIsAnError: reflect ignores a struct tag value Go
// cannot unquote (pattern=^\d+$ written with one backslash in a quoted
// tag); the constraint must not vanish silently.
func TestTagWithBadGoQuotingIsAnError(t *testing.T) {
	typ := reflect.StructOf([]reflect.StructField{{
		Name: "Code", Type: reflect.TypeFor[string](),
		Tag: `json:"code" schema:"pattern=^\d+$"`,
	}})
	_, err := schema.ForType(typ)
	var te *schema.TagError
	if !errors.As(err, &te) || te.Field != "Code" || !strings.Contains(err.Error(), `not valid Go struct tag syntax`) {
		t.Fatalf("error %v, want a *TagError on Code about the quoting", err)
	}
}

// TestJSONSchemaTagCheckedOnPropertiesOnly: a jsonschema tag on a field
// that is no property does not hide the real inference error.
func TestJSONSchemaTagCheckedOnPropertiesOnly(t *testing.T) {
	type in struct {
		Hidden string   `json:"-" jsonschema:"a=b"`
		C      chan int `json:"c"`
	}
	_, err := schema.For[in]()
	var te *schema.TagError
	if err == nil || errors.As(err, &te) {
		t.Fatalf("error %v, want the channel's inference error", err)
	}
}

// TestMustPanicsOnError: MustFor and MustFromJSON panic with the error
// For and FromJSON return.
func TestMustPanicsOnError(t *testing.T) {
	type bad struct {
		N int `json:"n" schema:"minimum=x"`
	}
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", name)
			}
		}()
		f()
	}
	var te *schema.TagError
	func() {
		defer func() {
			if err, ok := recover().(error); !ok || !errors.As(err, &te) {
				t.Errorf("MustFor panicked with %v, want the *TagError", err)
			}
		}()
		schema.MustFor[bad]()
	}()
	mustPanic("MustFromJSON", func() { schema.MustFromJSON([]byte(`{"$ref":"https://example.com/s.json"}`)) })
	mustPanic("MustFromJSON", func() { schema.MustFromJSON([]byte(`{`)) })
	if c := schema.MustFromJSON([]byte(`{"type":"string"}`)); c.Type() != "string" {
		t.Errorf("MustFromJSON: type %q", c.Type())
	}
}
