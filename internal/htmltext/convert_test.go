package htmltext_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/internal/htmltext"
)

var page, _ = url.Parse("https://example.com/docs/page.html?x=1")

func TestConvert(t *testing.T) {
	for _, c := range []struct{ name, html, want string }{
		{"empty", ``, ``},
		{"text only", `just  some
		text`, `just some text`},
		{"paragraphs", `<p>One <b>bold</b>.</p><p>Two</p>`, "One bold.\n\nTwo"},
		{"head, scripts and styles dropped",
			`<html><head><title>T</title><style>p{color:red}</style><script>var x</script></head>` +
				`<body><script>alert(1)</script><noscript>enable js</noscript><p>Body</p><template><p>tpl</p></template></body></html>`,
			"Body"},
		{"page furniture dropped",
			`<header><a href="/">Logo</a></header><nav><a href="/a">A</a></nav><main><p>Content</p></main>` +
				`<aside>Ad</aside><footer>(c) 2026</footer><div role="navigation">menu</div>`,
			"Content"},
		{"article header and footer kept",
			`<article><header><h1>Title</h1></header><p>Text</p><footer>By me</footer></article>`,
			"# Title\n\nText\n\nBy me"},
		{"hidden elements dropped",
			`<p>a</p><p hidden>b</p><p aria-hidden="true">c</p><p style="display : none">d</p><p style="visibility:hidden">e</p><p>f</p>`,
			"a\n\nf"},
		{"svg and forms", `<p>x<svg><text>svg text</text></svg>y</p><form><input value="v"><button>Go</button><label>Name</label></form>`,
			"xy\n\nName"},
		{"headings", `<h1>One</h1><h2> Two  <small>sub</small></h2><h6>Six</h6><h3></h3>`, "# One\n\n## Two sub\n\n###### Six"},
		{"links", `<p><a href="/root">root</a>, <a href="rel?q=1">relative</a>, <a href="https://other.org/x">abs</a>, ` +
			`<a href="#sec">fragment</a>, <a href="page.html?x=1#top">self</a>, <a href="javascript:alert(1)">js</a>, ` +
			`<a href="mailto:a@b.c">mail</a>, <a href="/empty"></a><a href="/img"><img src="i.png" alt="Logo"></a></p>`,
			"[root](https://example.com/root), [relative](https://example.com/docs/rel?q=1), [abs](https://other.org/x), " +
				"fragment, self, js, [mail](mailto:a@b.c), [Logo](https://example.com/img)"},
		{"link spacing", `<p>see<a href="/a"> this </a>now</p>`, "see [this](https://example.com/a) now"},
		{"base href", `<head><base href="https://cdn.example.net/base/"></head><a href="x">x</a>`, "[x](https://cdn.example.net/base/x)"},
		{"line breaks", `<p>a<br>b<br><br>c<br><br><br>d</p>`, "a\nb\n\nc\n\nd"},
		{"lists",
			`<ul><li>One</li><li>Two<ul><li>Two a</li><li><p>Two b</p><p>more</p></li></ul></li><li>Three</li></ul>` +
				`<ol start="9"><li>nine</li><li>ten<ol><li>x</li></ol></li><li value="20">twenty</li><li>next</li></ol>`,
			"- One\n- Two\n  - Two a\n  - Two b\n    more\n- Three\n\n9. nine\n10. ten\n    1. x\n20. twenty\n21. next"},
		{"pre", "<p>Run:</p><pre>\n  go test ./...\n\n  ok\n</pre><p>Done.</p>", "Run:\n\n```\n  go test ./...\n\n  ok\n```\n\nDone."},
		{"pre with fences", "<pre>a\n```\nb</pre>", "````\na\n```\nb\n````"},
		{"inline code", "<p>Call <code>Do()</code>, not <code>a`b</code>.</p>", "Call `Do()`, not `` a`b ``."},
		{"blockquote", `<p>Intro</p><blockquote><p>One</p><p>Two</p></blockquote><p>After</p>`, "Intro\n\n> One\n>\n> Two\n\nAfter"},
		{"quote in a list", `<ul><li>item<blockquote>q</blockquote></li></ul>`, "- item\n  > q"},
		{"table",
			`<table><caption>Prices</caption><thead><tr><th>Name</th><th>Price</th></tr></thead>` +
				`<tbody><tr><td>a|b</td><td><a href="/p">1 €</a></td></tr><tr><td></td><td>2</td></tr></tbody></table>`,
			"Prices\n| Name | Price |\n| --- | --- |\n| a\\|b | [1 €](https://example.com/p) |\n|  | 2 |"},
		{"table without header", `<table><tr><td>a</td><td>b</td></tr></table>`, "| a | b |"},
		{"layout table", `<table><tr><td><p>Left column</p></td><td><ul><li>x</li></ul></td></tr></table>`, "Left column\n\n- x"},
		{"hr and dl", `<p>a</p><hr><dl><dt>Term</dt><dd>Meaning</dd></dl>`, "a\n\n---\n\nTerm\n: Meaning"},
		{"images", `<p><img src="a.png" alt="A cat"> and <img src="b.png"></p>`, "A cat and"},
		{"entities and nbsp", `<p>a&amp;b&nbsp;&nbsp;c &lt;tag&gt;</p>`, "a&b c <tag>"},
		{"unclosed tags", `<p>one<p>two<li>three`, "one\n\ntwo\n\nthree"},
		{"divs", `<div>a</div><div><div>b</div>c</div>`, "a\nb\nc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := htmltext.Convert(c.html, page)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\ngot:\n%s", diff, got)
			}
		})
	}
}

func TestConvertNilPage(t *testing.T) {
	got := htmltext.Convert(`<a href="/x">rel</a> <a href="https://a.b/">abs</a>`, nil)
	if want := "rel [abs](https://a.b/)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Deep nesting neither overflows the stack nor goes quadratic.
func TestConvertDeep(t *testing.T) {
	for _, c := range []struct {
		tag string
		n   int
	}{
		// Up to 512 levels the tree is built (deeper than the renderer's
		// recursion goes); beyond, the parser refuses it and tokens are used.
		{"div", 400}, {"a", 400}, {"code", 400}, {"table><tr><td", 150}, {"ul><li", 250}, {"blockquote", 400},
		{"div", 20_000}, {"a", 20_000}, {"code", 20_000}, {"table><tr><td", 20_000}, {"ul><li", 20_000}, {"span", 20_000},
	} {
		tag, n := c.tag, c.n
		open := "<" + tag + ">"
		doc := strings.Repeat(open+"x", n)
		start := time.Now()
		got := htmltext.Convert(doc, page)
		if strings.Count(got, "x") < n {
			t.Errorf("%s: lost text (%d x)", tag, strings.Count(got, "x"))
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: %v for %d nested elements", tag, d, n)
		}
	}
}

func FuzzConvert(f *testing.F) {
	for _, s := range []string{"<p>a</p>", "<ul><li>a<ol><li>b", "<pre>a\n\nb</pre>", "<table><tr><th>a|b",
		"<blockquote><p>x<p>y</blockquote>", "<a href='x'> y </a>z", "<code>`</code>", "<br><br>x<br>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got := htmltext.Convert(doc, page)
		if strings.TrimSpace(got) != got {
			t.Fatalf("Convert(%q) = %q: leading or trailing white space", doc, got)
		}
		if strings.Contains(got, "\n\n\n") {
			t.Fatalf("Convert(%q) = %q: more than one blank line", doc, got)
		}
	})
}
