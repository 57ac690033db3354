package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gomastra/mastra/internal/jsonvalue"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// Bad arguments, one kind per test: the call must end in a *ValidationError
// result or a Go error (ErrMalformedArguments when the text is not JSON),
// never a panic or a crash, and take memory in proportion to its input.
// Memory is checked with runtime.MemStats (bytes allocated during the
// call); no test measures wall-clock time.
//
// Tests named "...BUG..." in their skip message pin down a known bug: each
// passes once the bug is fixed and its t.Skip removed.

// badTool returns the fuzz tool named name (see fuzz_test.go).
func badTool(t *testing.T, name string) fuzzTool {
	t.Helper()
	for _, ft := range fuzzTools() {
		if ft.name == name {
			return ft
		}
	}
	t.Fatalf("no tool %q", name)
	return fuzzTool{}
}

// badCall runs ft on args and returns what happened, checking the general
// properties of checkToolCall on the way.
func badCall(t *testing.T, ft fuzzTool, args string) (*tools.Result, *fuzzRecorder, error) {
	t.Helper()
	rec := &fuzzRecorder{}
	ctx := context.WithValue(context.Background(), fuzzRecorderKey{}, rec)
	res, err := ft.tool.Execute(ctx, json.RawMessage(args), ft.inv)
	var pe *tools.PanicError
	if errors.As(err, &pe) {
		t.Fatalf("the pipeline panicked: %v\n%s", pe.Value, pe.Stack)
	}
	if (res == nil) == (err == nil) {
		t.Fatalf("want exactly one of result and error, got %#v and %v", res, err)
	}
	if res != nil {
		if res.Output == nil && res.Suspension == nil {
			t.Fatalf("result with neither output nor suspension")
		}
		if ve := res.ValidationError(); ve != nil {
			raw := []byte(args)
			if strings.TrimSpace(args) == "" {
				raw = nil
			}
			// Once Execute ran, only its output can fail validation.
			checkValidationError(t, fmt.Sprintf("args %.100q", args), res, ve, toolLabel(ft), rec.ran, raw, json.Valid(raw))
		} else if !rec.ran {
			t.Errorf("result without Execute running")
		}
	}
	return res, rec, err
}

// wantIssues asserts a validation error result with exactly these
// "- path: message" lines.
func wantIssues(t *testing.T, res *tools.Result, err error, lines ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("want a validation error, got error %v", err)
	}
	ve := res.ValidationError()
	if ve == nil {
		t.Fatalf("want a validation error, got %s", resultText(res))
	}
	var got []string
	for _, is := range ve.Issues {
		got = append(got, "- "+is.PathString()+": "+is.Message)
	}
	if strings.Join(got, "\n") != strings.Join(lines, "\n") {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(lines, "\n"))
	}
}

// wantOutput asserts that Execute ran and the result's JSON is want.
func wantOutput(t *testing.T, res *tools.Result, err error, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("want output %s, got error %v", want, err)
	}
	if ve := res.ValidationError(); ve != nil {
		t.Fatalf("want output %s, got validation error:\n%s", want, ve.Message)
	}
	if got := resultText(res); got != want {
		t.Errorf("output %s, want %s", got, want)
	}
}

func wantMalformed(t *testing.T, res *tools.Result, err error, rec *fuzzRecorder) {
	t.Helper()
	if !errors.Is(err, tools.ErrMalformedArguments) {
		t.Fatalf("want ErrMalformedArguments, got %v, %s", err, resultText(res))
	}
	if rec.ran {
		t.Errorf("Execute ran on malformed arguments")
	}
}

// allocated returns the bytes allocated while f ran (all goroutines; the
// tests using it are not parallel).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func footerOf(t *testing.T, res *tools.Result) string {
	t.Helper()
	ve := res.ValidationError()
	if ve == nil {
		t.Fatalf("not a validation error: %s", resultText(res))
	}
	_, footer, ok := strings.Cut(ve.Message, "\n\nProvided arguments: ")
	if !ok {
		t.Fatalf("no footer in %q", ve.Message)
	}
	return footer
}

const addAbsent = "- a: Invalid input: expected number, received undefined\n- b: Invalid input: expected number, received undefined"

func TestBadInputEmptyAndNullArguments(t *testing.T) {
	add := badTool(t, "add")
	for _, args := range []string{"", " ", "\n\t\r ", "null", " null\n"} {
		t.Run(strconv.Quote(args), func(t *testing.T) {
			res, _, err := badCall(t, add, args)
			wantIssues(t, res, err, strings.Split(addAbsent, "\n")...)
			want := "[Unable to serialize data]"
			if strings.TrimSpace(args) == "null" {
				want = "null"
			}
			if got := footerOf(t, res); got != want {
				t.Errorf("footer %q, want %q", got, want)
			}
		})
	}
	t.Run("nil args", func(t *testing.T) {
		res, err := add.tool.Execute(context.Background(), nil, nil)
		wantIssues(t, res, err, strings.Split(addAbsent, "\n")...)
	})
	// A tool whose every parameter is optional runs on no arguments: the
	// pipeline turns a missing or null object into {}.
	opt := tools.New(tools.Config[struct {
		Q string `json:"q,omitempty"`
	}, string]{
		ID: "opt", Description: "all optional",
		Execute: func(_ tools.Context, in struct {
			Q string `json:"q,omitempty"`
		}) (string, error) {
			return "q=" + in.Q, nil
		},
	})
	for _, args := range []string{"", "null", "{}", `{"q":null}`} {
		res, err := opt.Execute(context.Background(), json.RawMessage(args), nil)
		wantOutput(t, res, err, `"q="`)
	}
}

// TestBadInputAddToolEveryTypeAtEveryPosition puts every JSON type at
// every position of the add tool's arguments.
func TestBadInputAddToolEveryTypeAtEveryPosition(t *testing.T) {
	add := badTool(t, "add")
	type outcome struct {
		sum   int    // when ok
		issue string // the message otherwise
		ok    bool
	}
	values := []struct {
		text string
		want outcome
	}{
		{`1`, outcome{sum: 1, ok: true}},
		{`0`, outcome{sum: 0, ok: true}},
		{`-0`, outcome{sum: 0, ok: true}},
		{`-7`, outcome{sum: -7, ok: true}},
		{`4503599627370495`, outcome{sum: 4503599627370495, ok: true}},
		{`-4503599627370495`, outcome{sum: -4503599627370495, ok: true}},
		{`1.5`, outcome{issue: "Invalid input: expected int, received number"}},
		{`-0.000001`, outcome{issue: "Invalid input: expected int, received number"}},
		{`1e400`, outcome{issue: "Invalid input: expected int, received number"}},
		{`"1"`, outcome{issue: "Invalid input: expected number, received string"}},
		{`""`, outcome{issue: "Invalid input: expected number, received string"}},
		{`"NaN"`, outcome{issue: "Invalid input: expected number, received string"}},
		{`true`, outcome{issue: "Invalid input: expected number, received boolean"}},
		{`false`, outcome{issue: "Invalid input: expected number, received boolean"}},
		{`null`, outcome{issue: "Invalid input: expected number, received null"}},
		{`[]`, outcome{issue: "Invalid input: expected number, received array"}},
		{`[1]`, outcome{issue: "Invalid input: expected number, received array"}},
		{`{}`, outcome{issue: "Invalid input: expected number, received object"}},
		{`{"a":1}`, outcome{issue: "Invalid input: expected number, received object"}},
	}
	for _, v := range values {
		t.Run("a="+v.text, func(t *testing.T) {
			res, _, err := badCall(t, add, `{"a":`+v.text+`,"b":2}`)
			if v.want.ok {
				wantOutput(t, res, err, fmt.Sprintf(`{"sum":%d}`, v.want.sum+2))
			} else {
				wantIssues(t, res, err, "- a: "+v.want.issue)
			}
		})
		t.Run("b="+v.text, func(t *testing.T) {
			res, _, err := badCall(t, add, `{"a":2,"b":`+v.text+`}`)
			if v.want.ok {
				wantOutput(t, res, err, fmt.Sprintf(`{"sum":%d}`, v.want.sum+2))
			} else {
				wantIssues(t, res, err, "- b: "+v.want.issue)
			}
		})
		t.Run("both="+v.text, func(t *testing.T) {
			res, _, err := badCall(t, add, `{"b":`+v.text+`,"a":`+v.text+`}`)
			if v.want.ok {
				wantOutput(t, res, err, fmt.Sprintf(`{"sum":%d}`, 2*v.want.sum))
			} else {
				wantIssues(t, res, err, "- a: "+v.want.issue, "- b: "+v.want.issue)
			}
		})
		t.Run("extra="+v.text, func(t *testing.T) {
			// Unknown keys are stripped (Zod's z.object), whatever they hold.
			res, rec, err := badCall(t, add, `{"a":1,"b":2,"c":`+v.text+`}`)
			wantOutput(t, res, err, `{"sum":3}`)
			if rec.in != (fuzzAddIn{A: 1, B: 2}) {
				t.Errorf("Execute received %#v", rec.in)
			}
		})
		t.Run("root="+v.text, func(t *testing.T) {
			res, _, err := badCall(t, add, v.text)
			switch {
			case v.text == "null":
				wantIssues(t, res, err, strings.Split(addAbsent, "\n")...)
			case strings.HasPrefix(v.text, "{"):
				if v.text == "{}" {
					wantIssues(t, res, err, strings.Split(addAbsent, "\n")...)
				} else {
					wantIssues(t, res, err, "- b: Invalid input: expected number, received undefined")
				}
			default:
				wantIssues(t, res, err, "- root: Invalid input: expected object, received "+jsType(v.text))
			}
		})
	}
}

// jsType is the type Zod names for a JSON text's value.
func jsType(text string) string {
	switch text[0] {
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "number"
}

// TestBadInputIntegralNumbersForIntFields: JSON (and JavaScript) has one
// number type, so 1.0, 1e2 and 100E-2 are the integers 1, 100 and 1: the
// tool runs with them.
func TestBadInputIntegralNumbersForIntFields(t *testing.T) {
	add := badTool(t, "add")
	for _, c := range []struct{ a, sum string }{{`1.0`, `3`}, {`1e2`, `102`}, {`100E-2`, `3`}, {`-0.0`, `2`}, {`2.000`, `4`}, {`-1E+1`, `-8`}} {
		res, rec, err := badCall(t, add, `{"a":`+c.a+`,"b":2}`)
		wantOutput(t, res, err, `{"sum":`+c.sum+`}`)
		if err == nil {
			// What Execute received validates (checked again here since
			// the fuzz target relies on it).
			b, _ := json.Marshal(rec.in)
			if !strings.HasPrefix(string(b), `{"a":`) {
				t.Errorf("Execute received %s", b)
			}
		}
	}
}

// TestBadInputIntegerRange: a Go int field takes JavaScript's safe
// integers, as Zod's z.int() does; beyond them the model is told so (a
// decoding error would tell it nothing). A sum beyond them is an invalid
// output.
func TestBadInputIntegerRange(t *testing.T) {
	add := badTool(t, "add")
	for _, a := range []string{`99999999999999999999`, `-9223372036854775809`, `1e19`, `9007199254740992`} {
		res, _, err := badCall(t, add, `{"a":`+a+`,"b":2}`)
		if err != nil {
			t.Errorf("a=%s: want a validation error, got %v", a, err)
		} else if res.ValidationError() == nil {
			t.Errorf("a=%s: want a validation error, got %s", a, resultText(res))
		}
	}
	res, _, err := badCall(t, add, `{"a":-9007199254740991,"b":9007199254740991}`)
	wantOutput(t, res, err, `{"sum":0}`)
	res, rec, err := badCall(t, add, `{"a":9007199254740991,"b":9007199254740991}`)
	if err != nil || !rec.ran || res.ValidationError() == nil || !strings.HasPrefix(res.ValidationError().Message, "Tool output validation failed for addNumbers.") {
		t.Errorf("sum beyond the safe integers: want an output validation error, got %v %s", err, resultText(res))
	}
}

// TestBadInputInfiniteNumbers: a number literal beyond float64 is Infinity
// in JavaScript, which Zod's z.number() rejects ("Invalid input: expected
// number, received number"): a validation error, never ±Inf reaching
// Execute (dynamic tools) or a decoding error (float64 fields).
func TestBadInputInfiniteNumbers(t *testing.T) {
	rich := badTool(t, "rich")
	res, rec, err := badCall(t, rich, `{"id":"abc","kind":"a","value":1e400}`)
	if err != nil || res.ValidationError() == nil {
		t.Errorf("rich value 1e400: want a validation error, got %v %s (Execute received %#v)", err, resultText(res), rec.in)
	}
	profile := badTool(t, "profile")
	res, _, err = badCall(t, profile, `{"name":"n","home":{"street":"s","city":"c"},"score":-1e309}`)
	if err != nil || res.ValidationError() == nil {
		t.Errorf("profile score -1e309: want a validation error, got %v %s", err, resultText(res))
	}
}

// nullVariants returns v with each value inside it (object member or
// array element, at any depth) replaced by null, one at a time, plus v
// with every leaf null at once.
func nullVariants(v any) []any {
	var out []any
	var walk func(cur any, set func(any))
	walk = func(cur any, set func(any)) {
		switch t := cur.(type) {
		case map[string]any:
			for _, k := range sortedKeys(t) {
				old := t[k]
				t[k] = nil
				out = append(out, deepCopyJSON(v))
				t[k] = old
				walk(old, func(x any) { t[k] = x })
			}
		case []any:
			for i := range t {
				old := t[i]
				t[i] = nil
				out = append(out, deepCopyJSON(v))
				t[i] = old
				walk(old, func(x any) { t[i] = x })
			}
		}
	}
	walk(v, nil)
	// Every scalar nulled, the shape kept.
	return append(out, jsonvalue.Map(v, func(any) any { return nil }))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func deepCopyJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestBadInputNullsEverywhere(t *testing.T) {
	full := map[string]string{
		"profile": `{"name":"Ada","age":36,"score":9.5,"home":{"street":"1 Main","city":"X","zip":"123"},"work":{"street":"2","city":"Y"},"contacts":[{"kind":"email","value":"a@b.c"}],"labels":{"k":"v"},"counts":{"x":1},"nick":"A","extra":{"any":[1,"two",{"three":3}]},"matrix":[[1,2],[3.5]]}`,
		"rich":    `{"id":"abc","kind":"a","count":5,"ratio":0.5,"email":"a@b.co","tags":["x","y"],"point":[1,2],"shape":{"type":"circle","r":1},"value":"v","tree":{"value":1,"children":[{"value":2,"children":[]}]},"meta":{"k":"v"},"nick":"ab","mode":"slow","prompt":"p"}`,
		"prompt":  `{"prompt":"p","limit":3,"filters":["a"],"options":{"lang":"en"}}`,
		"add":     `{"a":1,"b":2}`,
	}
	for name, text := range full {
		ft := badTool(t, name)
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatal(err)
		}
		for i, variant := range nullVariants(v) {
			args, _ := json.Marshal(variant)
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				_, rec, err := badCall(t, ft, string(args))
				if err != nil {
					t.Fatalf("%s: nulls are JSON, yet the call failed: %v", args, err)
				}
				if rec.ran {
					b, _ := json.Marshal(rec.in)
					var got any
					_ = json.Unmarshal(b, &got)
					if _, issues := ft.tool.InputSchema().Validate(got); len(issues) > 0 {
						t.Errorf("%s: Execute received %s, which does not validate: %v", args, b, issues)
					}
				}
			})
		}
	}
	// Specific expectations (Mastra: optional nulls are stripped and the
	// call goes on; a null where a value is required is reported as null).
	profile := badTool(t, "profile")
	res, rec, err := badCall(t, profile, `{"name":"Ada","home":{"street":"s","city":"c","zip":null},"work":null,"nick":null,"contacts":null,"labels":null,"extra":null}`)
	wantOutput(t, res, err, `{"name":"Ada","contacts":0}`)
	if in := rec.in.(fuzzProfileIn); in.Work != nil || in.Nick != nil || in.Home.Zip != nil || in.Extra != nil {
		t.Errorf("Execute received %#v", in)
	}
	res, _, err = badCall(t, profile, `{"name":null,"home":{"street":"s","city":null}}`)
	wantIssues(t, res, err,
		"- name: Invalid input: expected string, received null",
		"- home.city: Invalid input: expected string, received null")
	res, _, err = badCall(t, profile, `{"name":"Ada","home":{"street":"s","city":"c"},"contacts":[null]}`)
	wantIssues(t, res, err, "- contacts.0: Invalid input: expected object, received null")
}

func TestBadInputDeepNesting(t *testing.T) {
	deep := map[string]string{
		"arrays 100000":  strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		"objects 100000": strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000),
		"mixed 100000":   strings.Repeat(`[{"a":`, 50000) + "1" + strings.Repeat("}]", 50000),
		"arrays 10001":   strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		"unclosed":       strings.Repeat("[", 100000),
		"in a field":     `{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `,"b":2}`,
	}
	// encoding/json refuses nesting deeper than 10000: the arguments are
	// malformed, for every tool, without a crash.
	for name, args := range deep {
		for _, ft := range fuzzTools() {
			if ft.argsAsResume {
				continue
			}
			t.Run(name+"/"+ft.name, func(t *testing.T) {
				res, rec, err := badCall(t, ft, args)
				wantMalformed(t, res, err, rec)
			})
		}
	}
	t.Run("resume data 100000", func(t *testing.T) {
		ft := badTool(t, "resume")
		rec := &fuzzRecorder{}
		ctx := context.WithValue(context.Background(), fuzzRecorderKey{}, rec)
		res, err := ft.tool.Execute(ctx, json.RawMessage(fuzzResumeArgs), &tools.Invocation{ResumeData: json.RawMessage(deep["arrays 100000"])})
		if err == nil || res != nil || rec.ran {
			t.Errorf("want an error, got %v %s", err, resultText(res))
		}
	})

	// Within the limit: 9000 levels where the schema accepts anything.
	t.Run("9000 in an any field", func(t *testing.T) {
		profile := badTool(t, "profile")
		args := `{"name":"n","home":{"street":"s","city":"c"},"extra":` + strings.Repeat("[", 9000) + `"leaf"` + strings.Repeat("]", 9000) + `}`
		var res *tools.Result
		var err error
		var rec *fuzzRecorder
		n := allocated(func() { res, rec, err = badCall(t, profile, args) })
		wantOutput(t, res, err, `{"name":"n","contacts":0}`)
		depth, v := 0, rec.in.(fuzzProfileIn).Extra
		for {
			a, ok := v.([]any)
			if !ok || len(a) != 1 {
				break
			}
			depth, v = depth+1, a[0]
		}
		if depth != 9000 || v != "leaf" {
			t.Errorf("Execute received depth %d ending in %#v", depth, v)
		}
		if n > 64<<20 {
			t.Errorf("a %d-byte call allocated %d MB", len(args), n>>20)
		}
	})
	// Failing at the root of a 2000-level value: a validation error whose
	// footer is cut at 200 characters.
	t.Run("2000 as the add tool's arguments", func(t *testing.T) {
		res, _, err := badCall(t, badTool(t, "add"), strings.Repeat("[", 2000)+strings.Repeat("]", 2000))
		wantIssues(t, res, err, "- root: Invalid input: expected object, received array")
		if f := footerOf(t, res); !strings.HasSuffix(f, "... (truncated)") {
			t.Errorf("footer %q", f)
		}
	})
	// Through a recursive $ref: 2000 levels of tree, an error at the leaf.
	t.Run("2000 through a recursive schema", func(t *testing.T) {
		args := `{"id":"abc","kind":"a","tree":` + strings.Repeat(`{"value":1,"children":[`, 2000) + `{"value":"x"}` + strings.Repeat(`]}`, 2000) + `}`
		res, _, err := badCall(t, badTool(t, "rich"), args)
		if err != nil || res.ValidationError() == nil {
			t.Fatalf("want a validation error, got %v %s", err, resultText(res))
		}
		is := res.ValidationError().Issues
		if len(is) != 1 || len(is[0].Path) != 2+2*2000 || is[0].Message != "Invalid input: expected number, received string" {
			t.Errorf("issues %d, first path length %d: %v", len(is), len(is[0].Path), is[0].Message)
		}
	})
}

// TestBadInputDeepArgumentsFooterMemory: the footer of a validation error
// shows at most 200 characters of the arguments; rendering the whole value
// with JSON.stringify's 2-space indentation first would be quadratic in the
// nesting depth (it was: 1.25 GB for these 20 KB).
func TestBadInputDeepArgumentsFooterMemory(t *testing.T) {
	args := strings.Repeat("[", 9999) + strings.Repeat("]", 9999)
	var res *tools.Result
	var err error
	n := allocated(func() { res, _, err = badCall(t, badTool(t, "add"), args) })
	wantIssues(t, res, err, "- root: Invalid input: expected object, received array")
	if n > 64<<20 {
		t.Errorf("a %d-byte call allocated %d MB", len(args), n>>20)
	}
}

// TestBadInputDeepRecursiveSchemaMemory: a value nested d levels deep
// through a recursive schema must not cost O(d²) memory (it did, 4.6 GB
// here, when validation copied the issue path at every level).
func TestBadInputDeepRecursiveSchemaMemory(t *testing.T) {
	args := `{"id":"abc","kind":"a","tree":` + strings.Repeat(`{"value":1,"children":[`, 4999) + `{"value":"x"}` + strings.Repeat(`]}`, 4999) + `}`
	var res *tools.Result
	var err error
	n := allocated(func() { res, err = badTool(t, "rich").tool.Execute(context.Background(), json.RawMessage(args), nil) })
	if err != nil || res.ValidationError() == nil {
		t.Fatalf("want a validation error, got %v %s", err, resultText(res))
	}
	if n > 256<<20 {
		t.Errorf("a %d-byte call allocated %d MB", len(args), n>>20)
	}
}

// TestBadInputDeepIssuePathEncodes: a validation error must encode to
// JSON, however long its issue paths: it is the result the model reads.
// Each path segment nests {"errors","fields"} twice, and encoding/json
// re-checks a MarshalJSON result against its 10000-level limit, so a tree
// following a path of more than about 5000 segments is unencodable.
func TestBadInputDeepIssuePathEncodes(t *testing.T) {
	s, err := schema.FromJSON([]byte(`{"type":"object","properties":{"x":{"$ref":"#/$defs/t"}},"$defs":{"t":{"type":"array","items":{"$ref":"#/$defs/t"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tool, err := tools.NewDynamic(tools.DynamicConfig{ID: "deep", InputSchema: s, Execute: func(tools.Context, any) (any, error) { return "ran", nil }})
	if err != nil {
		t.Fatal(err)
	}
	args := `{"x":` + strings.Repeat("[", 6000) + `"leaf"` + strings.Repeat("]", 6000) + `}`
	res, err := tool.Execute(context.Background(), json.RawMessage(args), nil)
	if err != nil || res.ValidationError() == nil {
		t.Fatalf("want a validation error, got %v %s", err, resultText(res))
	}
	if _, err := res.JSON(); err != nil {
		t.Fatalf("Result.JSON: %v", err)
	}
	if _, err := json.Marshal(res.ValidationError()); err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
}

func TestBadInputHugeString(t *testing.T) {
	size := 10 << 20
	if testing.Short() {
		size = 1 << 20
	}
	huge := strings.Repeat("x", size)
	check := func(t *testing.T, name, args string) (*tools.Result, *fuzzRecorder, error) {
		t.Helper()
		var res *tools.Result
		var err error
		var rec *fuzzRecorder
		n := allocated(func() { res, rec, err = badCall(t, badTool(t, name), args) })
		// Linear: a small multiple of the input (quadratic would be
		// terabytes).
		if n > 64*uint64(len(args)) {
			t.Errorf("a %d MB call allocated %d MB", len(args)>>20, n>>20)
		}
		return res, rec, err
	}
	t.Run("valid name", func(t *testing.T) {
		res, rec, err := check(t, "profile", `{"name":"`+huge+`","home":{"street":"s","city":"c"}}`)
		if err != nil || res.ValidationError() != nil {
			t.Fatalf("got %v %.200s", err, resultText(res))
		}
		if got := len(rec.in.(fuzzProfileIn).Name); got != size {
			t.Errorf("Execute received a %d-byte name", got)
		}
	})
	t.Run("wrong type", func(t *testing.T) {
		res, _, err := check(t, "add", `{"a":"`+huge+`","b":2}`)
		wantIssues(t, res, err, "- a: Invalid input: expected number, received string")
		if f := footerOf(t, res); !strings.HasSuffix(f, "... (truncated)") || len(f) > 300 {
			t.Errorf("footer %q", f)
		}
	})
	t.Run("pattern and max length", func(t *testing.T) {
		res, _, err := check(t, "rich", `{"id":"a`+huge+`","kind":"a","tags":["`+huge+`"],"value":"`+huge+`"}`)
		wantIssues(t, res, err,
			"- id: Invalid string: must match pattern /^[a-z][a-z0-9_-]{0,15}$/",
			"- tags.0: Too big: expected string to have <=8 characters",
			// Zod's union reports the one branch that got past its type.
			"- value: Too big: expected string to have <=20 characters")
	})
	t.Run("huge key", func(t *testing.T) {
		res, _, err := check(t, "add", `{"`+huge+`":1,"a":1,"b":2}`)
		wantOutput(t, res, err, `{"sum":3}`)
		res, _, err = check(t, "rich", `{"`+huge+`":1,"id":"abc","kind":"a"}`)
		if err != nil || res.ValidationError() == nil {
			t.Fatalf("want unrecognized key, got %v", err)
		}
		if is := res.ValidationError().Issues; len(is) != 1 || is[0].Code != "unrecognized_keys" {
			t.Errorf("issues %v", is)
		}
	})
	t.Run("many escapes", func(t *testing.T) {
		res, rec, err := check(t, "profile", `{"name":"`+strings.Repeat(`\u00e9\n`, size/8)+`","home":{"street":"s","city":"c"}}`)
		if err != nil || res.ValidationError() != nil {
			t.Fatalf("got %v", err)
		}
		if got := rec.in.(fuzzProfileIn).Name; len(got) != 3*size/8 {
			t.Errorf("Execute received %d bytes", len(got))
		}
	})
}

func manyKeys(n int, value func(i int) string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%s`, i, value(i))
	}
	b.WriteByte('}')
	return b.String()
}

func TestBadInputManyKeys(t *testing.T) {
	const n = 100000
	t.Run("unknown keys stripped", func(t *testing.T) {
		args := strings.TrimSuffix(manyKeys(n, func(i int) string { return strconv.Itoa(i) }), "}") + `,"a":1,"b":2}`
		res, _, err := badCall(t, badTool(t, "add"), args)
		wantOutput(t, res, err, `{"sum":3}`)
	})
	t.Run("a map of 100k entries", func(t *testing.T) {
		args := `{"name":"n","home":{"street":"s","city":"c"},"labels":` + manyKeys(n, func(i int) string { return `"v"` }) + `}`
		res, rec, err := badCall(t, badTool(t, "profile"), args)
		wantOutput(t, res, err, `{"name":"n","contacts":0}`)
		if got := len(rec.in.(fuzzProfileIn).Labels); got != n {
			t.Errorf("Execute received %d labels", got)
		}
	})
	t.Run("rejected unknown keys", func(t *testing.T) {
		args := strings.TrimSuffix(manyKeys(n, func(int) string { return "1" }), "}") + `,"id":"abc","kind":"a"}`
		var res *tools.Result
		var err error
		alloc := allocated(func() { res, _, err = badCall(t, badTool(t, "rich"), args) })
		if err != nil || res.ValidationError() == nil {
			t.Fatalf("want a validation error, got %v", err)
		}
		is := res.ValidationError().Issues
		if len(is) != 1 || is[0].Code != "unrecognized_keys" || !strings.HasPrefix(is[0].Message, `Unrecognized keys: "k0", "k1", "k10", "k100"`) {
			t.Errorf("issues: %d, %.100v", len(is), is)
		}
		if alloc > 512<<20 {
			t.Errorf("a %d KB call allocated %d MB", len(args)>>10, alloc>>20)
		}
	})
	t.Run("duplicated 100k times", func(t *testing.T) {
		args := `{"a":1,` + strings.Repeat(`"b":1,`, n) + `"b":2}`
		res, _, err := badCall(t, badTool(t, "add"), args)
		wantOutput(t, res, err, `{"sum":3}`)
	})
}

// TestBadInputManyFailingKeys: every one of many map entries has the wrong
// type, and many index-like keys come in reverse order. Building and
// encoding the validation error was O(issues²) (linear FieldErrors
// lookups, an insertion sort in jsjson.OrderKeys): 100k entries took
// 15-20 s. A regression shows as a slow test, not a failure (no clock
// here); -short uses fewer entries.
func TestBadInputManyFailingKeys(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 20000
	}
	args := `{"name":"n","home":{"street":"s","city":"c"},"counts":` + manyKeys(n, func(int) string { return `"x"` }) + `}`
	res, _, err := badCall(t, badTool(t, "profile"), args)
	// One issue per key: the first schema.MaxIssues are listed.
	if err != nil || res.ValidationError() == nil || len(res.ValidationError().Issues) != schema.MaxIssues || !res.ValidationError().Truncated {
		t.Fatalf("want %d issues listed, more left out, got %v", schema.MaxIssues, err)
	}
	var b strings.Builder
	b.WriteByte('{')
	for i := n; i > 0; i-- {
		if i < n {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":1`, i)
	}
	b.WriteByte('}')
	res, _, err = badCall(t, badTool(t, "add"), b.String())
	wantIssues(t, res, err, strings.Split(addAbsent, "\n")...)
}

func TestBadInputNumberLikeTexts(t *testing.T) {
	add := badTool(t, "add")
	for _, text := range []string{"NaN", "-NaN", "Infinity", "-Infinity", "+1", "0x10", ".5", "1.", "01", "-01", "1e", "1e+", "--1", "1_000", "undefined", "- 1", "0b1", "1f", "١"} {
		t.Run(text, func(t *testing.T) {
			res, rec, err := badCall(t, add, `{"a":`+text+`,"b":2}`)
			wantMalformed(t, res, err, rec)
			res, rec, err = badCall(t, add, text)
			wantMalformed(t, res, err, rec)
			res, _, err = badCall(t, add, `{"a":"`+text+`","b":2}`)
			wantIssues(t, res, err, "- a: Invalid input: expected number, received string")
		})
	}
}

func TestBadInputDuplicateKeys(t *testing.T) {
	add := badTool(t, "add")
	// JSON.parse keeps the last value (at the first key's position).
	res, _, err := badCall(t, add, `{"a":"x","a":1,"b":2}`)
	wantOutput(t, res, err, `{"sum":3}`)
	res, _, err = badCall(t, add, `{"a":1,"b":2,"a":"x"}`)
	wantIssues(t, res, err, "- a: Invalid input: expected number, received string")
	if got, want := footerOf(t, res), "{\n  \"a\": \"x\",\n  \"b\": 2\n}"; got != want {
		t.Errorf("footer %q, want %q", got, want)
	}
	res, _, err = badCall(t, badTool(t, "profile"), `{"name":"a","home":{"street":1,"street":"s","city":"c"},"name":"b"}`)
	wantOutput(t, res, err, `{"name":"b","contacts":0}`)
}

func TestBadInputTrailingGarbage(t *testing.T) {
	add := badTool(t, "add")
	for _, args := range []string{
		`{"a":1,"b":2} x`, `{"a":1,"b":2}{}`, `{"a":1,"b":2}{"a":1}`, `{"a":1,"b":2},`, `{"a":1,"b":2} null`,
		`{"a":1,"b":2}` + "\x00", `{"a":1,"b":2}"`, `{"a":1,"b":2} // comment`, `{"a":1,"b":2}/* c */`,
		`{"a":1,"b":2`, `{"a":1,"b":2,}`, `{"a":1 "b":2}`, `[{"a":1,"b":2}`, `1 2`, `"a" "b"`, `nul`, `tru`, `{"a":1,"b":2}` + "\xff",
	} {
		t.Run(strconv.Quote(args), func(t *testing.T) {
			res, rec, err := badCall(t, add, args)
			wantMalformed(t, res, err, rec)
		})
	}
	for _, args := range []string{`{"a":1,"b":2}` + " \n\t\r", " \n\t\r" + `{"a":1,"b":2}`} {
		res, _, err := badCall(t, add, args)
		wantOutput(t, res, err, `{"sum":3}`)
	}
}

// TestBadInputTrailingCloserRejected: anything but JSON whitespace after
// the value, a stray '}' or ']' included, makes the arguments malformed.
func TestBadInputTrailingCloserRejected(t *testing.T) {
	add := badTool(t, "add")
	for _, args := range []string{`{"a":1,"b":2}}`, `{"a":1,"b":2}]`, `{"a":1,"b":2} ]]]`, `{"a":1,"b":2}}{`} {
		res, rec, err := badCall(t, add, args)
		wantMalformed(t, res, err, rec)
	}
}

// TestBadInputUnicodeSpaceRejected: only JSON's own whitespace may
// surround the arguments; other Unicode spaces are not JSON.
func TestBadInputUnicodeSpaceRejected(t *testing.T) {
	add := badTool(t, "add")
	for _, sp := range []string{"\u00a0", "\u0085", "\u2028", "\u3000", "\v", "\f"} {
		res, rec, err := badCall(t, add, sp+`{"a":1,"b":2}`+sp)
		wantMalformed(t, res, err, rec)
	}
}

func TestBadInputByteOrderMark(t *testing.T) {
	add := badTool(t, "add")
	// JSON.parse rejects a BOM; so does the pipeline.
	for _, args := range []string{"\ufeff" + `{"a":1,"b":2}`, "\ufeff", `{"a":1,"b":2}` + "\ufeff", "\xfe\xff{}"} {
		res, rec, err := badCall(t, add, args)
		wantMalformed(t, res, err, rec)
	}
	// Inside a string it is a character.
	res, _, err := badCall(t, badTool(t, "profile"), `{"name":"`+"\ufeff"+`x","home":{"street":"s","city":"c"}}`)
	wantOutput(t, res, err, `{"name":"`+"\ufeff"+`x","contacts":0}`)
}

func TestBadInputStringifiedJSON(t *testing.T) {
	add := badTool(t, "add")
	// Arguments that are a JSON string holding JSON: Mastra does not parse
	// the root, the model is told it sent a string.
	for _, args := range []string{`"{\"a\":1,\"b\":2}"`, `"\"{\\\"a\\\":1,\\\"b\\\":2}\""`, `"[1,2]"`, `"null"`, `""`} {
		res, _, err := badCall(t, add, args)
		wantIssues(t, res, err, "- root: Invalid input: expected object, received string")
	}
	// Top-level properties holding stringified arrays and objects are
	// parsed when the schema wants an array or object.
	profile := badTool(t, "profile")
	res, rec, err := badCall(t, profile, `{"name":"n","home":"{\"street\":\"s\",\"city\":\"c\"}","contacts":" [{\"kind\":\"k\",\"value\":\"v\"}]"}`)
	wantOutput(t, res, err, `{"name":"n","contacts":1}`)
	if in := rec.in.(fuzzProfileIn); in.Home.Street != "s" || in.Contacts[0].Value != "v" {
		t.Errorf("Execute received %#v", in)
	}
	res, _, err = badCall(t, profile, `{"name":"n","home":"{\"street\":\"s\""}`)
	wantIssues(t, res, err, "- home: Invalid input: expected object, received string")
	res, _, err = badCall(t, profile, `{"name":"n","home":"[{}]"}`)
	wantIssues(t, res, err, "- home: Invalid input: expected object, received string")
	res, _, err = badCall(t, profile, `{"name":"n","home":{"street":"s","city":"c"},"contacts":"{\"kind\":\"k\"}"}`)
	wantIssues(t, res, err, "- contacts: Invalid input: expected array, received string")
	// Not below the top level.
	res, _, err = badCall(t, profile, `{"name":"n","home":{"street":"s","city":"c"},"work":{"street":"[]","city":"{}"},"matrix":["[1]"]}`)
	wantIssues(t, res, err, "- matrix.0: Invalid input: expected array, received string")
	// Stringified values inside the prompt tool.
	res, rec, err = badCall(t, badTool(t, "prompt"), `{"prompt":"p","filters":"[\"a\",\"b\"]","options":"{\"lang\":\"en\"}"}`)
	wantOutput(t, res, err, `{"ok":true}`)
	if b, _ := json.Marshal(rec.in); string(b) != `{"filters":["a","b"],"options":{"lang":"en"},"prompt":"p"}` {
		t.Errorf("Execute received %s", b)
	}
}

func TestBadInputInvalidUTF8(t *testing.T) {
	profile := badTool(t, "profile")
	// Invalid bytes and lone surrogates in strings become U+FFFD, as in
	// any JSON decoder that yields valid text.
	res, rec, err := badCall(t, profile, `{"name":"a`+"\xff\xfe"+`b","home":{"street":"\ud800","city":"\udc00\ud83d"},"labels":{"`+"\xc3\x28"+`":"v"}}`)
	if err != nil || res.ValidationError() != nil {
		t.Fatalf("got %v %s", err, resultText(res))
	}
	in := rec.in.(fuzzProfileIn)
	if in.Name != "a\ufffd\ufffdb" || in.Home.Street != "\ufffd" || in.Labels["\ufffd("] != "v" {
		t.Errorf("Execute received %+v", in)
	}
	// In a validation error message and footer.
	res, _, err = badCall(t, badTool(t, "rich"), `{"id":"`+"\xff"+`","kind":"`+"\xff"+`","`+"\xff"+`":1}`)
	if err != nil || res.ValidationError() == nil {
		t.Fatalf("got %v", err)
	}
	b, _ := res.JSON()
	if !json.Valid(b) || !utf8.Valid(b) {
		t.Errorf("validation error JSON %q", b)
	}
	// Outside strings: not JSON.
	for _, args := range []string{"{\xff}", `{"a":1,"b":2` + "\xc3\x28}", "\xff"} {
		res, rec, err := badCall(t, badTool(t, "add"), args)
		wantMalformed(t, res, err, rec)
	}
}

func TestBadInputPromptAlias(t *testing.T) {
	prompt := badTool(t, "prompt")
	for _, c := range []struct{ args, want string }{
		{`{"query":"q"}`, `{"prompt":"q","query":"q"}`},
		{`{"prompt":null,"message":"m"}`, `{"message":"m","prompt":"m"}`},
		{`{"message":5,"input":"i"}`, `{"input":"i","message":5,"prompt":"i"}`},
	} {
		res, rec, err := badCall(t, prompt, c.args)
		wantOutput(t, res, err, `{"ok":true}`)
		// ZodObjects strips keys the schema does not declare.
		var want map[string]any
		_ = json.Unmarshal([]byte(c.want), &want)
		got := rec.in.(map[string]any)
		if got["prompt"] != want["prompt"] {
			t.Errorf("%s: Execute received %v", c.args, got)
		}
	}
	res, _, err := badCall(t, prompt, `{"query":5,"message":null}`)
	wantIssues(t, res, err, "- prompt: Invalid input: expected string, received undefined")
	res, _, err = badCall(t, prompt, `{"prompt":"","query":"q"}`)
	wantIssues(t, res, err, "- prompt: Too small: expected string to have >=1 characters")
}

// TestBadInputConcurrentCalls runs the seeds on the shared tools from many
// goroutines (run with -race).
func TestBadInputConcurrentCalls(t *testing.T) {
	seeds := fuzzSeedArgs()
	var wg sync.WaitGroup
	for _, ft := range fuzzTools() {
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := g; i < len(seeds); i += 4 {
					args, inv := json.RawMessage(seeds[i]), ft.inv
					if ft.argsAsResume {
						args, inv = json.RawMessage(fuzzResumeArgs), &tools.Invocation{ResumeData: json.RawMessage(seeds[i])}
					}
					ctx := context.WithValue(context.Background(), fuzzRecorderKey{}, &fuzzRecorder{})
					res, err := ft.tool.Execute(ctx, args, inv)
					var pe *tools.PanicError
					if errors.As(err, &pe) || (res == nil) == (err == nil) {
						t.Errorf("%s %q: %v %v", ft.name, seeds[i], res, err)
					}
					if res != nil {
						_, _ = res.JSON()
					}
				}
			}()
		}
	}
	wg.Wait()
}
