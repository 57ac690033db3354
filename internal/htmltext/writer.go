package htmltext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// writer lays out text in Markdown blocks: words separated by single
// spaces, blocks separated by line breaks, every line starting with the
// prefixes of the blocks it is in ("> " for quotes, indentation for list
// items) and a list item's first line with its marker.
//
// Breaks and spaces are owed until the next word, so nothing trails and
// nothing leads: the text never starts or ends with white space.
type writer struct {
	b        strings.Builder
	prefixes []string
	prefix   string // the prefixes joined
	marker   string // list marker for the next line, in place of the last prefix
	breaks   int    // line breaks owed before the next word (0, 1 or 2)
	// breakDepth is how many prefixes the blank lines owed keep: the
	// fewest blocks open since the breaks were owed.
	breakDepth int
	space      bool // a space is owed before the next word
	midLine    bool // the current line has content
	// leadSpace records white space before the first word: a parent
	// rendering an inline element uses it to space the element.
	leadSpace bool
}

// text writes HTML character data, collapsing white space.
func (w *writer) text(s string) {
	if s == "" {
		return
	}
	if first, _ := utf8.DecodeRuneInString(s); unicode.IsSpace(first) {
		w.softSpace()
	}
	for i, word := range strings.Fields(s) {
		if i > 0 {
			w.space = true
		}
		w.word(word)
	}
	if last, _ := utf8.DecodeLastRuneInString(s); unicode.IsSpace(last) {
		w.softSpace()
	}
}

// softSpace owes a space, unless at the start of a line.
func (w *writer) softSpace() {
	if w.b.Len() == 0 {
		w.leadSpace = true
	}
	if w.midLine {
		w.space = true
	}
}

// word writes s as one unit, after what is owed.
func (w *writer) word(s string) {
	if s == "" {
		return
	}
	w.flush(false)
	w.b.WriteString(s)
}

// line writes s verbatim as a line of its own (preformatted text).
func (w *writer) line(s string) {
	w.block(1)
	w.flush(s == "")
	w.b.WriteString(s)
}

// flush writes what is owed before content: the line breaks (blank lines
// keep the quote prefixes) and the prefix of the new line, or a space.
// trim drops the new line's trailing prefix spaces (for an empty line).
func (w *writer) flush(trim bool) {
	switch {
	case w.breaks > 0 && w.b.Len() > 0:
		for i := 1; i < w.breaks; i++ {
			w.b.WriteByte('\n')
			w.b.WriteString(strings.TrimRight(strings.Join(w.prefixes[:w.breakDepth], ""), " "))
		}
		w.b.WriteByte('\n')
		w.writePrefix(trim)
	case !w.midLine:
		w.writePrefix(trim)
	case w.space:
		w.b.WriteByte(' ')
	}
	w.breaks, w.space, w.midLine = 0, false, true
}

func (w *writer) writePrefix(trim bool) {
	p := w.prefix
	if w.marker != "" {
		p = strings.Join(w.prefixes[:len(w.prefixes)-1], "") + w.marker
		w.marker = ""
	}
	if trim {
		p = strings.TrimRight(p, " ")
	}
	w.b.WriteString(p)
}

// block ends the current line and owes n line breaks (2: a blank line)
// before the next word. Nothing is owed before the first word.
func (w *writer) block(n int) {
	w.space = false
	if w.b.Len() == 0 {
		return
	}
	w.owe(n)
}

func (w *writer) owe(n int) {
	if w.breaks == 0 {
		w.breakDepth = len(w.prefixes)
	}
	w.midLine = false
	w.breaks = max(w.breaks, n)
}

// lineBreak is <br>: each one owes one more line break, up to a blank line.
func (w *writer) lineBreak() {
	w.space = false
	if w.b.Len() == 0 {
		return
	}
	w.owe(min(w.breaks+1, 2))
}

// push starts a block whose lines begin with prefix; marker, if not
// empty, replaces the prefix on its first line.
func (w *writer) push(prefix, marker string) {
	w.prefixes = append(w.prefixes, prefix)
	w.prefix += prefix
	w.marker = marker
}

func (w *writer) pop() {
	w.prefix = w.prefix[:len(w.prefix)-len(w.prefixes[len(w.prefixes)-1])]
	w.prefixes = w.prefixes[:len(w.prefixes)-1]
	w.breakDepth = min(w.breakDepth, len(w.prefixes))
	w.marker = ""
}

func (w *writer) String() string { return w.b.String() }
