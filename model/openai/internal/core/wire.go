package core

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaJSON is a tool's input schema as the request carries it: its JSON,
// marshalled once and sent as it is. A schema whose JSON is not an object
// (the empty schema is true) is refused, as the SDK's map-typed parameters
// refused it (M is that map's type, named in the error); one whose JSON
// is null is none.
func SchemaJSON[M ~map[string]any](s *jsonschema.Schema) (json.RawMessage, error) {
	raw, err := json.Marshal(s)
	if err != nil || (len(raw) > 0 && raw[0] == '{') {
		return raw, err
	}
	var m M
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, nil
	}
	return json.Marshal(m)
}

// OptString is a JSON string member that tells a string, even an empty
// one, from an absent or null member (the SDK's field.Valid()). As the SDK
// does, it takes a number or a boolean as its JSON text, and an array or
// an object as no string.
type OptString struct {
	Value string
	Valid bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *OptString) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || b[0] == 'n' || b[0] == '[' || b[0] == '{':
		*o = OptString{}
		return nil
	case b[0] != '"':
		*o = OptString{Value: string(b), Valid: true}
		return nil
	}
	if s, ok := plainString(b); ok {
		*o = OptString{Value: s, Valid: true}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*o = OptString{Value: s, Valid: true}
	return nil
}

// plainString is the text of a quoted JSON string without escapes,
// control characters or non-ASCII bytes (which encoding/json would
// decode as they are); false for any other.
func plainString(b []byte) (string, bool) {
	inner := b[1 : len(b)-1]
	for _, c := range inner {
		if c < ' ' || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return "", false
		}
	}
	return string(inner), true
}

// Int is a JSON integer member read as leniently as the SDK reads one: a
// number with a fraction is truncated (some OpenAI-compatible servers
// send counts and times as floats), a string holding a number is that
// number, anything else is 0.
type Int int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int) UnmarshalJSON(b []byte) error {
	*n = 0
	if len(b) > 1 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
		b = []byte(s)
	}
	if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*n = Int(i)
	} else if f, err := strconv.ParseFloat(string(b), 64); err == nil {
		*n = Int(f)
	}
	return nil
}
