package compat

import (
	"fmt"
	"regexp"
)

// normalize is the only difference the comparisons allow between what
// real Mastra gave and what the Go server gives: the values that change on
// every run. It works on the JSON text itself, so key order, spacing,
// number formatting and everything else stay compared byte for byte.
//
//   - Wall-clock times become "<time>": the value (number or string) of a
//     key ending in "At" (createdAt, startedAt, endedAt, suspendedAt,
//     resumedAt, ...), a stored snapshot's "timestamp" (milliseconds), and any ISO-8601 string other than the Unix epoch
//     (which the scripted model reports, and so stays compared).
//   - UUIDs (run, message, thread ids) become <id1>, <id2>, ... numbered by
//     first appearance in the text, so that which places share an id is
//     still compared.
func normalize(s string) string {
	s = timeKeyRE.ReplaceAllString(s, `"$1":$2"<time>"`)
	s = stampRE.ReplaceAllString(s, `"$1":$2"<time>"`)
	s = isoRE.ReplaceAllStringFunc(s, func(m string) string {
		if m == `"`+epochISO+`"` {
			return m
		}
		return `"<time>"`
	})
	ids := map[string]string{}
	return uuidRE.ReplaceAllStringFunc(s, func(id string) string {
		r, ok := ids[id]
		if !ok {
			r = fmt.Sprintf("<id%d>", len(ids)+1)
			ids[id] = r
		}
		return r
	})
}

var (
	timeKeyRE = regexp.MustCompile(`"([A-Za-z]*[a-z]At)":(\s*)(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"[^"\\]*")`)
	// stampRE is a stored snapshot's "timestamp" in milliseconds (a
	// model's response timestamp is the epoch as a string, and stays).
	stampRE = regexp.MustCompile(`"(timestamp)":(\s*)\d{13}\b`)
	isoRE   = regexp.MustCompile(`"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})"`)
	uuidRE  = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
)

const epochISO = "1970-01-01T00:00:00.000Z"
