package wire

import (
	"encoding/json"
	"testing"
)

func TestDecodeDuplicates(t *testing.T) {
	raw := []byte(` {"b":1,"a":{"x":[]},"b":2.50,"10":null,"2":"s"} `)
	keep, err := Decode(raw, KeepDuplicates)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(AppendAsIs(nil, keep, StringifyGo)), `{"b":1,"a":{"x":[]},"b":2.50,"10":null,"2":"s"}`; got != want {
		t.Errorf("KeepDuplicates as is: %s, want %s", got, want)
	}
	if got, want := string(keep.(*Object).AppendJS(nil)), `{"2":"s","10":null,"b":2.5,"a":{"x":[]}}`; got != want {
		t.Errorf("KeepDuplicates as JavaScript: %s, want %s", got, want)
	}
	last, err := Decode(raw, LastWins)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(AppendAsIs(nil, last, StringifyGo)), `{"b":2.50,"a":{"x":[]},"10":null,"2":"s"}`; got != want {
		t.Errorf("LastWins as is: %s, want %s", got, want)
	}
	if v, _ := last.(*Object).Get("b"); v != json.Number("2.50") {
		t.Errorf("Get(b) = %v", v)
	}
	for _, bad := range []string{``, `{`, `{"a":1} 2`, `[1,]`} {
		if _, err := Decode([]byte(bad), LastWins); err == nil {
			t.Errorf("Decode(%q) accepted invalid JSON", bad)
		}
	}
}

func TestObjectMethods(t *testing.T) {
	o := &Object{}
	o.Set("a", 1.0)
	o.Set("b", "x")
	o.Set("a", 2.0)
	o.Prepend("$schema", "d")
	if !o.Has("b") || o.Has("c") || o.Index("a") != 1 {
		t.Errorf("Has/Index: %v", o.Keys)
	}
	o.Delete("b")
	o.Delete("c")
	b, err := json.Marshal(map[string]any{"o": o})
	if want := `{"o":{"$schema":"d","a":2}}`; err != nil || string(b) != want {
		t.Errorf("MarshalJSON = %s %v, want %s", b, err, want)
	}
}

func TestAppendAsIs(t *testing.T) {
	v := []any{nil, true, 1.5e-7, json.Number("1.0"), "<\u2028>", &Object{Keys: []string{"<"}, Vals: []any{[]any{}}}, struct{}{}}
	for e, want := range map[Escaping]string{
		StringifyGo:  "[null,true,1.5e-7,1.0,\"<\u2028>\",{\"<\":[]},null]",
		EncodingJSON: `[null,true,1.5e-7,1.0,"\u003c\u2028\u003e",{"\u003c":[]},null]`,
	} {
		if got := string(AppendAsIs(nil, v, e)); got != want {
			t.Errorf("escaping %d: %s, want %s", e, got, want)
		}
	}
}

func TestSortSchema(t *testing.T) {
	v, err := Decode([]byte(`{"description":"d","properties":{"b":{"description":"b","type":"string"},"a":{"items":{"title":"i","type":"number"},"type":"array"}},"type":"object","anyOf":[{"title":"t","const":1}],"x-custom":1}`), KeepDuplicates)
	if err != nil {
		t.Fatal(err)
	}
	SortSchema(v)
	SortSchema("not a schema")
	want := `{"type":"object","properties":{"b":{"type":"string","description":"b"},"a":{"type":"array","items":{"type":"number","title":"i"}}},"anyOf":[{"const":1,"title":"t"}],"x-custom":1,"description":"d"}`
	if got := string(AppendAsIs(nil, v, StringifyGo)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
