package schema

import (
	"math"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// boundIntegers gives every integer in a schema inferred from t the range
// its Go type (and JavaScript) can hold, so that an out-of-range number is
// a validation issue the model can fix rather than a decoding failure:
// int8 to int32 and uint8 to uint32 their own ranges; int, int64, uint,
// uint64 and uintptr JavaScript's safe integers, ±(2^53−1), which is what
// Zod's z.int() allows and what Mastra serves for it.
func boundIntegers(t reflect.Type, s *jsonschema.Schema, seen map[reflect.Type]bool) {
	if s == nil {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if seen[t] {
		return
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		if !hasType(s, "integer") || s.Minimum != nil || s.Maximum != nil {
			return
		}
		lo, hi := integerRange(t.Kind())
		s.Minimum, s.Maximum = &lo, &hi
	case reflect.Slice, reflect.Array:
		boundIntegers(t.Elem(), s.Items, seen)
	case reflect.Map:
		boundIntegers(t.Elem(), s.AdditionalProperties, seen)
	case reflect.Struct:
		if t.Name() != "" {
			seen[t] = true
			defer delete(seen, t)
		}
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous || !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			boundIntegers(f.Type, s.Properties[name], seen)
		}
	}
}

func hasType(s *jsonschema.Schema, typ string) bool {
	if s.Type == typ {
		return true
	}
	for _, t := range s.Types {
		if t == typ {
			return true
		}
	}
	return false
}

func integerRange(k reflect.Kind) (lo, hi float64) {
	switch k {
	case reflect.Int8:
		return math.MinInt8, math.MaxInt8
	case reflect.Int16:
		return math.MinInt16, math.MaxInt16
	case reflect.Int32:
		return math.MinInt32, math.MaxInt32
	case reflect.Uint8:
		return 0, math.MaxUint8
	case reflect.Uint16:
		return 0, math.MaxUint16
	case reflect.Uint32:
		return 0, math.MaxUint32
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return 0, maxSafeInteger
	}
	return -maxSafeInteger, maxSafeInteger
}
