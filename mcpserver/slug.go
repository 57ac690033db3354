package mcpserver

import (
	"regexp"
	"strings"
)

// Slugify turns a server id into the slug Mastra uses (its slugify,
// @sindresorhus/slugify with default options): Latin letters lose their
// diacritics as Mastra's transliteration does ("é" → "e", "ä" → "ae", "ß"
// → "ss"), "&" reads "and", camel case is split into words ("myServer" →
// "my server", "APIServer" → "api server"), "'s"/"'t" contractions are
// joined, everything is lowercased, and every run of characters other than
// a-z and 0-9 becomes one "-", with none at either end. Characters beyond
// Latin-1 Supplement and Latin Extended-A count as separators (Mastra's
// transliteration also covers other scripts).
func Slugify(s string) string {
	s = transliterate(s)
	for _, r := range decamelizeRules {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	s = strings.ToLower(s)
	s = contraction.ReplaceAllString(s, "${1}${2}${3}")
	s = nonSlug.ReplaceAllString(s, "-")
	return strings.Trim(s, "-")
}

var (
	decamelizeRules = []struct {
		re   *regexp.Regexp
		repl string
	}{
		{regexp.MustCompile(`([A-Z]{2,})(\d+)`), "${1} ${2}"},
		{regexp.MustCompile(`([a-z\d]+)([A-Z]{2,})`), "${1} ${2}"},
		{regexp.MustCompile(`([a-z\d])([A-Z])`), "${1} ${2}"},
		{regexp.MustCompile(`([A-Z]+)([A-Z][a-rt-z\d]+)`), "${1} ${2}"},
	}
	contraction = regexp.MustCompile(`([a-zA-Z\d]+)'([ts])(\s|$)`)
	nonSlug     = regexp.MustCompile(`[^a-z\d]+`)
)

// transliterate replaces the characters slugify rewrites before
// splitting words.
func transliterate(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < 0x80:
			if r == '&' {
				b.WriteString(" and ")
			} else {
				b.WriteRune(r)
			}
		case r == '♥':
			b.WriteString(" love ")
		case r == '🦄':
			b.WriteString(" unicorn ")
		case r >= 0x300 && r <= 0x36f:
			// A combining diacritical mark: dropped, as after Mastra's
			// decomposition.
		default:
			if t, ok := latinFold[r]; ok {
				b.WriteString(t)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// latinFold is what Mastra's transliteration makes of the Latin-1
// Supplement and Latin Extended-A characters it changes (recorded from
// @sindresorhus/transliterate; the characters it keeps, such as "Œ", are
// not listed and become separators).
var latinFold = map[rune]string{
	'¢': "c", '¥': "Y", '¨': "", '¯': "", '´': "", '·': "", '¸': "", 'À': "A", 'Á': "A", 'Â': "A",
	'Ã': "A", 'Ä': "Ae", 'Å': "A", 'Æ': "AE", 'Ç': "C", 'È': "E", 'É': "E", 'Ê': "E", 'Ë': "E",
	'Ì': "I", 'Í': "I", 'Î': "I", 'Ï': "I", 'Ð': "D", 'Ñ': "N", 'Ò': "O", 'Ó': "O", 'Ô': "O",
	'Õ': "O", 'Ö': "Oe", 'Ø': "O", 'Ù': "U", 'Ú': "U", 'Û': "U", 'Ü': "Ue", 'Ý': "Y", 'Þ': "TH",
	'ß': "ss", 'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "ae", 'å': "a", 'æ': "ae", 'ç': "c",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ð': "d",
	'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "oe", 'ø': "o", 'ù': "u", 'ú': "u",
	'û': "u", 'ü': "ue", 'ý': "y", 'þ': "th", 'ÿ': "y", 'Ā': "A", 'ā': "a", 'Ă': "A", 'ă': "a",
	'Ą': "A", 'ą': "a", 'Ć': "C", 'ć': "c", 'Ĉ': "C", 'ĉ': "c", 'Ċ': "C", 'ċ': "c", 'Č': "C",
	'č': "c", 'Ď': "D", 'ď': "d", 'Đ': "D", 'đ': "d", 'Ē': "E", 'ē': "e", 'Ĕ': "E", 'ĕ': "e",
	'Ė': "E", 'ė': "e", 'Ę': "E", 'ę': "e", 'Ě': "E", 'ě': "e", 'Ĝ': "G", 'ĝ': "g", 'Ğ': "G",
	'ğ': "g", 'Ġ': "G", 'ġ': "g", 'Ģ': "G", 'ģ': "g", 'Ĥ': "H", 'ĥ': "h", 'Ħ': "H", 'ħ': "h",
	'Ĩ': "I", 'ĩ': "i", 'Ī': "I", 'ī': "i", 'Ĭ': "I", 'ĭ': "i", 'Į': "I", 'į': "i", 'İ': "I",
	'ı': "i", 'Ĳ': "IJ", 'ĳ': "ij", 'Ĵ': "J", 'ĵ': "j", 'Ķ': "K", 'ķ': "k", 'Ĺ': "L", 'ĺ': "l",
	'Ļ': "L", 'ļ': "l", 'Ľ': "L", 'ľ': "l", 'Ł': "L", 'ł': "l", 'Ń': "N", 'ń': "n", 'Ņ': "N",
	'ņ': "n", 'Ň': "N", 'ň': "n", 'Ō': "O", 'ō': "o", 'Ŏ': "O", 'ŏ': "o", 'Ő': "O", 'ő': "o",
	'Ŕ': "R", 'ŕ': "r", 'Ŗ': "R", 'ŗ': "r", 'Ř': "R", 'ř': "r", 'Ś': "S", 'ś': "s", 'Ŝ': "S",
	'ŝ': "s", 'Ş': "S", 'ş': "s", 'Š': "S", 'š': "s", 'Ţ': "T", 'ţ': "t", 'Ť': "T", 'ť': "t",
	'Ũ': "U", 'ũ': "u", 'Ū': "U", 'ū': "u", 'Ŭ': "U", 'ŭ': "u", 'Ů': "U", 'ů': "u", 'Ű': "U",
	'ű': "u", 'Ų': "U", 'ų': "u", 'Ŵ': "W", 'ŵ': "w", 'Ŷ': "Y", 'ŷ': "y", 'Ÿ': "Y", 'Ź': "Z",
	'ź': "z", 'Ż': "Z", 'ż': "z", 'Ž': "Z", 'ž': "z",
}
