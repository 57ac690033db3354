package htmltext

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// tokenText renders a document the tree parser refused (it refuses
// nesting deeper than 512 elements) from its tokens alone: text with
// line breaks at block elements, dropped elements left out, no links,
// lists or tables.
func tokenText(doc string) string {
	w := &writer{}
	z := html.NewTokenizer(strings.NewReader(doc))
	skipping := map[atom.Atom]int{} // open dropped elements, by name
	skipped := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return w.String()
		case html.TextToken:
			if skipped == 0 {
				w.text(string(z.Text()))
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if dropped[a] && !voidElement(a) {
				skipping[a]++
				skipped++
				continue
			}
			tokenBreak(w, a)
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skipping[a] > 0 {
				skipping[a]--
				skipped--
				continue
			}
			tokenBreak(w, a)
		}
	}
}

func tokenBreak(w *writer, a atom.Atom) {
	switch {
	case a == atom.Br:
		w.lineBreak()
	case blockGap[a] > 0 || layoutBlocks[a]:
		w.block(1)
	}
}

func voidElement(a atom.Atom) bool {
	switch a {
	case atom.Input, atom.Link, atom.Meta, atom.Embed:
		return true
	}
	return false
}
