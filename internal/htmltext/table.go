package htmltext

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// table writes a data table as Markdown rows ("| a | b |"), with a
// separator under a first row of header cells. A layout table (cells
// holding blocks: paragraphs, lists, other tables) is written as the
// blocks it holds instead.
func (r *renderer) table(n *html.Node) {
	rows := tableRows(n)
	if r.inline >= maxInline || isLayout(rows) {
		r.gap(1)
		r.children(n)
		r.gap(1)
		return
	}
	r.gap(2)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Caption && !r.skip(c) {
			if text, _, _ := r.inlineText(c); text != "" {
				r.w.line(text)
			}
		}
	}
	first := true
	for _, tr := range rows {
		var cells []string
		header := true
		for c := tr.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.DataAtom != atom.Td && c.DataAtom != atom.Th || r.skip(c) {
				continue
			}
			text, _, _ := r.inlineText(c)
			cells = append(cells, strings.ReplaceAll(text, "|", `\|`))
			header = header && c.DataAtom == atom.Th
		}
		if len(cells) == 0 {
			continue
		}
		r.w.line("| " + strings.Join(cells, " | ") + " |")
		if first && header {
			r.w.line("|" + strings.Repeat(" --- |", len(cells)))
		}
		first = false
	}
	r.gap(2)
}

// tableRows returns the rows of a table, in its sections, not those of
// nested tables.
func tableRows(n *html.Node) []*html.Node {
	var rows []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Tr:
			rows = append(rows, c)
		case atom.Thead, atom.Tbody, atom.Tfoot:
			for tr := c.FirstChild; tr != nil; tr = tr.NextSibling {
				if tr.Type == html.ElementNode && tr.DataAtom == atom.Tr {
					rows = append(rows, tr)
				}
			}
		}
	}
	return rows
}

// layoutBlocks are elements that do not belong in a data table's cell.
var layoutBlocks = map[atom.Atom]bool{
	atom.Table: true, atom.Div: true, atom.P: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Pre: true, atom.Blockquote: true, atom.Section: true, atom.Article: true, atom.Form: true,
}

func isLayout(rows []*html.Node) bool {
	for _, tr := range rows {
		for c := tr.FirstChild; c != nil; c = c.NextSibling {
			layout := false
			walk(c, func(d *html.Node) step {
				if d.Type == html.ElementNode && d.Namespace == "" && layoutBlocks[d.DataAtom] {
					layout = true
					return stop
				}
				return descend
			})
			if layout {
				return true
			}
		}
	}
	return false
}
