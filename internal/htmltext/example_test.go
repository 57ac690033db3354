package htmltext_test

import (
	"fmt"
	"net/url"

	"github.com/gomastra/mastra/internal/htmltext"
)

func ExampleConvert() {
	page, _ := url.Parse("https://example.com/blog/post")
	fmt.Println(htmltext.Convert(`<html><head><title>Post</title><script>track()</script></head><body>
		<nav><a href="/">Home</a> | <a href="/blog">Blog</a></nav>
		<h1>Release notes</h1>
		<p>Version <code>2.0</code> is out. Read the <a href="../docs/upgrade">upgrade guide</a>.</p>
		<ul><li>Faster</li><li>Smaller</li></ul>
		<footer>© 2026</footer></body></html>`, page))
	// Output:
	// # Release notes
	//
	// Version `2.0` is out. Read the [upgrade guide](https://example.com/docs/upgrade).
	//
	// - Faster
	// - Smaller
}
