package wire

import (
	"iter"
	"slices"

	"github.com/gomastra/mastra/internal/jsjson"
)

// Object is a JSON object that keeps its members in order: Keys[i] names
// Vals[i]. Values are of jsjson's value model: nil, bool, string,
// json.Number, float64, []any and *Object. A key may stand more than once
// in an object decoded with KeepDuplicates; the methods below then act on
// its first member.
//
// Rendered by jsjson.Append (through Members, or MarshalJSON), an Object
// is the JavaScript object JSON.parse would make of it; AppendAsIs
// renders it member for member as it stands.
type Object struct {
	Keys []string
	Vals []any
}

// Index returns the position of the first member named key, or -1.
func (o *Object) Index(key string) int { return slices.Index(o.Keys, key) }

// Has reports whether o has a member named key.
func (o *Object) Has(key string) bool { return o.Index(key) >= 0 }

// Get returns the value of the first member named key.
func (o *Object) Get(key string) (any, bool) {
	if i := o.Index(key); i >= 0 {
		return o.Vals[i], true
	}
	return nil, false
}

// Set replaces the value of the first member named key, keeping its
// place, or appends the member.
func (o *Object) Set(key string, val any) {
	if i := o.Index(key); i >= 0 {
		o.Vals[i] = val
		return
	}
	o.Keys = append(o.Keys, key)
	o.Vals = append(o.Vals, val)
}

// Prepend puts the member key: val first.
func (o *Object) Prepend(key string, val any) {
	o.Keys = slices.Insert(o.Keys, 0, key)
	o.Vals = slices.Insert(o.Vals, 0, val)
}

// Delete removes the first member named key, if any.
func (o *Object) Delete(key string) {
	if i := o.Index(key); i >= 0 {
		o.Keys = slices.Delete(o.Keys, i, i+1)
		o.Vals = slices.Delete(o.Vals, i, i+1)
	}
}

// Members makes Object a jsjson.Object: its members in JavaScript
// property order (array-index keys first, ascending; the others in
// order), a repeated key once, at its first place, with its last value
// (as JSON.parse keeps it).
func (o *Object) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		keys := make([]string, 0, len(o.Keys))
		for i, k := range o.Keys {
			if slices.Index(o.Keys, k) == i {
				keys = append(keys, k)
			}
		}
		for _, k := range jsjson.OrderKeys(keys) {
			if !yield(k, o.Vals[o.lastIndex(k)]) {
				return
			}
		}
	}
}

// lastIndex returns the position of the last member named key, or -1.
func (o *Object) lastIndex(key string) int {
	for i := len(o.Keys) - 1; i >= 0; i-- {
		if o.Keys[i] == key {
			return i
		}
	}
	return -1
}

// AppendJS appends o as JSON.stringify renders it (jsjson.Append).
func (o *Object) AppendJS(b []byte) []byte { return jsjson.Append(b, o, "") }

// MarshalJSON renders o as JSON.stringify would (AppendJS).
func (o *Object) MarshalJSON() ([]byte, error) { return o.AppendJS(nil), nil }
