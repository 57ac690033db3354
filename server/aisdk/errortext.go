package aisdk

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/wire"
)

// redactedErrorFields are the members of provider errors that may carry
// the request sent to the model (its system prompt included) or the
// provider's raw answer; SafeErrorText leaves them out at any depth.
var redactedErrorFields = map[string]bool{
	"requestBodyValues": true,
	"responseBody":      true,
	"responseHeaders":   true,
	"data":              true,
	"prompt":            true,
}

// SafeErrorText renders an error value for a UI stream's errorText, as
// @mastra/ai-sdk's default error serialiser does: a string as it is; an
// object as its JSON without the members that could leak the prompt or
// the provider's answer (requestBodyValues, responseBody, responseHeaders,
// data, prompt — at any depth); a Go error whose JSON says nothing ("{}")
// as its Error() text; numbers and booleans as JavaScript prints them;
// nil as "undefined".
func SafeErrorText(v any) string {
	switch t := v.(type) {
	case nil:
		return "undefined"
	case string:
		return t
	case error:
		if s, ok := redactedJSON(t); ok && s != "{}" {
			return s
		}
		return t.Error()
	}
	s, ok := redactedJSON(v)
	if !ok {
		return fmt.Sprint(v)
	}
	if s == "{}" {
		return "[object Object]"
	}
	return s
}

// redactedJSON renders v's JSON without the redacted members; a scalar
// value is rendered as JavaScript's String() would. ok is false when v has
// no JSON form.
func redactedJSON(v any) (string, bool) {
	raw, err := wire.MarshalNoHTML(v)
	if err != nil {
		return "", false
	}
	dv, err := decodeOrdered(raw)
	if err != nil {
		return "", false
	}
	switch t := dv.(type) {
	case nil:
		return "null", true
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return t.String(), true
		}
		return jsjson.FormatNumber(f), true
	}
	return string(jsjson.Append(nil, redact(dv), "")), true
}

// redact drops the redacted members from every object in v.
func redact(v any) any {
	switch t := v.(type) {
	case jsObject:
		out := make(jsObject, 0, len(t))
		for _, m := range t {
			if redactedErrorFields[m.key] {
				continue
			}
			out = append(out, member{m.key, redact(m.val)})
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = redact(e)
		}
		return out
	}
	return v
}
