package htmltext

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Convert renders an HTML document (UTF-8 text) as readable
// Markdown-flavoured text. page is the document's URL: links are resolved
// against it (or against the document's <base href>); nil leaves relative
// links out. It never fails: any input, however malformed or deeply
// nested, gives some text, in time linear in its size.
func Convert(doc string, page *url.URL) string {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil { // nested deeper than the parser accepts
		return tokenText(doc)
	}
	r := &renderer{w: &writer{}, base: baseURL(root, page), page: page}
	r.node(root)
	return r.w.String()
}

// baseURL is the first <base href> of the document's head, resolved
// against page.
func baseURL(root *html.Node, page *url.URL) *url.URL {
	head := child(child(root, atom.Html), atom.Head)
	if head == nil || page == nil {
		return page
	}
	var href string
	found := false
	walk(head, func(n *html.Node) step {
		if n.Type == html.ElementNode && n.DataAtom == atom.Base && hasAttr(n, "href") {
			href, found = attr(n, "href"), true
			return stop
		}
		return descend
	})
	if !found {
		return page
	}
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return page
	}
	return page.ResolveReference(u)
}

// child is n's first child element a, or nil.
func child(n *html.Node, a atom.Atom) *html.Node {
	if n == nil {
		return nil
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == a {
			return c
		}
	}
	return nil
}

// step tells walk where to go after a node.
type step int

const (
	descend      step = iota // visit the node's children next
	skipChildren             // go on after the node's children
	stop                     // end the walk
)

// walk visits root's descendants in document order without recursion
// (the tree may be arbitrarily deep).
func walk(root *html.Node, visit func(*html.Node) step) {
	n := root.FirstChild
	for n != nil {
		switch visit(n) {
		case stop:
			return
		case descend:
			if n.FirstChild != nil {
				n = n.FirstChild
				continue
			}
		}
		for n != root && n.NextSibling == nil {
			n = n.Parent
		}
		if n == root {
			return
		}
		n = n.NextSibling
	}
}

// droppedStatic reports elements that never render, judged on the
// element alone (see renderer.skip for the full rule).
func droppedStatic(n *html.Node) bool {
	return n.Type == html.ElementNode &&
		(n.Namespace == "" && dropped[n.DataAtom] || n.Namespace == "svg" || n.Namespace == "math")
}

// plainText is the text of n's rendered descendants, white space kept,
// elements separated by spaces.
func plainText(n *html.Node) string {
	var b strings.Builder
	walk(n, func(d *html.Node) step {
		switch d.Type {
		case html.TextNode:
			b.WriteString(d.Data)
		case html.ElementNode:
			b.WriteByte(' ')
			if !droppedStatic(d) {
				return descend
			}
		}
		return skipChildren
	})
	return b.String()
}

// preText is the text of a preformatted element exactly as written, <br>
// as a line break.
func preText(n *html.Node) string {
	var b strings.Builder
	walk(n, func(d *html.Node) step {
		switch {
		case d.Type == html.TextNode:
			b.WriteString(d.Data)
		case d.Type == html.ElementNode && d.DataAtom == atom.Br:
			b.WriteByte('\n')
		case d.Type == html.ElementNode && !droppedStatic(d):
			return descend
		}
		return skipChildren
	})
	return b.String()
}
