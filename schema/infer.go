package schema

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// refiner completes the schema jsonschema-go inferred from a Go type,
// walking the type alongside it (pointers, slices, arrays, map values,
// struct fields):
//
//   - Every integer gets the range its Go type (and JavaScript) can hold,
//     so that an out-of-range number is a validation issue the model can
//     fix rather than a decoding failure: int8 to int32 and uint8 to
//     uint32 their own ranges; int, int64, uint, uint64 and uintptr
//     JavaScript's safe integers, ±(2^53−1), which is what Zod's z.int()
//     allows and what Mastra serves for it.
//   - A slice that is not behind a pointer is "type": "array", not
//     ["null", "array"]: Zod's z.array() refuses null and models should
//     not be told it is allowed. A *[]T stays nullable. Such slices are
//     recorded in nilSlices: Go encodes a nil slice as null, so the
//     validator reads null there as the empty array.
//   - Struct fields' schema tags ([TagKey]) are applied.
type refiner struct {
	seen      map[reflect.Type]bool
	nilSlices map[*jsonschema.Schema]bool
}

func newRefiner() *refiner {
	return &refiner{seen: map[reflect.Type]bool{}, nilSlices: map[*jsonschema.Schema]bool{}}
}

// refine refines s, the schema of t. The error is a *[TagError] for a tag
// that cannot be applied.
func (r *refiner) refine(t reflect.Type, s *jsonschema.Schema) error {
	if s == nil {
		return nil
	}
	nullable := t.Kind() == reflect.Pointer
	t = derefType(t)
	if r.seen[t] {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if !nullable && s.Type == "" && slices.Equal(s.Types, []string{"null", "array"}) {
			s.Type, s.Types = "array", nil
			r.nilSlices[s] = true
		}
		return r.refine(t.Elem(), s.Items)
	case reflect.Map:
		return r.refine(t.Elem(), s.AdditionalProperties)
	case reflect.Struct:
		return r.refineStruct(t, s)
	default:
		if lo, hi, ok := integerRange(t.Kind()); ok && hasType(s, "integer") {
			if s.Minimum == nil {
				s.Minimum = &lo
			}
			if s.Maximum == nil {
				s.Maximum = &hi
			}
		}
	}
	return nil
}

// refineStruct refines the property schemas of struct type t's fields and
// applies their schema tags. A type with a schema of its own (time.Time:
// a string) has no properties and is left alone.
func (r *refiner) refineStruct(t reflect.Type, s *jsonschema.Schema) error {
	if s.Properties == nil {
		return nil
	}
	if t.Name() != "" {
		r.seen[t] = true
		defer delete(r.seen, t)
	}
	order, fields, err := schemaFields(t)
	if err != nil {
		return err
	}
	for _, name := range order {
		f, fs := fields[name], s.Properties[name]
		if err := r.refine(f.Type, fs); err != nil {
			return err
		}
		tag, ok, err := schemaTag(t, f)
		if err != nil {
			return err
		}
		if !ok || fs == nil {
			continue
		}
		items, err := parseTag(tag)
		if err == nil {
			err = applyTag(s, fs, name, f.Type, items)
		}
		if err != nil {
			return &TagError{Type: t, Field: f.Name, Key: TagKey, Tag: tag, Err: err}
		}
	}
	return nil
}

// schemaFields lists struct type t's properties in order, each with the
// field giving its schema (as jsonschema-go does, the last field of a JSON
// name). A schema tag on a field that is no property is a *[TagError].
func schemaFields(t reflect.Type) ([]string, map[string]reflect.StructField, error) {
	var order []string
	fields := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(t) {
		name, inJSON := jsonName(f)
		if !inJSON {
			if tag, ok, err := schemaTag(t, f); err != nil || ok {
				if err == nil {
					err = &TagError{Type: t, Field: f.Name, Key: TagKey, Tag: tag,
						Err: errors.New("the field is not a property of the schema (unexported, embedded or json:\"-\")")}
				}
				return nil, nil, err
			}
			continue
		}
		if _, dup := fields[name]; !dup {
			order = append(order, name)
		}
		fields[name] = f
	}
	return order, fields, nil
}

// schemaTag is field f's schema tag. A tag reflect cannot read (a quoted
// value Go cannot unquote, such as "^\d" with one backslash) is a
// *[TagError] rather than no tag: the constraint would vanish silently.
func schemaTag(t reflect.Type, f reflect.StructField) (string, bool, error) {
	tag, ok := f.Tag.Lookup(TagKey)
	if ok || !hasTagKey(string(f.Tag), TagKey) {
		return tag, ok, nil
	}
	return "", false, &TagError{Type: t, Field: f.Name, Key: TagKey, Tag: string(f.Tag),
		Err: errors.New(`the struct tag is not valid Go struct tag syntax (go vet reports it); in a quoted tag value a backslash is written \\, as in schema:"pattern=^\\d+$"`)}
}

// hasTagKey reports whether the raw struct tag has key:" at a key's
// position (its start or after a space).
func hasTagKey(raw, key string) bool {
	for i := 0; ; {
		j := strings.Index(raw[i:], key+`:"`)
		if j < 0 {
			return false
		}
		if i+j == 0 || raw[i+j-1] == ' ' {
			return true
		}
		i += j + 1
	}
}

// jsonName is the property name jsonschema-go gives f, and whether f is a
// property at all (exported, not embedded, not json:"-").
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() || f.Anonymous {
		return "", false
	}
	tag, ok := f.Tag.Lookup("json")
	if !ok {
		return f.Name, true
	}
	name, _, found := strings.Cut(tag, ",")
	switch {
	case name == "-" && !found:
		return "", false
	case name == "":
		return f.Name, true
	}
	return name, true
}

// descriptionConstraint finds, among the struct types reachable from t, a
// field whose jsonschema tag jsonschema-go refuses because it looks like a
// constraint ("minimum=1"), and says to use the schema tag instead.
func descriptionConstraint(t reflect.Type, seen map[reflect.Type]bool) *TagError {
	t = derefType(t)
	if seen[t] {
		return nil
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return descriptionConstraint(t.Elem(), seen)
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if _, inJSON := jsonName(f); !inJSON {
				continue
			}
			if tag, ok := f.Tag.Lookup("jsonschema"); ok && constraintLike.MatchString(tag) {
				return &TagError{Type: t, Field: f.Name, Key: "jsonschema", Tag: tag,
					Err: fmt.Errorf("the jsonschema tag is the description; constraints go in the %s tag, as in %s:%q", TagKey, TagKey, tag)}
			}
			if e := descriptionConstraint(f.Type, seen); e != nil {
				return e
			}
		}
	}
	return nil
}

// constraintLike is jsonschema-go's test for descriptions it refuses.
var constraintLike = regexp.MustCompile("^[^ \t\n]*=")

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

// integerRange is the range the schema inferred for an integer Go type of
// kind k allows (see [refiner]); ok is false for the other kinds.
func integerRange(k reflect.Kind) (lo, hi float64, ok bool) {
	switch k {
	case reflect.Int8:
		return math.MinInt8, math.MaxInt8, true
	case reflect.Int16:
		return math.MinInt16, math.MaxInt16, true
	case reflect.Int32:
		return math.MinInt32, math.MaxInt32, true
	case reflect.Int, reflect.Int64:
		return -maxSafeInteger, maxSafeInteger, true
	case reflect.Uint8:
		return 0, math.MaxUint8, true
	case reflect.Uint16:
		return 0, math.MaxUint16, true
	case reflect.Uint32:
		return 0, math.MaxUint32, true
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return 0, maxSafeInteger, true
	}
	return 0, 0, false
}
