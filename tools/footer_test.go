package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// footerTexts are JSON texts whose footers footerSample must not change:
// long arrays and objects, array-index keys (listed first), repeated
// keys, escapes, surrogates, white space, nesting.
func footerTexts(t testing.TB) []string {
	many := func(elem func(i int) string, n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = elem(i)
		}
		return strings.Join(parts, ",")
	}
	texts := []string{
		`{"list":[` + many(func(int) string { return `"x"` }, 5000) + `]}`,
		`[` + many(func(i int) string { return strconv.Itoa(i) + ".50" }, 3000) + `]`,
		`{` + many(func(i int) string { return `"k` + strconv.Itoa(i) + `":{"v":[1,2,{"a":null}]}` }, 2000) + `}`,
		`{` + many(func(i int) string { return `"` + strconv.Itoa(3000-i) + `":true` }, 3000) + `,"z":1}`,
		`{"b":1,"a":2,"b":3,"4294967295":0,"4294967294":0,"01":0,"7":` + `[` + many(func(int) string { return `"\u00e9\ud83d\ude00\ud800 \"\\"` }, 500) + `]}`,
		"{ \"a\" :\n [ 1 ,\t2 ,\r\n" + many(func(int) string { return " { \"x\" : \"y\" } " }, 800) + " ] , \"a\" : [ ] }",
		`[[[[` + many(func(int) string { return `[[],{},""]` }, 900) + `]]]]`,
		`"` + strings.Repeat(`\u2028é`, 3000) + `"`,
		`[` + many(func(int) string { return `1e400,-0,1E2,0.0000001` }, 600) + `]`,
		`{"x":"` + strings.Repeat("y", 9000) + `"}`,
		`[]`, `{}`, `1`, `null`, `"s"`, `[1,{"a":[]}]`,
	}
	files, _ := filepath.Glob("testdata/mastra/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	return texts
}

// TestFooterSampleKeepsTheFooter: the footer rendered from a sample is
// the footer of the whole value.
func TestFooterSampleKeepsTheFooter(t *testing.T) {
	for _, raw := range footerTexts(t) {
		want := footerText([]byte(raw))
		if got := footerText(footerSample([]byte(raw))); got != want {
			t.Errorf("%.80s…:\ngot  %q\nwant %q", raw, got, want)
		}
		if got := truncateForLogging([]byte(raw)); got != want {
			t.Errorf("truncateForLogging %.80s…:\ngot  %q\nwant %q", raw, got, want)
		}
	}
}

func FuzzFooterSample(f *testing.F) {
	for _, raw := range footerTexts(f) {
		if len(raw) < 1<<11 {
			f.Add([]byte(raw))
		}
	}
	f.Add([]byte(`{"a":[` + strings.Repeat(`1,`, 80) + `1],"1":{"b":2,"b":[` + strings.Repeat(`"é",`, 70) + `0]}}`))
	f.Add([]byte(`{` + strings.Repeat(`"k":0,"9":1,`, 40) + `"z":[[` + strings.Repeat(`{},`, 90) + `[]]]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		if got, want := footerText(footerSample(raw)), footerText(raw); got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", raw, got, want)
		}
	})
}
