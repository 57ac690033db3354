package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// This file fuzzes (*tools.Tool).Execute over raw argument bytes: the whole
// input pipeline (decode, Mastra's validateToolInput, decode into the Go
// input type, Execute, suspend and output validation). `go test` runs the
// seeds; CI fuzzes briefly. For every input and every tool:
//
//   - nothing panics (a *PanicError would mean the framework panicked: the
//     tools here never do), overflows the stack or hangs;
//   - exactly one of: a result whose Output or Suspension is set, or an
//     error;
//   - arguments that are not JSON give ErrMalformedArguments and never
//     reach Execute; JSON arguments never give ErrMalformedArguments;
//   - a *ValidationError result has Mastra's exact JSON shape
//     {error, message, validationErrors: {errors, fields}}, the input
//     header for the tool's name, one line per issue and the footer; and
//     Execute did not run;
//   - when Execute ran, the input it received validates against the tool's
//     input schema;
//   - the same call gives the same answer twice.

// --- the tools under test ---

// fuzzAddress is a nested struct of fuzzProfileIn.
type fuzzAddress struct {
	Street string  `json:"street" jsonschema:"street and number"`
	City   string  `json:"city"`
	Zip    *string `json:"zip,omitempty"`
}

type fuzzContact struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// fuzzProfileIn is a typed input with nested struct, pointer, slice, map
// and optional fields.
type fuzzProfileIn struct {
	Name     string            `json:"name" jsonschema:"the person's name"`
	Age      int               `json:"age,omitempty"`
	Score    float64           `json:"score,omitempty"`
	Home     fuzzAddress       `json:"home"`
	Work     *fuzzAddress      `json:"work,omitempty"`
	Contacts []fuzzContact     `json:"contacts,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Counts   map[string]int    `json:"counts,omitempty"`
	Nick     *string           `json:"nick,omitempty"`
	Extra    any               `json:"extra,omitempty"`
	Matrix   [][]float64       `json:"matrix,omitempty"`
	// Mode "suspend" makes the tool suspend, "fail" makes it return an
	// error.
	Mode string `json:"mode,omitempty"`
}

type fuzzProfileOut struct {
	Name     string `json:"name"`
	Contacts int    `json:"contacts"`
}

type fuzzSuspendPayload struct {
	Reason string `json:"reason"`
}

type fuzzResume struct {
	Approved bool    `json:"approved"`
	Note     *string `json:"note,omitempty"`
}

type fuzzAddIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type fuzzAddOut struct {
	Sum int `json:"sum"`
}

// fuzzRichSchema is the dynamic tool's input: enums, const, anyOf, a
// discriminated oneOf, recursive $ref/$defs, patterns, formats, numeric
// and size bounds, prefixItems, uniqueItems, defaults, propertyNames and
// additionalProperties false.
const fuzzRichSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "pattern": "^[a-z][a-z0-9_-]{0,15}$"},
    "kind": {"enum": ["a", "b", "c"]},
    "count": {"type": "integer", "minimum": 0, "maximum": 100},
    "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "email": {"type": "string", "format": "email"},
    "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 8}, "maxItems": 5, "uniqueItems": true},
    "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false},
    "shape": {"oneOf": [
      {"type": "object", "properties": {"type": {"const": "circle"}, "r": {"type": "number", "minimum": 0}}, "required": ["type", "r"], "additionalProperties": false},
      {"type": "object", "properties": {"type": {"const": "rect"}, "w": {"type": "number"}, "h": {"type": "number"}}, "required": ["type", "w", "h"], "additionalProperties": false}
    ]},
    "value": {"anyOf": [{"type": "string", "maxLength": 20}, {"type": "number"}, {"type": "null"}]},
    "tree": {"$ref": "#/$defs/node"},
    "meta": {"type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"pattern": "^[a-z]+$"}},
    "nick": {"type": ["string", "null"], "minLength": 2},
    "mode": {"type": "string", "enum": ["fast", "slow"], "default": "fast"},
    "prompt": {"type": "string"}
  },
  "required": ["id", "kind"],
  "additionalProperties": false,
  "$defs": {
    "node": {
      "type": "object",
      "properties": {
        "value": {"type": "integer"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
      },
      "required": ["value"],
      "additionalProperties": false
    }
  }
}`

// fuzzPromptSchema is a Zod-style object declaring "prompt" (the pipeline
// copies query/message/input into a missing prompt) and an array taking
// stringified JSON.
const fuzzPromptSchema = `{
  "type": "object",
  "properties": {
    "prompt": {"type": "string", "minLength": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": 50},
    "filters": {"type": "array", "items": {"type": "string"}},
    "options": {"type": "object", "properties": {"lang": {"type": "string"}}, "required": ["lang"]}
  },
  "required": ["prompt"]
}`

var errFuzzToolFailed = errors.New("fuzz tool: asked to fail")

// fuzzRecorder records what Execute received; it travels in the context
// so the tools can be shared.
type fuzzRecorder struct {
	ran    bool
	in     any
	resume json.RawMessage
}

type fuzzRecorderKey struct{}

func fuzzRecord(ctx tools.Context, in any) {
	if r, ok := ctx.Value(fuzzRecorderKey{}).(*fuzzRecorder); ok {
		r.ran, r.in, r.resume = true, in, ctx.ResumeData()
	}
}

// fuzzTool is one tool with the invocation to call it with.
type fuzzTool struct {
	name  string
	tool  *tools.Tool
	inv   *tools.Invocation
	typed bool // a typed (Go struct) input
	// argsAsResume: the fuzzed bytes are the resume data; the arguments
	// are fixed.
	argsAsResume bool
}

var fuzzTools = sync.OnceValue(func() []fuzzTool {
	profileCfg := tools.Config[fuzzProfileIn, fuzzProfileOut]{
		ID:          "profile-tool",
		Description: "Stores a profile",
		Execute: func(ctx tools.Context, in fuzzProfileIn) (fuzzProfileOut, error) {
			fuzzRecord(ctx, in)
			switch in.Mode {
			case "suspend":
				return fuzzProfileOut{}, ctx.Suspend(fuzzSuspendPayload{Reason: "confirm " + in.Name})
			case "fail":
				return fuzzProfileOut{}, errFuzzToolFailed
			}
			return fuzzProfileOut{Name: in.Name, Contacts: len(in.Contacts)}, nil
		},
	}
	suspendSchema, err := schema.For[fuzzSuspendPayload]()
	if err != nil {
		panic(err)
	}
	profileCfg.SuspendSchema = suspendSchema
	profile := tools.New(profileCfg)

	resumeSchema, err := schema.For[fuzzResume]()
	if err != nil {
		panic(err)
	}
	resumeCfg := profileCfg
	resumeCfg.ID = "profile-resume-tool"
	resumeCfg.ResumeSchema = resumeSchema
	resumable := tools.New(resumeCfg)

	add := tools.New(tools.Config[fuzzAddIn, fuzzAddOut]{
		ID:          "add",
		Description: "Adds two integers",
		Execute: func(ctx tools.Context, in fuzzAddIn) (fuzzAddOut, error) {
			fuzzRecord(ctx, in)
			return fuzzAddOut{Sum: in.A + in.B}, nil
		},
	})

	dynamic := func(id, text string, opts ...schema.Option) *tools.Tool {
		s, err := schema.FromJSON([]byte(text), opts...)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", id, err))
		}
		t, err := tools.NewDynamic(tools.DynamicConfig{
			ID:          id,
			Description: "dynamic tool " + id,
			InputSchema: s,
			Execute: func(ctx tools.Context, in any) (any, error) {
				fuzzRecord(ctx, in)
				return map[string]any{"ok": true}, nil
			},
		})
		if err != nil {
			panic(err)
		}
		return t
	}

	return []fuzzTool{
		{name: "profile", tool: profile, typed: true},
		{name: "add", tool: add, typed: true, inv: &tools.Invocation{ToolName: "addNumbers", ToolCallID: "call-1"}},
		{name: "rich", tool: dynamic("rich-tool", fuzzRichSchema)},
		{name: "prompt", tool: dynamic("prompt-tool", fuzzPromptSchema, schema.ZodObjects()), inv: &tools.Invocation{ToolName: "search"}},
		{name: "resume", tool: resumable, typed: true, argsAsResume: true},
	}
})

// fuzzResumeArgs are the (valid) arguments of the resume calls.
const fuzzResumeArgs = `{"name":"n","home":{"street":"s","city":"c"}}`

// fuzzArgSeeds are interesting argument texts.
var fuzzArgSeeds = []string{
	``, ` `, `null`, ` null `, `{}`, `[]`, `""`, `0`, `true`, `"null"`, `"{}"`,
	`{"a":1,"b":2}`, `{"a":"1","b":"2"}`, `{"a":1.0,"b":2}`, `{"a":1.5,"b":2}`, `{"a":1e2,"b":2}`, `{"a":1e400,"b":-1e400}`,
	`{"a":99999999999999999999,"b":1}`, `{"a":-9223372036854775808,"b":0}`, `{"a":null,"b":null}`, `{"a":1,"b":2,"c":3}`,
	`{"a":1,"b":2,"a":"x"}`, `{"a":"x","a":1,"b":2}`, `{"a":1,"b":2}}`, `{"a":1,"b":2}]`, `{"a":1,"b":2} x`, `{"a":1,"b":2}{}`,
	"\xef\xbb\xbf{\"a\":1,\"b\":2}", "\u00a0{\"a\":1,\"b\":2}", `{"a":NaN,"b":Infinity}`, `{"a":-Infinity,"b":+1}`, `{"a":0x10,"b":.5}`,
	`"{\"a\":1,\"b\":2}"`, `"\"{\\\"a\\\":1}\""`,
	`{"name":"Ada","home":{"street":"1 Main","city":"X"}}`,
	`{"name":"Ada","age":36,"score":9.5,"home":{"street":"1 Main","city":"X","zip":"123"},"work":{"street":"2","city":"Y"},"contacts":[{"kind":"email","value":"a@b.c"}],"labels":{"k":"v"},"counts":{"x":1},"nick":"A","extra":{"any":[1,"two",null,{"three":3}]},"matrix":[[1,2],[3.5]]}`,
	`{"name":"Ada","home":{"street":"1 Main","city":"X"},"mode":"suspend"}`,
	`{"name":"Ada","home":{"street":"1 Main","city":"X"},"mode":"fail"}`,
	`{"name":null,"age":null,"score":null,"home":null,"work":null,"contacts":null,"labels":null,"counts":null,"nick":null,"extra":null,"matrix":null,"mode":null}`,
	`{"name":"Ada","home":{"street":null,"city":null,"zip":null},"contacts":[null],"labels":{"k":null},"counts":{"x":null},"matrix":[null,[null]]}`,
	`{"name":"Ada","home":"{\"street\":\"s\",\"city\":\"c\"}","contacts":"[{\"kind\":\"k\",\"value\":\"v\"}]"}`,
	`{"name":"Ada","home":"{\"street\":\"s\"","contacts":"[1,2]"}`,
	`{"name":1,"age":"36","score":"high","home":[],"work":"nowhere","contacts":{},"labels":[],"counts":{"x":"1"},"nick":5,"matrix":[[true]]}`,
	`{"name":"` + "\xff\xfe" + `","home":{"street":"\ud800","city":"\u0000"},"labels":{"` + "\xc3\x28" + `":"v"}}`,
	`{"name":"😀🏳️‍🌈","home":{"street":"日本","city":"\u2028\u2029"},"nick":"\u00e9"}`,
	`{"name":"Ada","home":{"street":"s","city":"c"},"age":9223372036854775807,"score":1.7976931348623157e308}`,
	`{"name":"Ada","home":{"street":"s","city":"c"},"age":9223372036854775808,"score":1e309}`,
	`{"id":"abc","kind":"a"}`,
	`{"id":"abc","kind":"a","count":5,"ratio":0.5,"email":"a@b.co","tags":["x","y"],"point":[1,2],"shape":{"type":"circle","r":1},"value":null,"tree":{"value":1,"children":[{"value":2,"children":[]}]},"meta":{"k":"v"},"nick":null,"mode":"slow"}`,
	`{"id":"Abc","kind":"d","count":101,"ratio":0,"email":"x","tags":["","toolongtag","x","x","y","z"],"point":[1,2,3],"shape":{"type":"square"},"value":[],"tree":{"value":1.5,"children":[{}]},"meta":{"K":1},"nick":"a","mode":"medium","extra":1}`,
	`{"id":null,"kind":null,"count":null,"tags":null,"shape":null,"tree":null,"meta":null,"nick":null,"mode":null}`,
	`{"id":"abc","kind":"a","tags":"[\"x\"]","shape":"{\"type\":\"rect\",\"w\":1,\"h\":2}","tree":"{\"value\":1}"}`,
	`{"id":"abc","kind":"a","shape":{"type":"rect","w":1}}`, `{"id":"abc","kind":"a","shape":{"r":1}}`,
	`{"query":"weather in Paris"}`, `{"prompt":null,"message":"hi"}`, `{"prompt":"","input":"x"}`, `{"message":5,"input":"in"}`,
	`{"prompt":"p","filters":"[\"a\",\"b\"]","options":"{\"lang\":\"en\"}"}`, `{"prompt":"p","filters":"[oops"}`, `{"prompt":"p","limit":0}`,
	`{"approved":true}`, `{"approved":"yes","note":null}`, `{"approved":false,"note":"n","extra":[1]}`,
	`[1,2]`, `[{"a":1,"b":2}]`, `{"a":{"b":{"c":{}}}}`, `{"":1}`, `{"__proto__":{"a":1},"constructor":1}`,
	`{"a":1,"b":2` /* truncated */, `{"a":1,"b":}`, `{"a" 1}`, `{'a':1}`, `{a:1}`, `[1,]`, `{"a":1,}`, "{\"a\":\"\x01\"}", `"\x"`, `"\u12"`,
}

func fuzzSeedArgs() [][]byte {
	var seeds [][]byte
	for _, s := range fuzzArgSeeds {
		seeds = append(seeds, []byte(s))
	}
	// Seeds stay small (a few KB): the fuzzer minimizes every new
	// interesting input, and minimizing a large one takes the whole run.
	// TestBadInputDeepNesting and TestBadInputHugeString cover the big ones.
	seeds = append(seeds,
		[]byte(strings.Repeat("[", 800)+strings.Repeat("]", 800)),
		[]byte(strings.Repeat(`{"a":`, 300)+"1"+strings.Repeat("}", 300)),
		[]byte(`{"id":"a","kind":"a","tree":`+strings.Repeat(`{"value":1,"children":[`, 60)+`{"value":"x"}`+strings.Repeat(`]}`, 60)+`}`),
		[]byte(`{"name":"Ada","home":{"street":"s","city":"c"},"extra":`+strings.Repeat("[", 200)+strings.Repeat("]", 200)+`}`),
		[]byte(`{"a":"`+strings.Repeat("x", 2000)+`","b":2}`),
		[]byte(`{"name":"`+strings.Repeat("é😀", 300)+`","home":{"street":"s","city":"c"}}`),
	)
	return seeds
}

func FuzzToolExecute(f *testing.F) {
	for _, s := range fuzzSeedArgs() {
		f.Add(s)
	}
	list := fuzzTools()
	f.Fuzz(func(t *testing.T, args []byte) {
		defer fuzzWatchdog("FuzzToolExecute", args)()
		for _, ft := range list {
			checkToolCall(t, ft, args)
		}
	})
}

// argsKind classifies argument bytes the way JSON.parse would.
type argsKind int

const (
	argsAbsent    argsKind = iota // empty or whitespace: no arguments
	argsValid                     // one JSON value
	argsMalformed                 // not JSON
)

func classifyArgs(args []byte) argsKind {
	switch {
	case len(bytes.Trim(args, " \t\r\n")) == 0: // JSON whitespace only
		return argsAbsent
	case json.Valid(args):
		return argsValid
	}
	return argsMalformed
}

func toolLabel(ft fuzzTool) string {
	if ft.inv != nil && ft.inv.ToolName != "" {
		return ft.inv.ToolName
	}
	return ft.tool.ID()
}

// checkToolCall runs one call and checks the properties in the file
// comment.
func checkToolCall(t *testing.T, ft fuzzTool, input []byte) {
	t.Helper()
	rec := &fuzzRecorder{}
	ctx := context.WithValue(context.Background(), fuzzRecorderKey{}, rec)
	args, inv := json.RawMessage(input), ft.inv
	if ft.argsAsResume {
		args = json.RawMessage(fuzzResumeArgs)
		inv = &tools.Invocation{ResumeData: json.RawMessage(append([]byte{}, input...))}
	}
	what := fmt.Sprintf("tool %s, input %.300q", ft.name, input)
	res, err := ft.tool.Execute(ctx, args, inv)

	kind := classifyArgs(input)
	var pe *tools.PanicError
	if errors.As(err, &pe) {
		t.Fatalf("%s: the pipeline panicked: %v\n%s", what, pe.Value, pe.Stack)
	}
	if (res == nil) == (err == nil) {
		t.Fatalf("%s: want exactly one of result and error, got %#v and %v", what, res, err)
	}
	if err != nil {
		checkCallError(t, ft, what, kind, input, rec, err)
	} else {
		checkCallResult(t, ft, what, kind, input, rec, res)
	}

	// Determinism: the same call again gives the same answer.
	res2, err2 := ft.tool.Execute(context.WithValue(context.Background(), fuzzRecorderKey{}, &fuzzRecorder{}), args, inv)
	if fmt.Sprint(err) != fmt.Sprint(err2) {
		t.Errorf("%s: not deterministic: error %v, then %v", what, err, err2)
	} else if res != nil {
		if a, b := resultText(res), resultText(res2); a != b {
			t.Errorf("%s: not deterministic:\n first %s\nsecond %s", what, a, b)
		}
	}
}

func resultText(r *tools.Result) string {
	if r == nil {
		return "<nil>"
	}
	b, err := r.JSON()
	s := string(b)
	if err != nil {
		s = "JSON error: " + err.Error()
	}
	if r.Suspension != nil {
		s += " suspended with " + string(r.Suspension.Payload)
	}
	return s
}

func checkCallError(t *testing.T, ft fuzzTool, what string, kind argsKind, input []byte, rec *fuzzRecorder, err error) {
	t.Helper()
	malformed := errors.Is(err, tools.ErrMalformedArguments)
	if ft.argsAsResume {
		// Resume data that is not JSON is a plain error.
		if kind == argsMalformed {
			if rec.ran {
				t.Errorf("%s: Execute ran on malformed resume data", what)
			}
			return
		}
	}
	switch {
	case kind == argsMalformed:
		if !malformed {
			t.Errorf("%s: malformed arguments gave %v, want ErrMalformedArguments", what, err)
		}
		if rec.ran {
			t.Errorf("%s: Execute ran on malformed arguments", what)
		}
		return
	case malformed:
		t.Errorf("%s: JSON arguments reported as malformed: %v", what, err)
		return
	}
	switch {
	case errors.Is(err, errFuzzToolFailed) && rec.ran:
		// The tool's own error.
	default:
		t.Errorf("%s: unexpected error %v", what, err)
	}
}

func checkCallResult(t *testing.T, ft fuzzTool, what string, kind argsKind, input []byte, rec *fuzzRecorder, res *tools.Result) {
	t.Helper()
	if kind == argsMalformed && !ft.argsAsResume {
		t.Errorf("%s: malformed arguments gave a result %s", what, resultText(res))
	}
	if res.Output == nil && res.Suspension == nil {
		t.Fatalf("%s: result with neither output nor suspension", what)
	}
	if ve := res.ValidationError(); ve != nil {
		if rec.ran {
			// Only the output can fail once Execute ran (the add tool's
			// sum can leave the safe integers its int allows).
			checkValidationError(t, what, res, ve, toolLabel(ft), true, nil, false)
			return
		}
		raw := input
		if kind == argsAbsent {
			raw = nil
		}
		checkValidationError(t, what, res, ve, toolLabel(ft), false, raw, kind == argsValid)
		return
	}
	if !rec.ran {
		t.Fatalf("%s: result %s without Execute running", what, resultText(res))
	}
	if res.Suspension != nil {
		if !json.Valid(res.Suspension.Payload) {
			t.Errorf("%s: suspension payload is not JSON: %q", what, res.Suspension.Payload)
		}
	} else if _, err := res.JSON(); err != nil {
		t.Errorf("%s: result JSON: %v", what, err)
	}
	if ft.argsAsResume {
		if !bytes.Equal(rec.resume, input) {
			t.Errorf("%s: Execute saw resume data %q", what, rec.resume)
		}
		return
	}
	// What Execute received validates against the input schema.
	b, err := json.Marshal(rec.in)
	if err != nil {
		t.Fatalf("%s: cannot encode what Execute received (%#v): %v", what, rec.in, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if _, issues := ft.tool.InputSchema().Validate(v); len(issues) > 0 {
		t.Errorf("%s: Execute received %s, which does not validate: %+v", what, b, issues)
	}
}

// checkValidationError checks Mastra's shape, for an input validation
// error or (output) an output one. raw is the arguments' text, nil when
// there were none; exactFooter: the footer must be the rendered arguments,
// not "[Unable to serialize data]".
func checkValidationError(t *testing.T, what string, res *tools.Result, ve *tools.ValidationError, label string, output bool, raw []byte, exactFooter bool) {
	t.Helper()
	if len(ve.Issues) == 0 {
		t.Errorf("%s: validation error without issues", what)
	}
	b, err := res.JSON()
	if err != nil {
		t.Fatalf("%s: validation error JSON: %v", what, err)
	}
	if !bytes.HasPrefix(b, []byte(`{"error":true,"message":`)) {
		t.Errorf("%s: validation error JSON does not start as Mastra's: %.100s", what, b)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatalf("%s: validation error JSON %q: %v", what, b, err)
	}
	if len(top) != 3 || string(top["error"]) != "true" || top["message"] == nil || top["validationErrors"] == nil {
		t.Fatalf("%s: validation error keys: %.300s", what, b)
	}
	var msg string
	if err := json.Unmarshal(top["message"], &msg); err != nil || msg != ve.Message {
		t.Errorf("%s: message %q does not round-trip (%v)", what, top["message"], err)
	}
	var tree any
	if err := json.Unmarshal(top["validationErrors"], &tree); err != nil {
		t.Fatal(err)
	}
	count := checkFieldTree(t, what, tree, 0)
	if count != len(ve.Issues) {
		t.Errorf("%s: %d messages in validationErrors, %d issues", what, count, len(ve.Issues))
	}
	for _, is := range ve.Issues {
		node := tree
		for i, seg := range is.Path {
			fields := node.(map[string]any)["fields"].(map[string]any)
			if next := fields[seg]; next != nil {
				node = next
				continue
			}
			// A very deep path ends in one key: the rest of the path
			// joined with ".", keeping the tree within JSON's depth
			// limits.
			node = fields[strings.Join(is.Path[i:], ".")]
			if node == nil {
				t.Fatalf("%s: issue path %.300q missing from validationErrors", what, is.Path)
			}
			break
		}
		found := false
		for _, m := range node.(map[string]any)["errors"].([]any) {
			found = found || m == is.Message
		}
		if !found {
			t.Errorf("%s: issue %q not under its path in validationErrors", what, is.Message)
		}
	}

	header := "Tool input validation failed for " + label + ". Please fix the following errors and try again:\n"
	footerLabel := "Provided arguments: "
	if output {
		header = "Tool output validation failed for " + label + ". The tool returned invalid output:\n"
		footerLabel = "Returned output: "
	}
	if len(ve.Issues) > schema.MaxIssues || (ve.Truncated && len(ve.Issues) != schema.MaxIssues) {
		t.Errorf("%s: %d issues listed (truncated %v)", what, len(ve.Issues), ve.Truncated)
	}
	lines := make([]string, len(ve.Issues))
	for i, is := range ve.Issues {
		lines[i] = "- " + is.PathString() + ": " + is.Message
	}
	if ve.Truncated {
		lines = append(lines, tools.LeftOutLine)
	}
	body := header + strings.Join(lines, "\n") + "\n\n" + footerLabel
	footer, ok := strings.CutPrefix(ve.Message, body)
	if !ok {
		t.Fatalf("%s: message does not read header, issues, footer:\n%s", what, ve.Message)
	}
	switch {
	case output:
	case raw == nil:
		if footer != "[Unable to serialize data]" {
			t.Errorf("%s: footer for absent arguments: %q", what, footer)
		}
	case exactFooter:
		if cut, ok := strings.CutSuffix(footer, "... (truncated)"); ok {
			if n := utf16Len(cut); n != 200 {
				t.Errorf("%s: truncated footer is %d UTF-16 units long, want 200", what, n)
			}
		} else if !json.Valid([]byte(footer)) {
			t.Errorf("%s: footer is neither JSON nor truncated: %q", what, footer)
		}
	}
}

// checkFieldTree checks one {errors, fields} level and returns the number
// of messages in it.
func checkFieldTree(t *testing.T, what string, v any, depth int) int {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok || len(m) != 2 {
		t.Fatalf("%s: validationErrors level %v is not {errors, fields}", what, v)
	}
	errs, ok1 := m["errors"].([]any)
	fields, ok2 := m["fields"].(map[string]any)
	if !ok1 || !ok2 {
		t.Fatalf("%s: validationErrors level %v is not {errors: [], fields: {}}", what, v)
	}
	n := 0
	for _, e := range errs {
		if s, ok := e.(string); !ok || s == "" {
			t.Errorf("%s: validationErrors message %v", what, e)
		}
		n++
	}
	for _, sub := range fields {
		n += checkFieldTree(t, what, sub, depth+1)
	}
	return n
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if utf16.RuneLen(r) == 2 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// fuzzWatchdog crashes the process, naming the input, if one call runs
// longer than work could (60s, or $FUZZ_HANG_AFTER); the fuzzing engine
// then records the input as a failure. Go's fuzzing has no such limit of
// its own. Call it as `defer fuzzWatchdog(name, input)()`.
func fuzzWatchdog(what string, input []byte) func() {
	after := 60 * time.Second
	if d, err := time.ParseDuration(os.Getenv("FUZZ_HANG_AFTER")); err == nil {
		after = d
	}
	timer := time.AfterFunc(after, func() {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		if len(input) > 2000 {
			input = input[:2000]
		}
		fmt.Fprintf(os.Stderr, "%s: still running after %v on input %q\n%s\n", what, after, input, buf)
		panic(what + ": hang")
	})
	return func() { timer.Stop() }
}
