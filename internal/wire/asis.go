package wire

import (
	"encoding/json"
	"strconv"

	"github.com/gomastra/mastra/internal/jsjson"
)

// AppendAsIs appends v, a value of Object's model, member for member as
// it stands: object members in their order, repeated keys included;
// numbers as their text (a float64 as JavaScript prints it); strings and
// keys escaped e's way. Values outside the model are written as null.
func AppendAsIs(b []byte, v any, e Escaping) []byte {
	switch t := v.(type) {
	case *Object:
		b = append(b, '{')
		for i, k := range t.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, k, e)
			b = append(b, ':')
			b = AppendAsIs(b, t.Vals[i], e)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, el := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendAsIs(b, el, e)
		}
		return append(b, ']')
	case string:
		return AppendString(b, t, e)
	case json.Number:
		return append(b, t...)
	case float64:
		return append(b, jsjson.FormatNumber(t)...)
	case bool:
		return strconv.AppendBool(b, t)
	}
	return append(b, "null"...)
}
