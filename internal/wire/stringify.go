package wire

import (
	"strconv"

	"github.com/gomastra/mastra/internal/jsjson"
)

// AppendValue appends v as JSON.stringify writes the value encoding/json
// makes of it: nil as null, a string escaped Stringify, a bool, a
// jsjson.Object by jsjson.Append; anything else is encoded by
// MarshalNoHTML and re-rendered by AppendStringified (JavaScript's key
// order and numbers). On an error b is returned unchanged.
func AppendValue(b []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return AppendString(b, t, Stringify), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case jsjson.Object:
		return jsjson.Append(b, t, ""), nil
	}
	raw, err := MarshalNoHTML(v)
	if err != nil {
		return b, err
	}
	return AppendStringified(b, raw)
}

// AppendStringified appends the JSON text raw re-rendered as
// JSON.stringify(JSON.parse(raw)) would write it (jsjson.Stringify).
// Texts that would come out unchanged, the common case, are recognised in
// one pass and copied. It returns an error, and b unchanged, when raw is
// not valid JSON (or, for an invalid text the quick check accepts, raw
// copied as is).
func AppendStringified(b, raw []byte) ([]byte, error) {
	if isPlainJSON(raw) {
		return append(b, raw...), nil
	}
	s, err := jsjson.Stringify(raw, "")
	if err != nil {
		return b, err
	}
	return append(b, s...), nil
}

// StringifyText is raw re-rendered as JSON.stringify would write it, or
// raw itself when it is not valid JSON.
func StringifyText(raw []byte) string {
	b, err := AppendStringified(nil, raw)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
