package wire

import "github.com/gomastra/mastra/internal/jsjson"

// Duplicates says what Decode does with a key an object repeats.
type Duplicates uint8

const (
	// KeepDuplicates keeps every member as it stands, a repeated key as
	// often as it does.
	KeepDuplicates Duplicates = iota
	// LastWins keeps a repeated key once, at its first place, with its
	// last value, as JSON.parse does.
	LastWins
)

// Decode decodes raw, one JSON value and nothing after it but white space,
// keeping the order of object members and the text of numbers: objects
// become *Object, arrays []any (non-nil), numbers json.Number, strings,
// bools and null (nil) themselves. It returns an error when raw is not
// valid JSON.
func Decode(raw []byte, d Duplicates) (any, error) {
	b := keepAll
	if d == LastWins {
		b = lastWins
	}
	return jsjson.Decode(raw, b)
}

var keepAll = jsjson.Builder[any]{
	Scalar: func(v any) any { return v },
	Array:  func(elems []any) any { return elems },
	Object: func(keys []string, vals []any) any { return &Object{Keys: keys, Vals: vals} },
}

var lastWins = jsjson.Builder[any]{
	Scalar: func(v any) any { return v },
	Array:  func(elems []any) any { return elems },
	Object: func(keys []string, vals []any) any {
		o := &Object{}
		for i, k := range keys {
			o.Set(k, vals[i])
		}
		return o
	},
}
