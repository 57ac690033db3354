package schema

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// TagKey is the struct tag [For] reads constraints from:
//
//	Quantity int    `json:"quantity" schema:"minimum=1,maximum=10"`
//	Color    string `json:"color" schema:"enum=red|green|blue,default=red"`
//
// The grammar, in full:
//
//   - The tag is a comma-separated list of keyword=value items. Each
//     keyword is given at most once; spaces around a keyword are ignored,
//     a value is taken verbatim.
//   - Go unquotes the tag value first: in source, each backslash below
//     is written twice (`schema:"pattern=^\\d+$"`). A tag Go cannot
//     unquote is a *[TagError], not ignored.
//   - A backslash before a comma, a pipe or a backslash makes that
//     character literal (\, \| \\); any other backslash is kept as it is,
//     so patterns such as ^\d+$ need no escaping, but a pattern's \\ or
//     \| is written \\\\ or \\\| and a{1,3} is written a{1\,3}.
//   - enum's values are separated by pipes (enum=a|b|c).
//   - Values for enum, const and default are typed by the field: on a
//     field whose JSON type is string (string, *string, a named string
//     type) the text is the string itself (enum=a|b, default=red); on any
//     other field it is JSON (enum=1|2, default=true, default=[1\,2]).
//   - A keyword prefixed "items." applies to the elements of a slice or
//     array field, once per level (Tags []string `schema:"items.enum=a|b"`).
//
// Keywords and the JSON Schema they write (MESSAGES.md lists Zod's
// equivalents and messages): description; enum; const; default;
// minimum, maximum, exclusiveMinimum, exclusiveMaximum and multipleOf on
// numbers; minLength, maxLength, pattern (Go RE2) and format (one of the
// formats the validator checks: email, uri, url, uuid, date-time, date,
// time, duration, jwt, hostname, emoji, ipv4, ipv6) on strings; minItems
// and maxItems on arrays.
//
// The `jsonschema` tag stays the field's description; describing a field
// in both tags is an error. A field with a default is not required (the
// validator fills it in when it is absent), as with Zod's .default().
// enum and const on a nullable field (a pointer) also allow null: const
// becomes a two-value enum.
const TagKey = "schema"

// TagError is the error [For] and [ForType] return for a struct tag they
// cannot apply: a syntax error, an unknown keyword, a keyword that does not
// fit the field's type, a value that does not parse or validate.
type TagError struct {
	// Type is the struct type whose field carries the tag.
	Type reflect.Type
	// Field is the Go field name.
	Field string
	// Key is the tag's key: "schema", or "jsonschema" for a description
	// tag that looks like a constraint.
	Key string
	// Tag is the tag's text.
	Tag string
	// Err says what is wrong.
	Err error
}

func (e *TagError) Error() string {
	return fmt.Sprintf("schema: %s.%s: tag %s:%q: %v", e.Type, e.Field, e.Key, e.Tag, e.Err)
}

func (e *TagError) Unwrap() error { return e.Err }

// tagItem is one keyword=value item of a schema tag. raw keeps the value's
// escapes, so that enum can split it on unescaped pipes.
type tagItem struct {
	keyword string   // without its "items." prefixes
	depth   int      // how many "items." prefixes it had
	raw     string   // the value as written
	values  []string // the unescaped value; several for enum
}

// parseTag splits a schema tag into its items. It reports an empty item,
// an item without "=", an unknown keyword and a repeated keyword.
func parseTag(tag string) ([]tagItem, error) {
	if tag == "" {
		return nil, errors.New("empty tag")
	}
	var items []tagItem
	seen := map[string]bool{}
	for _, part := range splitUnescaped(tag, ',') {
		key, raw, ok := strings.Cut(part, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("%q is not keyword=value", part)
		}
		if seen[key] {
			return nil, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		it := tagItem{keyword: key, raw: raw}
		for {
			rest, cut := strings.CutPrefix(it.keyword, "items.")
			if !cut {
				break
			}
			it.keyword, it.depth = rest, it.depth+1
		}
		if _, known := keywords[it.keyword]; !known {
			return nil, fmt.Errorf("unknown keyword %q (known: %s)", it.keyword, knownKeywords())
		}
		if it.keyword == "enum" {
			for _, v := range splitUnescaped(raw, '|') {
				it.values = append(it.values, unescape(v))
			}
		} else {
			it.values = []string{unescape(raw)}
		}
		items = append(items, it)
	}
	return items, nil
}

// splitUnescaped splits s at each sep not preceded by an escaping
// backslash, keeping the escapes in the parts.
func splitUnescaped(s string, sep byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && isEscapable(s[i+1]):
			i++
		case s[i] == sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// unescape turns \, \| and \\ into the character; other backslashes stay.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isEscapable(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isEscapable(c byte) bool { return c == ',' || c == '|' || c == '\\' }
