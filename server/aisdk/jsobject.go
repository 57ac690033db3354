package aisdk

import (
	"encoding/json"
	"iter"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/wire"
)

// jsObject is an ordered JSON object of the package's own making (the
// snapshots of data-tool-agent and data-tool-workflow parts), written
// member by member, JavaScript's undefined members left out. Unlike
// wire.Object it holds any Go value (converted to jsjson's model when
// rendered) and is rendered in the order its members were set, array-index
// keys included (decodeOrdered puts a decoded object's keys in JavaScript
// order once, when it decodes it).
type jsObject []member

type member struct {
	key string
	val any
}

// Members implements jsjson.Object. Values that are not jsjson's value
// model (strings, float64, bool, nil, []any, jsObject) are converted.
func (o jsObject) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, m := range o {
			if !yield(m.key, jsValue(m.val)) {
				return
			}
		}
	}
}

// MarshalJSON makes jsObject usable wherever encoding/json is.
func (o jsObject) MarshalJSON() ([]byte, error) { return jsjson.Append(nil, o, ""), nil }

// set replaces the value of key (keeping its position) or appends it.
func (o jsObject) set(key string, v any) jsObject {
	for i := range o {
		if o[i].key == key {
			o[i].val = v
			return o
		}
	}
	return append(o, member{key, v})
}

// get returns the value of key.
func (o jsObject) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// clone copies the member list (values are shared).
func (o jsObject) clone() jsObject { return append(jsObject(nil), o...) }

// jsValue converts a value to jsjson's value model: our own objects and
// jsjson's scalars pass through; anything else goes through its JSON.
func jsValue(v any) any {
	switch t := v.(type) {
	case nil, string, bool, float64, json.Number, jsObject, jsjson.Undefined:
		return v
	case int:
		return float64(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = jsValue(e)
		}
		return out
	case []jsObject:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out
	}
	raw, err := wire.MarshalNoHTML(v)
	if err != nil {
		return nil
	}
	dv, err := decodeOrdered(raw)
	if err != nil {
		return nil
	}
	return dv
}

// orderedBuilder decodes JSON into jsjson's value model with jsObject
// objects, keeping member order.
var orderedBuilder = jsjson.Builder[any]{
	Scalar: func(v any) any { return v },
	Array:  func(elems []any) any { return elems },
	Object: func(keys []string, vals []any) any {
		o := make(jsObject, 0, len(keys))
		for i, k := range keys {
			o = o.set(k, vals[i])
		}
		return o.jsOrdered()
	},
}

// jsOrdered puts array-index keys first, in ascending order, as every
// JavaScript object enumerates them.
func (o jsObject) jsOrdered() jsObject {
	keys := make([]string, len(o))
	for i, m := range o {
		keys[i] = m.key
	}
	ordered := jsjson.OrderKeys(keys)
	same := true
	for i := range keys {
		if keys[i] != ordered[i] {
			same = false
			break
		}
	}
	if same {
		return o
	}
	out := make(jsObject, 0, len(o))
	for _, k := range ordered {
		v, _ := o.get(k)
		out = append(out, member{k, v})
	}
	return out
}

// decodeOrdered decodes a JSON text keeping object member order.
func decodeOrdered(raw []byte) (any, error) {
	return jsjson.Decode(raw, orderedBuilder)
}
