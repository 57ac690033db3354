package studio

import (
	"encoding/json"
	"testing"

	"github.com/gomastra/mastra/server"
	"github.com/google/go-cmp/cmp"
)

// runModule imports a studio module in the page and returns what the
// script (the body of an async function of m, the module) returns,
// through JSON.
func runModule[T any](p *page, module, body string) T {
	p.t.Helper()
	raw := evalJS[string](p, `(async () => { const m = await import(`+js("/assets/js/"+module)+`); const out = await (async (m) => {`+body+`})(m); return JSON.stringify(out); })()`)
	var v T
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		p.t.Fatalf("%s: %v\n%s", module, err, raw)
	}
	return v
}

// TestBrowserModules checks the page's pure modules in the browser that
// runs them.
func TestBrowserModules(t *testing.T) {
	app := newTestApp(t, server.Options{Studio: Handler(Options{})})
	p := newPage(t, app.ts.URL)
	p.open("/")

	t.Run("partial JSON", func(t *testing.T) {
		type result struct {
			Value any    `json:"value"`
			State string `json:"state"`
		}
		cases := []struct {
			in   string
			want result
		}{
			{`{"city":"Paris"}`, result{map[string]any{"city": "Paris"}, "successful-parse"}},
			{`{"city":"Pa`, result{map[string]any{"city": "Pa"}, "repaired-parse"}},
			{`{"ci`, result{map[string]any{}, "repaired-parse"}},
			{`{"city":`, result{map[string]any{}, "repaired-parse"}},
			{`{"a":1,"b`, result{map[string]any{"a": 1.0}, "repaired-parse"}},
			{`{"a":1,`, result{map[string]any{"a": 1.0}, "repaired-parse"}},
			{`[1,2,`, result{[]any{1.0, 2.0}, "repaired-parse"}},
			{`{"a":tr`, result{map[string]any{"a": true}, "repaired-parse"}},
			{`{"a":nul`, result{map[string]any{"a": nil}, "repaired-parse"}},
			{`{"n":-12.`, result{map[string]any{"n": -12.0}, "repaired-parse"}},
			{`{"n":2.5e+`, result{map[string]any{"n": 2.5}, "repaired-parse"}},
			{`{"q":"x","o":[{"label":`, result{map[string]any{"q": "x", "o": []any{map[string]any{}}}, "repaired-parse"}},
			{`{"s":"a\"b`, result{map[string]any{"s": `a"b`}, "repaired-parse"}},
			{`{"s":"a\`, result{map[string]any{"s": "a"}, "repaired-parse"}},
			{`{"s":"\u00e`, result{map[string]any{"s": ""}, "repaired-parse"}},
			{`{"a":[{"b":{"c":"d`, result{map[string]any{"a": []any{map[string]any{"b": map[string]any{"c": "d"}}}}, "repaired-parse"}},
			{`}`, result{nil, "failed-parse"}},
			{``, result{nil, "failed-parse"}},
		}
		ins := make([]string, len(cases))
		for i, c := range cases {
			ins[i] = c.in
		}
		got := runModule[[]result](p, "partialjson.js", `return `+js(ins)+`.map((t) => m.parsePartialJSON(t));`)
		for i, c := range cases {
			if diff := cmp.Diff(c.want, got[i]); diff != "" {
				t.Errorf("parsePartialJSON(%q) (-want +got):\n%s", c.in, diff)
			}
		}
		undef := runModule[result](p, "partialjson.js", `return m.parsePartialJSON(undefined);`)
		if undef.State != "undefined-input" {
			t.Errorf("parsePartialJSON(undefined).state = %q", undef.State)
		}
	})

	t.Run("SSE", func(t *testing.T) {
		// Frames split across reads at awkward places, CRLF line ends, a
		// comment, a frame that is not JSON, two data lines, and chunks
		// after [DONE] that must not be read.
		got := runModule[[]any](p, "sse.js", `
			const parts = [': connected\n\ndata: {"type":"a"', ',"n":1}\n', '\ndata: not json\n\ndata: {"type":', '"b"}\r\n\r\n',
				'data: {"type":"c",\ndata: "x":2}\n\n', 'data: [DONE]\n\ndata: {"type":"late"}\n\n'];
			const enc = new TextEncoder();
			const body = new ReadableStream({start(c) { for (const p of parts) c.enqueue(enc.encode(p)); c.close(); }});
			const out = [];
			for await (const chunk of m.readSSE(new Response(body))) out.push(chunk);
			return out;`)
		want := []any{
			map[string]any{"type": "a", "n": 1.0},
			map[string]any{"type": "b"},
			map[string]any{"type": "c", "x": 2.0},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("readSSE (-want +got):\n%s", diff)
		}
		// A stream cut without [DONE] still yields its last frame.
		got = runModule[[]any](p, "sse.js", `
			const body = new ReadableStream({start(c) { c.enqueue(new TextEncoder().encode('data: {"type":"z"}')); c.close(); }});
			const out = [];
			for await (const chunk of m.readSSE(new Response(body))) out.push(chunk);
			return out;`)
		if diff := cmp.Diff([]any{map[string]any{"type": "z"}}, got); diff != "" {
			t.Errorf("readSSE without a blank line (-want +got):\n%s", diff)
		}
	})

	t.Run("schema kinds", func(t *testing.T) {
		schemas := []struct {
			schema string
			kind   string
		}{
			{`{"type":"string"}`, "string"},
			{`{"type":"integer","minimum":1}`, "integer"},
			{`{"type":"number"}`, "number"},
			{`{"type":"boolean"}`, "boolean"},
			{`{"type":"string","enum":["a","b"]}`, "enum"},
			{`{"enum":[1,"x",null]}`, "enum"},
			{`{"const":"fixed"}`, "const"},
			{`{"type":"object","properties":{"a":{"type":"string"}}}`, "object"},
			{`{"type":"object"}`, "raw"},
			{`{"type":"object","additionalProperties":{"type":"number"}}`, "raw"},
			{`{"type":"array","items":{"type":"string"}}`, "raw"},
			{`{"anyOf":[{"type":"string"},{"type":"number"}]}`, "raw"},
			{`{"anyOf":[{"type":"string"},{"type":"null"}]}`, "string"},
			{`{"type":["integer","null"]}`, "integer"},
			{`{"type":["integer","string"]}`, "raw"},
			{`{"$ref":"#/$defs/x"}`, "raw"},
			{`{}`, "raw"},
			{`true`, "raw"},
		}
		list := "["
		for i, s := range schemas {
			if i > 0 {
				list += ","
			}
			list += s.schema
		}
		list += "]"
		got := runModule[[]string](p, "schemaform.js", `return `+list+`.map((s) => m.describeSchema(s).kind);`)
		for i, s := range schemas {
			if got[i] != s.kind {
				t.Errorf("describeSchema(%s).kind = %q, want %q", s.schema, got[i], s.kind)
			}
		}
	})

	t.Run("validation error paths", func(t *testing.T) {
		type issue struct {
			Path    string `json:"path"`
			Message string `json:"message"`
		}
		got := runModule[[]issue](p, "schemaform.js", `return m.validationErrorPaths({errors: ['top'], fields: {
			a: {errors: ['bad a'], fields: {}},
			b: {errors: [], fields: {c: {errors: ['bad b.c', 'again'], fields: {}}}}}});`)
		want := []issue{{"", "top"}, {"a", "bad a"}, {"b.c", "bad b.c"}, {"b.c", "again"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("validationErrorPaths (-want +got):\n%s", diff)
		}
	})

	t.Run("error text", func(t *testing.T) {
		got := runModule[[]string](p, "api.js", `return [
			m.describeError(400, {error: 'Invalid request body', issues: [{field: 'data', message: 'data is required'}, {field: 'root', message: 'bad'}]}),
			m.describeError(404, {error: 'Tool not found'}),
			m.describeError(401, {error: 'Unauthorized'}),
			m.describeError(500, 'plain text\n'),
			m.describeError(502, null),
		];`)
		want := []string{
			"400 Invalid request body: data: data is required; bad",
			"404 Tool not found",
			"401 Unauthorized (set the bearer token in Settings)",
			"500 plain text",
			"502 Request failed",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("describeError (-want +got):\n%s", diff)
		}
	})

	t.Run("form values", func(t *testing.T) {
		// Each kind of field reads back as the JSON the tool gets; empty
		// optional fields are left out.
		got := runModule[map[string]any](p, "schemaform.js", `
			const f = new m.SchemaForm({type: 'object', required: ['s', 'flag'], properties: {
				s: {type: 'string'}, i: {type: 'integer'}, n: {type: 'number'}, flag: {type: 'boolean'},
				opt: {type: 'boolean'}, e: {enum: ['x', 2]}, nested: {type: 'object', properties: {deep: {type: 'string'}}},
				empty: {type: 'object', properties: {z: {type: 'string'}}}, list: {type: 'array'}, skip: {type: 'string'},
				d: {type: 'string', default: 'dflt'}}});
			const set = (name, v) => { const el = f.element.querySelector('[name="' + name + '"]'); el.value = v; };
			set('s', 'hi'); set('i', '7'); set('n', '-1.5'); set('opt', 'false'); set('e', '2');
			set('nested.deep', 'down'); set('list', '[1, "two"]');
			f.element.querySelector('[name="flag"]').checked = true;
			const r = f.read();
			f.setRawMode(true);
			const box = JSON.parse(f.jsonArea.value);
			return {read: r, sameInJSONBox: JSON.stringify(box) === JSON.stringify(r.value)};`)
		want := map[string]any{
			"read": map[string]any{"ok": true, "value": map[string]any{
				"s": "hi", "i": 7.0, "n": -1.5, "flag": true, "opt": false, "e": 2.0,
				"nested": map[string]any{"deep": "down"}, "list": []any{1.0, "two"}, "d": "dflt",
			}},
			"sameInJSONBox": true,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("form value (-want +got):\n%s", diff)
		}
	})
	p.checkConsole()
}
