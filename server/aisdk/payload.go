package aisdk

import "github.com/gomastra/mastra/stream"

// Reading chunk payloads whatever their Go form: the payload structs of
// package stream, values decoded from JSON, or JSON text.

// errorOf is an error chunk's error value.
func errorOf(payload any) any {
	if p, ok := payload.(stream.ErrorPayload); ok {
		return p.Error
	}
	return get(payloadObject(payload), "error")
}

// optString is s, or nil (undefined) when empty.
func optString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// appendDefined appends key unless v is nil (undefined).
func appendDefined(o jsObject, key string, v any) jsObject {
	if v == nil {
		return o
	}
	return append(o, member{key, v})
}

// payloadObject returns a chunk payload's members, whatever its Go type
// (a payload struct, a decoded map, raw JSON); nil when it is not an
// object.
func payloadObject(p any) jsObject {
	switch t := p.(type) {
	case nil:
		return nil
	case jsObject:
		return t
	}
	o, _ := jsValue(p).(jsObject)
	return o
}

func get(o jsObject, key string) any {
	v, _ := o.get(key)
	return v
}

func str(o jsObject, key string) string {
	s, _ := get(o, key).(string)
	return s
}

// plain converts a decoded value back to encoding/json's model (maps),
// for fields typed map[string]any.
func plain(v any) any {
	switch t := v.(type) {
	case jsObject:
		m := make(map[string]any, len(t))
		for _, mb := range t {
			m[mb.key] = plain(mb.val)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
