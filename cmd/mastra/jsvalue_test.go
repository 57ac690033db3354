package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestParseJSON: parseJSON is v8json's JSON.parse (checked against Node 22
// there) making this model's values: objects in JavaScript order with a
// repeated key kept in its first place, lone surrogates kept, V8's
// messages.
func TestParseJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"b":1,"2":"two","1":"one","b":2,"a":[1e21,-0,1E400]}`: `{"1":"one","2":"two","b":2,"a":[1e+21,0,null]}`,
		`["\ud83d\ude00","\ud83d","<&>\u2028"]`:                 "[\"\U0001F600\",\"\\ud83d\",\"<&>\u2028\"]",
		`{"a":1,}`:                                              "error: Expected double-quoted property name in JSON at position 7 (line 1 column 8)",
		`"\`:                                                    "error: Unexpected end of JSON input",
	} {
		v, err := parseJSON(in)
		got := "error: " + fmt.Sprint(err)
		if err == nil {
			got = stringify(v, false)
			if _, ok := v.(*jsObject); !ok && strings.HasPrefix(in, "{") {
				t.Errorf("parseJSON(%q) made a %T", in, v)
			}
		}
		if got != want {
			t.Errorf("parseJSON(%q)\n got: %s\nwant: %s", in, got, want)
		}
	}
}

func TestStringifyPretty(t *testing.T) {
	v, err := parseJSON(`{"a":[],"b":{},"c":[1,{"d":null}],"e":"x"}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": null\n    }\n  ],\n  \"e\": \"x\"\n}"
	if got := stringify(v, true); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// undefined members are left out; an object of only undefined is {}.
	if got := stringify(objectOf("a", undefined, "b", objectOf("c", undefined)), true); got != "{\n  \"b\": {}\n}" {
		t.Errorf("undefined members: %q", got)
	}
}

func TestObjectOrder(t *testing.T) {
	o := newObject()
	for _, k := range []string{"b", "10", "a", "2", "01", "4294967295", "4294967294"} {
		o.set(k, 1.0)
	}
	o.set("b", 2.0) // keeps its place
	o.del("a")
	o.set("a", 3.0) // moves to the end
	want := `{"2":1,"10":1,"4294967294":1,"b":2,"01":1,"4294967295":1,"a":3}`
	if got := stringify(o, false); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestDecodeUTF8(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\xEF\xBB\xBF{}", "{}"},
		{"a\xE2\x82b", "a\ufffdb"},             // truncated sequence: one U+FFFD
		{"\xFF\xFE", "\ufffd\ufffd"},           // two invalid bytes: two
		{"\xED\xA0\x80", "\ufffd\ufffd\ufffd"}, // encoded surrogate: ED, then A0 and 80 alone
		{"\xF0\x9F\x98", "\ufffd"},
		{"é😀", "é😀"},
	} {
		if got := decodeUTF8([]byte(c.in), true); got != c.want {
			t.Errorf("decodeUTF8(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestJSNumber(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"300", 300}, {" 250.5 ", 250.5}, {"1e3", 1000}, {"0x40", 64}, {"0b11", 3}, {"0o17", 15},
		{"+5", 5}, {"-5", -5}, {".5", 0.5}, {"5.", 5}, {"Infinity", math.Inf(1)}, {"", 0}, {"  ", 0},
		{"abc", math.NaN()}, {"1_000", math.NaN()}, {"0x", math.NaN()}, {"-0x10", math.NaN()}, {"inf", math.NaN()},
		{"1e", math.NaN()}, {"12px", math.NaN()},
	} {
		got := jsNumber(c.in)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("jsNumber(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	for in, want := range map[string]float64{"": 30000, "abc": 30000, "0": 30000, "-5": 30000, "Infinity": 30000, "1e3": 1000, "250.5": 250.5} {
		if got := parseTimeout(in); got != want {
			t.Errorf("parseTimeout(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestNormalizeResponse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// superjson string unwrapped, $schema dropped
		{`{"inputSchema":"{\"json\":{\"$schema\":\"x\",\"type\":\"object\"}}"}`, `{"inputSchema":{"type":"object"}}`},
		// a wrapper with meta is kept as is (two keys)
		{`{"outputSchema":"{\"json\":{\"type\":\"string\"},\"meta\":{}}"}`, `{"outputSchema":{"json":{"type":"string"},"meta":{}}}`},
		// object wrappers too, any key ending in schema, and parameters
		{`{"Parameters":{"json":{"$schema":"s","a":1}},"fooSCHEMA":"[1]"}`, `{"Parameters":{"a":1},"fooSCHEMA":[1]}`},
		// nested $schema removed only inside schema fields
		{`{"$schema":"keep","x":{"$schema":"keep"},"schema":{"properties":{"p":{"$schema":"drop"}}}}`,
			`{"$schema":"keep","x":{"$schema":"keep"},"schema":{"properties":{"p":{}}}}`},
		// strings that are not JSON stay strings
		{`{"schema":"not json","inputSchema":" {bad","s2schema":"  "}`, `{"schema":"not json","inputSchema":" {bad","s2schema":"  "}`},
		// arrays under a schema key are normalized item by item
		{`{"listSchema":["{\"json\":1}",{"json":2}],"schemas":"[1]"}`, `{"listSchema":[1,2],"schemas":"[1]"}`},
	} {
		v, err := parseJSON(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := stringify(normalizeResponse(v, "", false), false); got != c.want {
			t.Errorf("normalizeResponse(%s)\n got: %s\nwant: %s", c.in, got, c.want)
		}
	}
}

func TestAgentRunDigest(t *testing.T) {
	v, _ := parseJSON(`{"result":"r","text":null,"object":{"o":1},"totalUsage":{"t":1},"finishReason":"stop","output":null,"spanId":"s","steps":[]}`)
	// text is null, so result wins; usage falls back to totalUsage.
	want := `{"text":"r","structuredOutput":{"o":1},"usage":{"t":1},"finishReason":"stop","spanId":"s"}`
	if got := stringify(agentRunDigest(v), false); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	v, _ = parseJSON(`{"text":null,"output":null}`)
	if got := stringify(agentRunDigest(v), false); got != `{"text":null}` {
		t.Errorf("null ?? undefined ?? null: got %s", got)
	}
}

func TestQueryStringSet(t *testing.T) {
	var q queryString
	q.set("a", "1")
	q.set("b", "2")
	q.set("a", "x y")
	q.set("c", "é&=+*~")
	if got, want := q.encode(), "a=x+y&b=2&c=%C3%A9%26%3D%2B*%7E"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := encodeURIComponent("a b/c?é!*'()~"), "a%20b%2Fc%3F%C3%A9!*'()~"; got != want {
		t.Errorf("encodeURIComponent: got %s, want %s", got, want)
	}
}

func TestSuggestSimilar(t *testing.T) {
	for _, c := range []struct {
		word       string
		candidates []string
		want       string
	}{
		{"lst", []string{"list", "get", "execute", "help"}, "\n(Did you mean list?)"},
		{"--prety", []string{"--schema", "--help", "--pretty", "--url"}, "\n(Did you mean --pretty?)"},
		{"gte", []string{"get", "set"}, "\n(Did you mean get?)"},
		{"zzzzzz", []string{"list"}, ""},
		{"tset", []string{"test", "tsets", "x"}, "\n(Did you mean one of test, tsets?)"},
	} {
		if got := suggestSimilar(c.word, c.candidates); got != c.want {
			t.Errorf("suggestSimilar(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}
