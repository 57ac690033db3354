package partialjson

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchDoc builds a realistic tool-call argument of about size bytes: an
// object with a long string full of escapes and non-ASCII text, an array
// of objects with numbers, literals and nested arrays, and a number matrix.
func benchDoc(size int) string {
	var b strings.Builder
	b.WriteString(`{"title":"Quarterly report","body":"`)
	para := `Line with \"quotes\", a tab\t, a backslash \\ and unicode: héllo wörld 日本語 🙂 \u00e9\n`
	for b.Len() < size/4 {
		b.WriteString(para)
	}
	b.WriteString(`","items":[`)
	for i := 0; b.Len() < size*9/10; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d ✓","price":%d.%02d,"qty":%d,"ratio":-%d.5e-3,"active":%t,"note":null,"tags":["a","b\"c","d"]}`,
			i, i, i*7%1000, i%100, i%13, i%9, i%2 == 0)
	}
	b.WriteString(`],"matrix":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `[%d,%d.25,-%de2]`, i, i, i%7)
	}
	b.WriteString(`]}`)
	return b.String()
}

func benchDeltas(doc string) []string {
	r := rand.New(rand.NewPCG(42, 42))
	var out []string
	for len(doc) > 0 {
		n := min(8+r.IntN(25), len(doc)) // 8..32 bytes
		out = append(out, doc[:n])
		doc = doc[n:]
	}
	return out
}

// BenchmarkParserStream100KB streams a 100 KB argument in 8–32-byte
// deltas, calling Append and Repaired after every delta, as a UI consumer
// does.
func BenchmarkParserStream100KB(b *testing.B) {
	doc := benchDoc(100 << 10)
	if !json.Valid([]byte(doc)) {
		b.Fatal("invalid benchmark document")
	}
	deltas := benchDeltas(doc)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	var p Parser
	for b.Loop() {
		p.Reset()
		for _, d := range deltas {
			p.Append(d)
			p.Repaired()
		}
	}
}

// BenchmarkParserStream100KBState is the same stream calling only State.
func BenchmarkParserStream100KBState(b *testing.B) {
	doc := benchDoc(100 << 10)
	deltas := benchDeltas(doc)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	var p Parser
	for b.Loop() {
		p.Reset()
		for _, d := range deltas {
			p.Append(d)
			p.State()
		}
	}
}

// BenchmarkParseOneShot parses the whole 100 KB document once (decoding
// included), for reference.
func BenchmarkParseOneShot(b *testing.B) {
	doc := benchDoc(100 << 10)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, st := Parse(doc); st != SuccessfulParse {
			b.Fatal(st)
		}
	}
}
