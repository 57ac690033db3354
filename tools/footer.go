package tools

import (
	"encoding/json"

	"github.com/gomastra/mastra/internal/jsjson"
)

// sampleAbove is the size of JSON text from which the footer is rendered
// from a sample (footerSample) rather than from the whole text.
const sampleAbove = 4 << 10

// sampleItems is how many elements of an array, or members of an object,
// footerSample keeps: each takes at least a line of the footer's indented
// JSON (a new line, two spaces of indent, one character), so this many
// already fill more than footerLimit units.
const sampleItems = footerLimit/3 + 1

// footerSample returns a JSON text whose indented rendering begins with
// the same footerLimit UTF-16 units as raw's: raw with every array cut to
// its first sampleItems elements and every object to its first
// sampleItems members in JavaScript property order (a repeated key once,
// with its last value). raw must be valid JSON. Parts that are cut are
// scanned over, never decoded, so the footer of a huge value costs little.
func footerSample(raw []byte) []byte {
	out, _ := sampleValue(raw, skipSpace(raw, 0), nil)
	return out
}

// sampleValue appends the sample of the value at raw[i:] to out and
// returns it with the index after the value.
func sampleValue(raw []byte, i int, out []byte) ([]byte, int) {
	switch raw[i] {
	case '[':
		return sampleArray(raw, i, out)
	case '{':
		return sampleObject(raw, i, out)
	}
	end := skipValue(raw, i)
	return append(out, raw[i:end]...), end
}

func sampleArray(raw []byte, i int, out []byte) ([]byte, int) {
	out = append(out, '[')
	i = skipSpace(raw, i+1)
	for n := 0; raw[i] != ']'; n++ {
		if n < sampleItems {
			if n > 0 {
				out = append(out, ',')
			}
			out, i = sampleValue(raw, i, out)
		} else {
			i = skipValue(raw, i)
		}
		i = skipSpace(raw, i)
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return append(out, ']'), i + 1
}

// rawMember is an object member: its key and where its (last) value is.
type rawMember struct {
	keyText    []byte
	valueStart int
}

func sampleObject(raw []byte, i int, out []byte) ([]byte, int) {
	var keys []string
	members := map[string]rawMember{}
	i = skipSpace(raw, i+1)
	for raw[i] != '}' {
		keyEnd := skipValue(raw, i)
		var key string
		_ = json.Unmarshal(raw[i:keyEnd], &key)
		m, seen := members[key]
		if !seen {
			keys = append(keys, key)
			m.keyText = raw[i:keyEnd]
		}
		i = skipSpace(raw, keyEnd)
		i = skipSpace(raw, i+1) // the colon
		m.valueStart = i
		members[key] = m
		i = skipSpace(raw, skipValue(raw, i))
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	out = append(out, '{')
	for n, key := range jsjson.OrderKeys(keys)[:min(len(keys), sampleItems)] {
		if n > 0 {
			out = append(out, ',')
		}
		m := members[key]
		out = append(append(out, m.keyText...), ':')
		out, _ = sampleValue(raw, m.valueStart, out)
	}
	return append(out, '}'), i + 1
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index after the value at raw[i:], which must be
// valid JSON.
func skipValue(raw []byte, i int) int {
	depth := 0
	for ; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			for i++; raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}
