package wire

import "strconv"

// Mode is how an ObjectWriter renders strings and Go values.
type Mode uint8

const (
	// GoMode renders Go values as Marshal does (encoding/json's key order
	// and number text) and strings escaped StringifyGo: the answers of
	// package server.
	GoMode Mode = iota
	// JSMode renders Go values as AppendValue does (JSON.stringify of
	// their JSON: JavaScript's key order and numbers) and strings escaped
	// Stringify: the UI message stream parts of server/aisdk.
	JSMode
)

// ObjectWriter appends one JSON object to a buffer, member by member, in
// the order written. The first error of a Value is kept (Err) and the
// member it failed on is left out. The zero value is not ready: use
// NewObjectWriter.
type ObjectWriter struct {
	b    []byte
	n    int
	mode Mode
	err  error
}

// NewObjectWriter starts an object at the end of b.
func NewObjectWriter(b []byte, m Mode) *ObjectWriter {
	return &ObjectWriter{b: append(b, '{'), mode: m}
}

// key starts a member: the comma before it, its key and the colon.
func (w *ObjectWriter) key(k string) {
	if w.n > 0 {
		w.b = append(w.b, ',')
	}
	w.n++
	w.b = AppendString(w.b, k, w.escaping())
	w.b = append(w.b, ':')
}

func (w *ObjectWriter) escaping() Escaping {
	if w.mode == JSMode {
		return Stringify
	}
	return StringifyGo
}

// Raw adds key with v, a JSON text written as it is.
func (w *ObjectWriter) Raw(key string, v []byte) *ObjectWriter {
	w.key(key)
	w.b = append(w.b, v...)
	return w
}

// Str adds key with the string v.
func (w *ObjectWriter) Str(key, v string) *ObjectWriter {
	w.key(key)
	w.b = AppendString(w.b, v, w.escaping())
	return w
}

// StrOpt adds key with the string v unless v is "".
func (w *ObjectWriter) StrOpt(key, v string) *ObjectWriter {
	if v != "" {
		w.Str(key, v)
	}
	return w
}

// Bool adds key with the boolean v.
func (w *ObjectWriter) Bool(key string, v bool) *ObjectWriter {
	w.key(key)
	w.b = strconv.AppendBool(w.b, v)
	return w
}

// BoolOpt adds key with *v unless v is nil.
func (w *ObjectWriter) BoolOpt(key string, v *bool) *ObjectWriter {
	if v != nil {
		w.Bool(key, *v)
	}
	return w
}

// Int adds key with the number n.
func (w *ObjectWriter) Int(key string, n int) *ObjectWriter {
	w.key(key)
	w.b = strconv.AppendInt(w.b, int64(n), 10)
	return w
}

// Value adds key with v rendered in the writer's Mode (nil is null). When
// v cannot be encoded the member is left out and the error kept.
func (w *ObjectWriter) Value(key string, v any) *ObjectWriter {
	size, n := len(w.b), w.n
	w.key(key)
	var err error
	if w.mode == JSMode {
		w.b, err = AppendValue(w.b, v)
	} else {
		var raw []byte
		if raw, err = Marshal(v); err == nil {
			w.b = append(w.b, raw...)
		}
	}
	if err != nil {
		w.b, w.n = w.b[:size], n
		if w.err == nil {
			w.err = err
		}
	}
	return w
}

// ValueOpt adds key with v unless v is nil (JavaScript's undefined).
func (w *ObjectWriter) ValueOpt(key string, v any) *ObjectWriter {
	if v != nil {
		w.Value(key, v)
	}
	return w
}

// MapOpt adds key with m unless m is nil.
func (w *ObjectWriter) MapOpt(key string, m map[string]any) *ObjectWriter {
	if m != nil {
		w.Value(key, m)
	}
	return w
}

// Err returns the first error of a Value, or nil.
func (w *ObjectWriter) Err() error { return w.err }

// Bytes closes the object and returns the buffer: what was given to
// NewObjectWriter followed by the object. Nothing may be added after.
func (w *ObjectWriter) Bytes() []byte { return append(w.b, '}') }
