package htmltext_test

import (
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/htmltext"
)

// A 1 MB article-like page: navigation, paragraphs with links, lists,
// code, a table, scripts.
func benchPage() string {
	var b strings.Builder
	b.WriteString(`<html><head><title>Bench</title><script>var x = 1;</script><style>p{}</style></head><body><nav><a href="/">Home</a></nav><main>`)
	for b.Len() < 1<<20 {
		b.WriteString(`<h2>Section</h2><p>Some <b>text</b> with <a href="/page?id=1">a link</a> and <code>code()</code>.</p>`)
		b.WriteString(`<ul><li>one</li><li>two <a href="x">x</a></li></ul><pre>line 1
line 2</pre><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table><script>track()</script>`)
	}
	b.WriteString(`</main></body></html>`)
	return b.String()
}

func BenchmarkConvert(b *testing.B) {
	doc := benchPage()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		htmltext.Convert(doc, page)
	}
}
