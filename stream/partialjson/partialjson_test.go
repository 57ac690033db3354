package partialjson

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The AI SDK's fix-json.test.ts cases (packages/ai/src/util), as
// input/expected pairs.
var fixJSONCases = []struct{ name, in, want string }{
	{"empty", ``, ``},
	{"incomplete null", `nul`, `null`},
	{"incomplete true", `t`, `true`},
	{"incomplete false", `fals`, `false`},
	{"incomplete number", `12.`, `12`},
	{"number with dot", `12.2`, `12.2`},
	{"negative number", `-12`, `-12`},
	{"incomplete negative number", `-`, ``},
	{"e-notation 1", `2.5e`, `2.5`},
	{"e-notation 2", `2.5e-`, `2.5`},
	{"e-notation 3", `2.5e3`, `2.5e3`},
	{"e-notation 4", `-2.5e3`, `-2.5e3`},
	{"E-notation 1", `2.5E`, `2.5`},
	{"E-notation 2", `2.5E-`, `2.5`},
	{"E-notation 3", `2.5E3`, `2.5E3`},
	{"E-notation 4", `-2.5E3`, `-2.5E3`},
	{"incomplete exponent 1", `12.e`, `12`},
	{"incomplete exponent 2", `12.34e`, `12.34`},
	{"incomplete exponent 3", `5e`, `5`},
	{"incomplete string", `"abc`, `"abc"`},
	{"escape sequences", `"value with \"quoted\" text and \\ escape`, `"value with \"quoted\" text and \\ escape"`},
	{"incomplete escape", `"value with \`, `"value with "`},
	{"unicode", `"value with unicode <"`, `"value with unicode <"`},
	{"incomplete array", `[`, `[]`},
	{"bracket after number in array", `[[1], [2`, `[[1], [2]]`},
	{"bracket after string in array", `[["1"], ["2`, `[["1"], ["2"]]`},
	{"bracket after literal in array", `[[false], [nu`, `[[false], [null]]`},
	{"bracket after array in array", `[[[]], [[]`, `[[[]], [[]]]`},
	{"bracket after object in array", `[[{}], [{`, `[[{}], [{}]]`},
	{"trailing comma", `[1, `, `[1]`},
	{"closing array", `[[], 123`, `[[], 123]`},
	{"key without value", `{"key":`, `{}`},
	{"brace after number", `{"a": {"b": 1}, "c": {"d": 2`, `{"a": {"b": 1}, "c": {"d": 2}}`},
	{"brace after string", `{"a": {"b": "1"}, "c": {"d": 2`, `{"a": {"b": "1"}, "c": {"d": 2}}`},
	{"brace after literal", `{"a": {"b": false}, "c": {"d": 2`, `{"a": {"b": false}, "c": {"d": 2}}`},
	{"brace after array", `{"a": {"b": []}, "c": {"d": 2`, `{"a": {"b": []}, "c": {"d": 2}}`},
	{"brace after object", `{"a": {"b": {}}, "c": {"d": 2`, `{"a": {"b": {}}, "c": {"d": 2}}`},
	{"partial first key", `{"ke`, `{}`},
	{"partial second key", `{"k1": 1, "k2`, `{"k1": 1}`},
	{"partial second key with colon", `{"k1": 1, "k2":`, `{"k1": 1}`},
	{"trailing whitespace", `{"key": "value"  `, `{"key": "value"}`},
	{"closing after empty object", `{"a": {"b": {}`, `{"a": {"b": {}}}`},
	{"nested arrays with numbers", `[1, [2, 3, [`, `[1, [2, 3, []]]`},
	{"nested arrays with literals", `[false, [true, [`, `[false, [true, []]]`},
	{"nested objects", `{"key": {"subKey":`, `{"key": {}}`},
	{"nested objects with numbers", `{"key": 123, "key2": {"subKey":`, `{"key": 123, "key2": {}}`},
	{"nested objects with literals", `{"key": null, "key2": {"subKey":`, `{"key": null, "key2": {}}`},
	{"arrays within objects", `{"key": [1, 2, {`, `{"key": [1, 2, {}]}`},
	{"objects within arrays", `[1, 2, {"key": "value",`, `[1, 2, {"key": "value"}]`},
	{"nested arrays and objects", `{"a": {"b": ["c", {"d": "e",`, `{"a": {"b": ["c", {"d": "e"}]}}`},
	{"deeply nested objects", `{"a": {"b": {"c": {"d":`, `{"a": {"b": {"c": {}}}}`},
	{"potential nested array", `{"a": 1, "b": [`, `{"a": 1, "b": []}`},
	{"potential nested object", `{"a": 1, "b": {`, `{"a": 1, "b": {}}`},
	{"potential nested string", `{"a": 1, "b": "`, `{"a": 1, "b": ""}`},
	{"regression complex nesting 1",
		"{\n  \"a\": [\n    {\n      \"a1\": \"v1\",\n      \"a2\": \"v2\",\n      \"a3\": \"v3\"\n    }\n  ],\n  \"b\": [\n    {\n      \"b1\": \"n",
		"{\n  \"a\": [\n    {\n      \"a1\": \"v1\",\n      \"a2\": \"v2\",\n      \"a3\": \"v3\"\n    }\n  ],\n  \"b\": [\n    {\n      \"b1\": \"n\"}]}"},
	{"regression empty objects inside nested", `{"type":"div","children":[{"type":"Card","props":{}`, `{"type":"div","children":[{"type":"Card","props":{}}]}`},
}

func TestRepairMatchesFixJSON(t *testing.T) {
	for _, tc := range fixJSONCases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Repair(tc.in)
			if got != tc.want {
				t.Errorf("Repair(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if ref := refFixJSON(tc.in); ref != tc.want {
				t.Errorf("refFixJSON(%q) = %q, want %q", tc.in, ref, tc.want)
			}
			// Byte by byte gives the same.
			var p Parser
			for i := 0; i < len(tc.in); i++ {
				p.Append(tc.in[i : i+1])
				p.Repaired()
			}
			if b, _ := p.Repaired(); len(tc.in) > 0 && string(b) != tc.want {
				t.Errorf("byte-wise Repaired = %q, want %q", b, tc.want)
			}
		})
	}
}

// The AI SDK's parse-partial-json.test.ts cases plus the states of the
// fixJson cases above and the fixJson quirks.
func TestParse(t *testing.T) {
	cases := []struct {
		in    string
		value any
		state State
	}{
		{`{"key": "value"}`, map[string]any{"key": "value"}, SuccessfulParse},
		{`{"key": "value"`, map[string]any{"key": "value"}, RepairedParse},
		{`not json at all`, nil, FailedParse},
		{``, nil, FailedParse}, // JSON.parse('') throws; fixJson('') is ''
		{`   `, nil, FailedParse},
		{`-`, nil, FailedParse},
		{`12.`, 12.0, RepairedParse},
		{`12 `, 12.0, SuccessfulParse},
		{`{"a":1} trailing`, map[string]any{"a": 1.0}, RepairedParse},
		{`{"a":1}}`, map[string]any{"a": 1.0}, RepairedParse},
		{`[1e+5`, []any{1e5}, RepairedParse},
		{`{"a":1e+`, map[string]any{"a": 1.0}, RepairedParse},
		{`"ab\u00`, nil, FailedParse}, // fixJson keeps the partial \u escape
		{`[-`, nil, FailedParse},      // fixJson keeps the lone '-' after '['
		{`{"a": -`, map[string]any{}, RepairedParse},
		{`[1, 2 `, []any{1.0, 2.0}, RepairedParse},
		{`{"k\"`, nil, FailedParse}, // an escape in a key moves the cut point into the key
		{`nulx`, nil, FailedParse},
		{`1e400`, math.Inf(1), SuccessfulParse},
		{`[true, fa`, []any{true, false}, RepairedParse},
		{`{"text": "h\u00e9llo \"w\" \n`, map[string]any{"text": "héllo \"w\" \n"}, RepairedParse},
		{"\"caf\xc3", "caf", RepairedParse}, // split UTF-8 sequence is held back
	}
	for _, tc := range cases {
		v, st := Parse(tc.in)
		if st != tc.state {
			t.Errorf("Parse(%q) state = %s, want %s", tc.in, st, tc.state)
		}
		if diff := cmp.Diff(tc.value, v); diff != "" {
			t.Errorf("Parse(%q) value (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestParserUndefinedInput(t *testing.T) {
	var p Parser
	if v, st := p.Value(); v != nil || st != UndefinedInput {
		t.Errorf("Value() = %v, %s; want nil, %s", v, st, UndefinedInput)
	}
	if st := p.State(); st != UndefinedInput {
		t.Errorf("State() = %s", st)
	}
	if b, st := p.Repaired(); b != nil || st != UndefinedInput {
		t.Errorf("Repaired() = %q, %s", b, st)
	}
	p.Append(`{"a":`)
	p.Reset()
	if st := p.State(); st != UndefinedInput {
		t.Errorf("after Reset State() = %s", st)
	}
	p.Append(`[1]`)
	if v, st := p.Value(); st != SuccessfulParse || !cmp.Equal(v, []any{1.0}) {
		t.Errorf("after Reset Value() = %v, %s", v, st)
	}
}

// refFixJSON is a plain, non-incremental transcription of fixJson's
// algorithm over bytes, used as the oracle.
func refFixJSON(in string) string {
	const (
		root = iota
		finish
		str
		esc
		lit
		num
		objStart
		objKey
		objAfterKey
		objBeforeValue
		objAfterValue
		objAfterComma
		arrStart
		arrAfterValue
		arrAfterComma
	)
	stack := []int{root}
	last, litStart := -1, 0
	pop := func() { stack = stack[:len(stack)-1] }
	top := func() int { return stack[len(stack)-1] }
	swapPush := func(swap, next int) { stack[len(stack)-1] = swap; stack = append(stack, next) }
	valueStart := func(c byte, i, swap int) {
		switch {
		case c == '"':
			last = i
			swapPush(swap, str)
		case c == 'f' || c == 't' || c == 'n':
			last, litStart = i, i
			swapPush(swap, lit)
		case c == '-':
			swapPush(swap, num)
		case c >= '0' && c <= '9':
			last = i
			swapPush(swap, num)
		case c == '{':
			last = i
			swapPush(swap, objStart)
		case c == '[':
			last = i
			swapPush(swap, arrStart)
		}
	}
	afterObj := func(c byte, i int) {
		if c == ',' {
			pop()
			stack = append(stack, objAfterComma)
		} else if c == '}' {
			last = i
			pop()
		}
	}
	afterArr := func(c byte, i int) {
		if c == ',' {
			pop()
			stack = append(stack, arrAfterComma)
		} else if c == ']' {
			last = i
			pop()
		}
	}
	isLit := func(s string) bool {
		return strings.HasPrefix("false", s) || strings.HasPrefix("true", s) || strings.HasPrefix("null", s)
	}
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch top() {
		case root:
			valueStart(c, i, finish)
		case objStart:
			if c == '"' {
				pop()
				stack = append(stack, objKey)
			} else if c == '}' {
				last = i
				pop()
			}
		case objAfterComma:
			if c == '"' {
				pop()
				stack = append(stack, objKey)
			}
		case objKey:
			if c == '"' {
				pop()
				stack = append(stack, objAfterKey)
			} else if c == '\\' {
				stack = append(stack, esc)
			}
		case objAfterKey:
			if c == ':' {
				pop()
				stack = append(stack, objBeforeValue)
			}
		case objBeforeValue:
			valueStart(c, i, objAfterValue)
		case objAfterValue:
			afterObj(c, i)
		case str:
			switch c {
			case '"':
				pop()
				last = i
			case '\\':
				stack = append(stack, esc)
			default:
				last = i
			}
		case arrStart:
			last = i
			if c == ']' {
				pop()
			} else {
				valueStart(c, i, arrAfterValue)
			}
		case arrAfterValue:
			switch c {
			case ',':
				pop()
				stack = append(stack, arrAfterComma)
			case ']':
				last = i
				pop()
			default:
				last = i
			}
		case arrAfterComma:
			valueStart(c, i, arrAfterValue)
		case esc:
			pop()
			last = i
		case num:
			switch {
			case c >= '0' && c <= '9':
				last = i
			case strings.IndexByte("eE-.", c) >= 0:
			case c == ',':
				pop()
				if top() == arrAfterValue {
					afterArr(c, i)
				}
				if top() == objAfterValue {
					afterObj(c, i)
				}
			case c == '}':
				pop()
				if top() == objAfterValue {
					afterObj(c, i)
				}
			case c == ']':
				pop()
				if top() == arrAfterValue {
					afterArr(c, i)
				}
			default:
				pop()
			}
		case lit:
			if !isLit(in[litStart : i+1]) {
				pop()
				if top() == objAfterValue {
					afterObj(c, i)
				} else if top() == arrAfterValue {
					afterArr(c, i)
				}
			} else {
				last = i
			}
		}
	}
	out := in[:last+1]
	for k := len(stack) - 1; k >= 0; k-- {
		switch stack[k] {
		case str:
			out += `"`
		case objKey, objAfterKey, objAfterComma, objStart, objBeforeValue, objAfterValue:
			out += "}"
		case arrStart, arrAfterComma, arrAfterValue:
			out += "]"
		case lit:
			part := in[litStart:]
			for _, l := range []string{"true", "false", "null"} {
				if strings.HasPrefix(l, part) {
					out += l[len(part):]
					break
				}
			}
		}
	}
	return out
}

// refState is parsePartialJson's state, with json.Valid standing in for
// JSON.parse.
func refState(text string) State {
	if json.Valid([]byte(text)) {
		return SuccessfulParse
	}
	if json.Valid([]byte(refFixJSON(text))) {
		return RepairedParse
	}
	return FailedParse
}

// checkAgainstOneShot checks the Parser's answers for its text so far
// against the one-shot forms and, for valid UTF-8, against the oracle.
func checkAgainstOneShot(t *testing.T, p *Parser) {
	t.Helper()
	text := p.Text()
	got, st := p.Repaired()
	gotS := string(got)
	if st2 := p.State(); st2 != st {
		t.Fatalf("text %q: State() = %s, Repaired state = %s", text, st2, st)
	}
	wantS, wantSt := Repair(text)
	if gotS != wantS || st != wantSt {
		t.Fatalf("text %q: incremental (%q, %s) != one-shot (%q, %s)", text, gotS, st, wantS, wantSt)
	}
	if utf8.ValidString(text) {
		if ref := refFixJSON(text); gotS != ref {
			t.Fatalf("text %q: Repaired = %q, fixJson = %q", text, gotS, ref)
		}
		if rs := refState(text); st != rs {
			t.Fatalf("text %q: state = %s, reference = %s (repaired %q)", text, st, rs, gotS)
		}
	}
}

// genJSON writes a random JSON value with random insignificant whitespace.
func genJSON(r *rand.Rand, b *strings.Builder, depth int) {
	ws := func() {
		if r.IntN(4) == 0 {
			b.WriteString([]string{" ", "\n  ", "\t", "\r\n"}[r.IntN(4)])
		}
	}
	k := r.IntN(8)
	if depth > 4 {
		k = r.IntN(5)
	}
	switch k {
	case 0:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	case 1, 2:
		b.WriteString(genNumber(r))
	case 3, 4:
		genString(r, b)
	case 5:
		b.WriteByte('[')
		n := r.IntN(4)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			genJSON(r, b, depth+1)
			ws()
		}
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		n := r.IntN(4)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			genString(r, b)
			ws()
			b.WriteByte(':')
			ws()
			genJSON(r, b, depth+1)
			ws()
		}
		b.WriteByte('}')
	}
}

func genNumber(r *rand.Rand) string {
	var s string
	if r.IntN(3) == 0 {
		s = "-"
	}
	if r.IntN(4) == 0 {
		s += "0"
	} else {
		s += strconv.Itoa(1 + r.IntN(100000))
	}
	if r.IntN(2) == 0 {
		s += "." + strconv.Itoa(r.IntN(1000))
	}
	if r.IntN(3) == 0 {
		s += []string{"e", "E"}[r.IntN(2)] + []string{"", "+", "-"}[r.IntN(3)] + strconv.Itoa(r.IntN(30))
	}
	return s
}

func genString(r *rand.Rand, b *strings.Builder) {
	pieces := []string{"a", "key", " ", "é", "日本", "🙂", `\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\ud83d\ude00`, `\u0000`, "x", "{", "}", "[", "]", ",", ":", "true", "-1"}
	b.WriteByte('"')
	for n := r.IntN(6); n > 0; n-- {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	b.WriteByte('"')
}

// splitRunes cuts s into deltas of 1..max bytes at rune boundaries.
func splitRunes(r *rand.Rand, s string, max int) []string {
	var out []string
	for len(s) > 0 {
		n := 1 + r.IntN(max)
		if n > len(s) {
			n = len(s)
		}
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func TestParserIncrementalProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	iters := 2000
	if testing.Short() {
		iters = 200
	}
	var p Parser
	for range iters {
		var b strings.Builder
		if r.IntN(3) == 0 {
			b.WriteString(" ")
		}
		genJSON(r, &b, 0)
		doc := b.String()
		var want any
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("generator made invalid JSON %q: %v", doc, err)
		}
		p.Reset()
		for _, d := range splitRunes(r, doc, 1+r.IntN(8)) {
			p.Append(d)
			checkAgainstOneShot(t, &p)
		}
		v, st := p.Value()
		if st != SuccessfulParse {
			t.Fatalf("doc %q: final state %s", doc, st)
		}
		if diff := cmp.Diff(want, v); diff != "" {
			t.Fatalf("doc %q: final value (-want +got):\n%s", doc, diff)
		}
	}
}

func FuzzParser(f *testing.F) {
	for _, tc := range fixJSONCases {
		f.Add(tc.in, uint64(3))
	}
	f.Add(`{"a":[1,2,{"b":"c\u00e9"}],"d":-1.5e+3,"e":null}`, uint64(7))
	f.Add("\"caf\xc3\xa9\"", uint64(1))
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 0))
		var p Parser
		for len(text) > 0 {
			n := min(1+r.IntN(16), len(text))
			p.Append(text[:n])
			text = text[n:]
			checkAgainstOneShot(t, &p)
			v, st := p.Value()
			if st != SuccessfulParse && st != RepairedParse && v != nil {
				t.Fatalf("state %s with value %v", st, v)
			}
		}
	})
}
