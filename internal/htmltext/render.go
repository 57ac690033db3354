package htmltext

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

const (
	// maxDepth bounds the recursion over the tree; deeper content is
	// written as plain text by an iterative walk.
	maxDepth = 256
	// maxInline bounds nested inline renderings (a link in a code span in
	// a table cell ...); deeper ones write their text without markup, so
	// the work stays linear in the document size.
	maxInline = 8
)

// renderer walks a parsed document and writes it to a writer.
type renderer struct {
	w      *writer
	base   *url.URL // resolves links; nil keeps them as written
	page   *url.URL // the document's own URL, for same-page links
	depth  int
	inline int // nesting of inline renderings
	items  int // nesting of list items
}

// dropped elements never render: code, styling, embedded objects,
// navigation and page furniture, form controls, the head.
var dropped = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Nav: true, atom.Aside: true, atom.Iframe: true,
	atom.Object: true, atom.Embed: true, atom.Canvas: true, atom.Audio: true, atom.Video: true,
	atom.Picture: true, atom.Map: true, atom.Button: true, atom.Select: true, atom.Input: true,
	atom.Textarea: true, atom.Datalist: true, atom.Dialog: true, atom.Link: true, atom.Meta: true,
}

// droppedRoles are the ARIA landmarks of page furniture.
var droppedRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true, "search": true,
	"menu": true, "menubar": true, "dialog": true, "alertdialog": true,
}

// blockGap is the number of line breaks around a block element: 2 for a
// blank line, 1 for a line of its own.
var blockGap = map[atom.Atom]int{
	atom.P: 2, atom.Section: 2, atom.Article: 2, atom.Main: 2, atom.Figure: 2, atom.Hgroup: 2,
	atom.Div: 1, atom.Figcaption: 1, atom.Address: 1, atom.Details: 1, atom.Summary: 1, atom.Form: 1,
	atom.Fieldset: 1, atom.Legend: 1, atom.Center: 1, atom.Caption: 1, atom.Header: 1, atom.Footer: 1,
	atom.Body: 1, atom.Html: 1, atom.Dl: 2, atom.Search: 1, atom.Tr: 1, atom.Td: 1, atom.Th: 1,
	atom.Tbody: 1, atom.Thead: 1, atom.Tfoot: 1, atom.Li: 1,
}

func (r *renderer) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		r.node(c)
	}
}

func (r *renderer) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		r.w.text(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
		r.children(n)
		return
	default:
		return
	}
	if r.skip(n) {
		return
	}
	if r.depth >= maxDepth {
		r.w.text(" " + plainText(n) + " ")
		return
	}
	r.depth++
	defer func() { r.depth-- }()
	if n.Namespace != "" {
		r.children(n)
		return
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		r.heading(n, int(n.Data[1]-'0'))
	case atom.Ul, atom.Ol, atom.Menu:
		r.list(n)
	case atom.Blockquote:
		r.gap(2)
		r.w.push("> ", "")
		r.children(n)
		r.w.pop()
		r.gap(2)
	case atom.Pre, atom.Xmp, atom.Listing, atom.Plaintext:
		r.pre(n)
	case atom.Table:
		r.table(n)
	case atom.Hr:
		r.gap(2)
		r.w.line("---")
		r.gap(2)
	case atom.Br:
		r.w.lineBreak()
	case atom.Dt:
		r.w.block(1)
		r.children(n)
		r.w.block(1)
	case atom.Dd:
		r.w.block(1)
		r.w.push("  ", ": ")
		r.children(n)
		r.w.pop()
		r.w.block(1)
	case atom.A:
		r.link(n)
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		r.code(n)
	case atom.Img:
		if alt := strings.TrimSpace(attr(n, "alt")); alt != "" {
			r.w.text(" " + alt + " ")
		}
	default:
		if gap, ok := blockGap[n.DataAtom]; ok {
			r.gap(gap)
			r.children(n)
			r.gap(gap)
			return
		}
		r.children(n)
	}
}

// gap ends a block; inside list items a blank line shrinks to a line
// break, so lists stay tight.
func (r *renderer) gap(n int) {
	if r.items > 0 {
		n = 1
	}
	r.w.block(n)
}

// skip reports elements that never render: see dropped and droppedRoles;
// hidden elements; <header> and <footer> of the page (not those of an
// article or section).
func (r *renderer) skip(n *html.Node) bool {
	if n.Namespace == "" && dropped[n.DataAtom] || n.Namespace == "svg" || n.Namespace == "math" {
		return true
	}
	if droppedRoles[strings.ToLower(strings.TrimSpace(attr(n, "role")))] || hasAttr(n, "hidden") ||
		strings.EqualFold(strings.TrimSpace(attr(n, "aria-hidden")), "true") {
		return true
	}
	if style := attr(n, "style"); style != "" {
		s := strings.ToLower(strings.Join(strings.Fields(style), ""))
		if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
			return true
		}
	}
	if n.DataAtom == atom.Header || n.DataAtom == atom.Footer {
		for p := n.Parent; p != nil; p = p.Parent {
			if p.Type == html.ElementNode && (p.DataAtom == atom.Article || p.DataAtom == atom.Section || p.DataAtom == atom.Main) {
				return false
			}
		}
		return true
	}
	return false
}

func (r *renderer) heading(n *html.Node, level int) {
	text, _, _ := r.inlineText(n)
	r.gap(2)
	if text != "" {
		r.w.word(strings.Repeat("#", level) + " " + text)
	}
	r.gap(2)
}

func (r *renderer) list(n *html.Node) {
	r.gap(2)
	number, ordered := 1, n.DataAtom == atom.Ol
	if s, err := strconv.Atoi(strings.TrimSpace(attr(n, "start"))); err == nil && ordered {
		number = s
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != atom.Li || r.skip(c) {
			r.node(c) // stray content, nested lists without <li>
			continue
		}
		marker := "- "
		if ordered {
			if v, err := strconv.Atoi(strings.TrimSpace(attr(c, "value"))); err == nil {
				number = v
			}
			marker = strconv.Itoa(number) + ". "
			number++
		}
		r.w.block(1)
		r.w.push(strings.Repeat(" ", len(marker)), marker)
		r.items++
		r.depth++
		r.children(c)
		r.depth--
		r.items--
		r.w.pop()
		r.w.block(1)
	}
	r.gap(2)
}

// pre writes preformatted text in a fenced block.
func (r *renderer) pre(n *html.Node) {
	text := strings.TrimRight(strings.ReplaceAll(preText(n), "\r\n", "\n"), "\n ")
	text = strings.TrimLeft(text, "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	r.gap(2)
	r.w.line(fence)
	for _, l := range strings.Split(text, "\n") {
		r.w.line(strings.TrimRight(l, " \t\r"))
	}
	r.w.line(fence)
	r.gap(2)
}

func (r *renderer) code(n *html.Node) {
	if r.inline >= maxInline {
		r.children(n)
		return
	}
	text, lead, trail := r.inlineText(n)
	if text == "" {
		return
	}
	fence := "`"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	if len(fence) > 1 {
		text = " " + text + " "
	}
	r.inlineWord(fence+text+fence, lead, trail)
}

func (r *renderer) link(n *html.Node) {
	if r.inline >= maxInline {
		r.children(n)
		return
	}
	text, lead, trail := r.inlineText(n)
	if text == "" {
		return
	}
	if href, ok := r.resolve(attr(n, "href")); ok {
		text = "[" + text + "](" + href + ")"
	}
	r.inlineWord(text, lead, trail)
}

// inlineWord writes an inline element's rendering with the white space it
// had around it.
func (r *renderer) inlineWord(s string, lead, trail bool) {
	if lead {
		r.w.softSpace()
	}
	r.w.word(s)
	if trail {
		r.w.softSpace()
	}
}

// inlineText renders n's children on their own and returns them as one
// line, with whether they began or ended with white space.
func (r *renderer) inlineText(n *html.Node) (text string, lead, trail bool) {
	saved := r.w
	sub := &writer{}
	r.w = sub
	r.inline++
	items := r.items
	r.items = 0
	r.children(n)
	r.items = items
	r.inline--
	r.w = saved
	return strings.Join(strings.Fields(sub.String()), " "), sub.leadSpace, sub.space
}

// resolve returns the link target to show: absolute against the base,
// only for web, mail and FTP links, not for links to the page itself.
func (r *renderer) resolve(href string) (string, bool) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return "", false
	}
	u, err := url.Parse(href)
	if err != nil {
		return "", false
	}
	if r.base != nil {
		u = r.base.ResolveReference(u)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto", "ftp":
	default: // relative without a base, or not a web link
		return "", false
	}
	if r.page != nil && u.Fragment != "" {
		same := *u
		same.Fragment, same.RawFragment = "", ""
		if same.String() == r.page.String() {
			return "", false
		}
	}
	return u.String(), true
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}
