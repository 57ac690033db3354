package wire

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gomastra/mastra/internal/jsjson"
)

// Differential tests: the shared code against the implementations it
// replaced (legacy_test.go), on the JSON Schemas and JSON texts the
// repository records plus edge cases, and on strings that exercise every
// escaping difference.

// edgeTexts are JSON texts whose rendering the callers differ on: array
// index keys, repeated keys, number spellings, escapes.
var edgeTexts = []string{
	`{"type":"object","0":"x","properties":{"b":{"type":"string"},"1":{"type":"number"},"a":{}}}`,
	`{"type":"string","type":"object","description":"d","description":"e","properties":{"a":{"title":"t","type":"string","type":"number"}}}`,
	`{"minimum":1.0,"maximum":1e21,"multipleOf":0.0000001,"default":12345678901234567890,"enum":[1.50,-0,"<&>\u2028\u2029",1E2]}`,
	`{"description":"\u0000\u0001\b\f\n\r\t\u007f\"\\\/ \ud800 \ud83d\ude00 é","type":"string"}`,
	`{"items":[{"type":"string","title":"t"},{"$ref":"#/$defs/x"}],"prefixItems":[true,false],"type":"array","$defs":{"x":{"not":{},"type":"null"}}}`,
	`{"anyOf":[{"type":"string"},{"const":"a","title":"A"}],"additionalProperties":{"type":"integer","format":"int64"},"type":"object"}`,
	`{}`, `{"$schema":"x"}`, `true`, `false`, `[1,{"b":1,"a":2}]`, `"s"`, `1.50`, `null`,
}

// corpusTexts returns edgeTexts and the JSON the repository records
// (Mastra's API schemas, compat goldens, MCP captures, validation
// recordings, UI stream recordings), each file whole and each object in
// it that holds a schema keyword (files of 16 KiB and more are not
// taken whole: their objects are).
func corpusTexts(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, s := range edgeTexts {
		out = append(out, []byte(s))
	}
	var files []string
	for _, pat := range []string{"../../server/apischema.json", "../../mcpserver/apischema.json", "../../schema/compat/testdata/*.json",
		"../../mcpserver/testdata/mastra/*.json", "../../tools/testdata/mastra/*.json", "../../server/aisdk/testdata/*/*.json"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d corpus files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		if len(b) < 16<<10 {
			out = append(out, bytes.TrimSpace(b))
		}
		out = appendSchemaObjects(out, v)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(b []byte) bool {
		dup := seen[string(b)]
		seen[string(b)] = true
		return dup
	})
}

// appendSchemaObjects appends the JSON of each outermost object in v
// that has a schema keyword (the schemas below it are rendered with it).
func appendSchemaObjects(out [][]byte, v any) [][]byte {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range []string{"type", "properties", "$schema", "anyOf", "items"} {
			if _, ok := t[k]; ok {
				b, _ := json.Marshal(t)
				return append(out, b)
			}
		}
		for _, e := range t {
			out = appendSchemaObjects(out, e)
		}
	case []any:
		for _, e := range t {
			out = appendSchemaObjects(out, e)
		}
	case string:
		// Schemas are often carried as JSON strings (superjson, resumeSchema).
		var inner any
		if len(t) > 1 && (t[0] == '{' || t[0] == '[') && json.Unmarshal([]byte(t), &inner) == nil {
			out = append(out, []byte(t))
			out = appendSchemaObjects(out, inner)
		}
	}
	return out
}

// serverSchema is package server's schemaJSONAs on wire (draft 2020-12).
func serverSchema(raw []byte, draft string) ([]byte, error) {
	v, err := Decode(raw, KeepDuplicates)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*Object)
	if !ok {
		return raw, nil
	}
	if !o.Has("$schema") {
		o.Prepend("$schema", draft)
	}
	SortSchema(o)
	return AppendAsIs(nil, o, StringifyGo), nil
}

// mcpSchema is mcpserver's orderSchema on wire.
func mcpSchema(raw []byte, dialect string) ([]byte, error) {
	v, err := Decode(bytes.TrimSpace(raw), LastWins)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*Object)
	if !ok {
		return raw, nil
	}
	if dialect != "" && !obj.Has("$schema") {
		obj.Prepend("$schema", dialect)
	}
	if t, _ := obj.Get("type"); t == "object" && !obj.Has("properties") {
		obj.Set("properties", &Object{})
	}
	SortSchema(obj)
	return obj.AppendJS(nil), nil
}

func TestSchemaRenderingsMatchTheReplacedCode(t *testing.T) {
	texts := corpusTexts(t)
	if len(texts) < 300 {
		t.Fatalf("only %d texts", len(texts))
	}
	for _, raw := range texts {
		want, werr := legacyServerSchema(raw, "https://json-schema.org/draft/2020-12/schema")
		got, gerr := serverSchema(raw, "https://json-schema.org/draft/2020-12/schema")
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Errorf("server %.200s:\n got  %.300s %v\n want %.300s %v", raw, got, gerr, want, werr)
		}
		wantMid, wantOut, werr := legacyToolsSchema(raw)
		v, gerr := Decode(raw, KeepDuplicates)
		if gerr == nil {
			SortSchema(v)
			mid := AppendAsIs(nil, v, EncodingJSON)
			out, serr := jsjson.Stringify(mid, "")
			if werr != nil || serr != nil || string(mid) != wantMid || out != wantOut {
				t.Errorf("tools %.200s:\n got  %.300s\n want %.300s", raw, out, wantOut)
			}
		} else if werr == nil {
			t.Errorf("tools %.200s: %v", raw, gerr)
		}
		wantMCP, werr := legacyMCPSchema(raw, "http://json-schema.org/draft-07/schema#")
		gotMCP, gerr := mcpSchema(raw, "http://json-schema.org/draft-07/schema#")
		if (werr != nil) != (gerr != nil) || !bytes.Equal(gotMCP, wantMCP) {
			t.Errorf("mcpserver %.200s:\n got  %.300s\n want %.300s", raw, gotMCP, wantMCP)
		}
		if got, want := StringifyText(raw), legacyMCPStringify(raw); got != want {
			t.Errorf("StringifyText(%.200s):\n got  %.300s\n want %.300s", raw, got, want)
		}
	}
	for _, bad := range []string{`{`, `{"a":1}x`, `{"a":1} 2`, `nul`, `[1,]`, ``} {
		if got, want := StringifyText([]byte(bad)), legacyMCPStringify([]byte(bad)); got != want {
			t.Errorf("StringifyText(%q) = %q, want %q", bad, got, want)
		}
	}
}

// nastyStrings exercise every escaping rule and every way of not being
// UTF-8.
var nastyStrings = []string{
	"", "plain", "<a&b>", "\u2028\u2029", "\x00\x01\x1f\x7f", "\b\f\n\r\t", `"\`, "é😀",
	"\xff", "\xed\xa0\xbd", "a\xe2\x82", "\ufffd", "\\u003c", "</script>",
}

func TestErrorBodiesMatchTheReplacedCode(t *testing.T) {
	for _, msg := range nastyStrings {
		var issues []Issue
		for _, s := range nastyStrings {
			issues = append(issues, Issue{Field: s, Message: msg + s})
		}
		for _, is := range [][]Issue{nil, {}, issues} {
			if got, want := string(AppendError(nil, msg, is, StringifyGo)), legacyServerError(msg, is); got != want {
				t.Errorf("server %q %d:\n got  %s\n want %s", msg, len(is), got, want)
			}
		}
		if got, want := string(AppendError(nil, msg, issues, StringifyReplaced)), legacyMCPIssues(msg, issues); got != want {
			t.Errorf("mcpserver issues %q:\n got  %s\n want %s", msg, got, want)
		}
		if got, want := string(AppendError(nil, msg, nil, StringifyReplaced)), legacyMCPError(msg); got != want {
			t.Errorf("mcpserver error %q:\n got  %s\n want %s", msg, got, want)
		}
		// Marshal's strings are StringifyGo's.
		m, err := legacyServerMarshalJS(msg)
		if got := string(AppendString(nil, msg, StringifyGo)); err != nil || got != string(m) {
			t.Errorf("StringifyGo(%q) = %s, marshalJS %s", msg, got, m)
		}
	}
}

// TestAppendValueMatchesMarshalThenStringify: mcpserver's writeJSON
// (json.Marshal, then JSON.stringify's re-rendering) and AppendValue
// write the same bytes for the structs and maps it sends.
func TestAppendValueMatchesMarshalThenStringify(t *testing.T) {
	type info struct {
		Name  string          `json:"name"`
		Tags  []string        `json:"tags"`
		Raw   json.RawMessage `json:"raw,omitempty"`
		Extra map[string]any  `json:"extra,omitempty"`
		Next  *string         `json:"next"`
	}
	for _, s := range nastyStrings {
		vals := []any{
			info{Name: s, Tags: []string{s, "x"}, Raw: json.RawMessage(`{"b":1,"10":2,"a":[1.0,1e21]}`), Extra: map[string]any{"z": s, "2": 1.5}},
			map[string]string{"error": s},
			[]Issue{{Field: s, Message: s}},
		}
		for _, v := range vals {
			raw, _ := json.Marshal(v)
			got, err := AppendValue(nil, v)
			if want := legacyMCPStringify(raw); err != nil || string(got) != want {
				t.Errorf("%q:\n got  %s %v\n want %s", s, got, err, want)
			}
		}
	}
}
