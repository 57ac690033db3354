// Package flatjson decodes and encodes "flat" structs (exported fields of
// bool, integer, float and string kinds, nothing else) straight from and to
// JSON bytes, with the field layout computed once per type. It is the fast
// path of typed tool execution: the tools package uses it only for
// arguments the compiled schema has already accepted, and falls back to
// encoding/json whenever it says no.
//
// Its contract is agreement with encoding/json: when Decode returns true
// the struct holds exactly what json.Unmarshal would have stored for an
// object with those exact (case-sensitive, non-repeated) keys, and
// AppendJSON's bytes are exactly json.Marshal's. Anything outside that
// (escaped strings, unknown or repeated keys, out-of-range numbers,
// non-finite floats, ",string" options, custom marshalers) is refused.
package flatjson

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Codec is the compiled layout of one struct type. It is immutable and safe
// for concurrent use.
type Codec struct {
	fields []field
}

type field struct {
	name      string
	key       []byte // `"name":`
	offset    uintptr
	kind      reflect.Kind
	omitEmpty bool
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// For returns the codec of t, or nil when t is not a flat struct.
func For(t reflect.Type) *Codec {
	if t.Kind() != reflect.Struct || customCodec(t) {
		return nil
	}
	c := &Codec{}
	seen := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous || !sf.IsExported() {
			return nil // embedded fields and their promotion rules: leave them to encoding/json
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		omitEmpty := false
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "":
			case "omitempty":
				omitEmpty = true
			default:
				return nil // ",string", "omitzero" and future options
			}
		}
		if name == "" {
			name = sf.Name
		}
		if !plainName(name) || seen[name] || customCodec(sf.Type) {
			return nil
		}
		seen[name] = true
		switch sf.Type.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64, reflect.String:
		default:
			return nil
		}
		c.fields = append(c.fields, field{
			name: name, key: []byte(`"` + name + `":`), offset: sf.Offset,
			kind: sf.Type.Kind(), omitEmpty: omitEmpty,
		})
	}
	return c
}

func customCodec(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || p.Implements(jsonMarshaler) ||
		t.Implements(jsonUnmarshaler) || p.Implements(jsonUnmarshaler) ||
		t.Implements(textMarshaler) || p.Implements(textMarshaler) ||
		t.Implements(textUnmarshaler) || p.Implements(textUnmarshaler)
}

// plainName reports whether name needs no escaping as a JSON key.
func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return name != ""
}

func (c *Codec) field(key []byte) int {
	for i := range c.fields {
		if c.fields[i].name == string(key) {
			return i
		}
	}
	return -1
}

// Decode stores the JSON object data into the struct at p, which must
// point to a zero value of the codec's type. It returns false (leaving the
// struct in an unspecified state) for anything it does not handle; the
// caller then zeroes the struct and uses encoding/json.
func (c *Codec) Decode(data []byte, p unsafe.Pointer) bool {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipWS(data, i+1) == len(data)
	}
	var seen uint64
	for {
		key, next, ok := plainString(data, i)
		if !ok {
			return false
		}
		fi := c.field(key)
		if fi < 0 || fi >= 64 || seen&(1<<fi) != 0 {
			return false
		}
		seen |= 1 << fi
		i = skipWS(data, next)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipWS(data, i+1)
		if i, ok = c.fields[fi].decode(data, i, p); !ok {
			return false
		}
		i = skipWS(data, i)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipWS(data, i+1)
		case '}':
			return skipWS(data, i+1) == len(data)
		default:
			return false
		}
	}
}

func (f *field) decode(data []byte, i int, p unsafe.Pointer) (int, bool) {
	at := unsafe.Add(p, f.offset)
	if i+4 <= len(data) && string(data[i:i+4]) == "null" {
		return i + 4, true // encoding/json leaves the field alone
	}
	switch f.kind {
	case reflect.Bool:
		switch {
		case i+4 <= len(data) && string(data[i:i+4]) == "true":
			*(*bool)(at) = true
			return i + 4, true
		case i+5 <= len(data) && string(data[i:i+5]) == "false":
			*(*bool)(at) = false
			return i + 5, true
		}
		return i, false
	case reflect.String:
		s, next, ok := plainString(data, i)
		if !ok {
			return i, false
		}
		*(*string)(at) = string(s)
		return next, true
	case reflect.Float32, reflect.Float64:
		end, _, ok := number(data, i)
		if !ok {
			return i, false
		}
		bits := 64
		if f.kind == reflect.Float32 {
			bits = 32
		}
		v, err := strconv.ParseFloat(string(data[i:end]), bits)
		if err != nil {
			return i, false
		}
		if bits == 32 {
			*(*float32)(at) = float32(v)
		} else {
			*(*float64)(at) = v
		}
		return end, true
	}
	end, integral, ok := number(data, i)
	if !ok || !integral {
		return i, false
	}
	return end, f.storeInt(data[i:end], at)
}

func (f *field) storeInt(digits []byte, at unsafe.Pointer) bool {
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	if len(digits) > 20 {
		return false
	}
	var u uint64
	for _, d := range digits {
		if u > (math.MaxUint64-uint64(d-'0'))/10 {
			return false
		}
		u = u*10 + uint64(d-'0')
	}
	switch f.kind {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if neg {
			return false // encoding/json refuses even -0 for unsigned fields
		}
		switch f.kind {
		case reflect.Uint8:
			if u > math.MaxUint8 {
				return false
			}
			*(*uint8)(at) = uint8(u)
		case reflect.Uint16:
			if u > math.MaxUint16 {
				return false
			}
			*(*uint16)(at) = uint16(u)
		case reflect.Uint32:
			if u > math.MaxUint32 {
				return false
			}
			*(*uint32)(at) = uint32(u)
		case reflect.Uint:
			if u > math.MaxUint {
				return false
			}
			*(*uint)(at) = uint(u)
		default:
			*(*uint64)(at) = u
		}
		return true
	}
	var v int64
	switch {
	case neg && u > 1<<63:
		return false
	case neg:
		v = -int64(u) // u == 1<<63 wraps to MinInt64, which is right
	case u > math.MaxInt64:
		return false
	default:
		v = int64(u)
	}
	switch f.kind {
	case reflect.Int8:
		if v < math.MinInt8 || v > math.MaxInt8 {
			return false
		}
		*(*int8)(at) = int8(v)
	case reflect.Int16:
		if v < math.MinInt16 || v > math.MaxInt16 {
			return false
		}
		*(*int16)(at) = int16(v)
	case reflect.Int32:
		if v < math.MinInt32 || v > math.MaxInt32 {
			return false
		}
		*(*int32)(at) = int32(v)
	case reflect.Int:
		if v < math.MinInt || v > math.MaxInt {
			return false
		}
		*(*int)(at) = int(v)
	default:
		*(*int64)(at) = v
	}
	return true
}

// number scans a JSON number at i; integral reports no fraction or
// exponent.
func number(data []byte, i int) (end int, integral, ok bool) {
	start := i
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return start, false, false
	}
	integral = true
	if i < len(data) && data[i] == '.' {
		integral = false
		i++
		d := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == d {
			return start, false, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		integral = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		d := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == d {
			return start, false, false
		}
	}
	return i, integral, true
}

// plainString returns the contents of the JSON string at i when it holds
// no escapes and only valid UTF-8 (what encoding/json copies verbatim).
func plainString(data []byte, i int) (s []byte, next int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, i, false
	}
	start := i + 1
	for j := start; j < len(data); j++ {
		c := data[j]
		switch {
		case c == '"':
			s = data[start:j]
			return s, j + 1, utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, i, false
		}
	}
	return nil, i, false
}

func skipWS(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// AppendJSON appends the JSON of the struct at p to dst, byte for byte
// json.Marshal's output. ok is false when a value needs what this package
// does not do (a string to escape, a float in exponent form, NaN).
func (c *Codec) AppendJSON(dst []byte, p unsafe.Pointer) (out []byte, ok bool) {
	dst = append(dst, '{')
	first := true
	for i := range c.fields {
		f := &c.fields[i]
		at := unsafe.Add(p, f.offset)
		if f.omitEmpty && isZero(f.kind, at) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, f.key...)
		switch f.kind {
		case reflect.Bool:
			dst = strconv.AppendBool(dst, *(*bool)(at))
		case reflect.Int:
			dst = strconv.AppendInt(dst, int64(*(*int)(at)), 10)
		case reflect.Int8:
			dst = strconv.AppendInt(dst, int64(*(*int8)(at)), 10)
		case reflect.Int16:
			dst = strconv.AppendInt(dst, int64(*(*int16)(at)), 10)
		case reflect.Int32:
			dst = strconv.AppendInt(dst, int64(*(*int32)(at)), 10)
		case reflect.Int64:
			dst = strconv.AppendInt(dst, *(*int64)(at), 10)
		case reflect.Uint:
			dst = strconv.AppendUint(dst, uint64(*(*uint)(at)), 10)
		case reflect.Uint8:
			dst = strconv.AppendUint(dst, uint64(*(*uint8)(at)), 10)
		case reflect.Uint16:
			dst = strconv.AppendUint(dst, uint64(*(*uint16)(at)), 10)
		case reflect.Uint32:
			dst = strconv.AppendUint(dst, uint64(*(*uint32)(at)), 10)
		case reflect.Uint64:
			dst = strconv.AppendUint(dst, *(*uint64)(at), 10)
		case reflect.Float32, reflect.Float64:
			var v float64
			bits := 64
			if f.kind == reflect.Float32 {
				v, bits = float64(*(*float32)(at)), 32
			} else {
				v = *(*float64)(at)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, false
			}
			if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
				return nil, false
			}
			dst = strconv.AppendFloat(dst, v, 'f', -1, bits)
		case reflect.String:
			s := *(*string)(at)
			for j := 0; j < len(s); j++ {
				if c := s[j]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
					return nil, false
				}
			}
			dst = append(dst, '"')
			dst = append(dst, s...)
			dst = append(dst, '"')
		}
	}
	return append(dst, '}'), true
}

func isZero(kind reflect.Kind, at unsafe.Pointer) bool {
	switch kind {
	case reflect.Bool:
		return !*(*bool)(at)
	case reflect.Int:
		return *(*int)(at) == 0
	case reflect.Int8:
		return *(*int8)(at) == 0
	case reflect.Int16:
		return *(*int16)(at) == 0
	case reflect.Int32:
		return *(*int32)(at) == 0
	case reflect.Int64:
		return *(*int64)(at) == 0
	case reflect.Uint:
		return *(*uint)(at) == 0
	case reflect.Uint8:
		return *(*uint8)(at) == 0
	case reflect.Uint16:
		return *(*uint16)(at) == 0
	case reflect.Uint32:
		return *(*uint32)(at) == 0
	case reflect.Uint64:
		return *(*uint64)(at) == 0
	case reflect.Float32:
		return *(*float32)(at) == 0
	case reflect.Float64:
		return *(*float64)(at) == 0
	case reflect.String:
		return *(*string)(at) == ""
	}
	return false
}
