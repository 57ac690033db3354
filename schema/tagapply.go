package schema

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// tagTarget is the schema a tag item applies to: a field's property schema,
// or (for "items." keywords) the element schema below it.
type tagTarget struct {
	s      *jsonschema.Schema
	goType reflect.Type // pointers removed
	depth  int          // 0: the field itself
}

// keywordSpec says which JSON types a keyword applies to (0: any) and how
// it is set on a target. Value keywords (enum, const, default) have no set:
// applyValues handles them once the other keywords are in place.
type keywordSpec struct {
	types uint8
	set   func(t tagTarget, keyword, value string) error
}

var keywords = map[string]keywordSpec{
	"description":      {0, setDescription},
	"enum":             {},
	"const":            {},
	"default":          {},
	"minimum":          {tNumber | tInteger, setNumber},
	"maximum":          {tNumber | tInteger, setNumber},
	"exclusiveMinimum": {tNumber | tInteger, setNumber},
	"exclusiveMaximum": {tNumber | tInteger, setNumber},
	"multipleOf":       {tNumber | tInteger, setNumber},
	"minLength":        {tString, setCount},
	"maxLength":        {tString, setCount},
	"minItems":         {tArray, setCount},
	"maxItems":         {tArray, setCount},
	"pattern":          {tString, setPattern},
	"format":           {tString, setFormat},
}

func knownKeywords() string {
	names := make([]string, 0, len(keywords))
	for k := range keywords {
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// checkedFormats are the formats the validator checks by name; Zod's other
// formats are checked only through the pattern Zod writes beside them.
var checkedFormats = []string{"date", "date-time", "duration", "email", "emoji", "hostname", "ipv4", "ipv6", "jwt", "time", "uri", "url", "uuid"}

// applyTag applies a field's parsed schema tag to its property schema fs,
// whose Go type is goType; parent is the struct's schema and name the
// property's name in it. Element keywords are applied first, deepest
// first, so that a field's enum and default are checked against element
// constraints too.
func applyTag(parent, fs *jsonschema.Schema, name string, goType reflect.Type, items []tagItem) error {
	maxDepth := 0
	for _, it := range items {
		maxDepth = max(maxDepth, it.depth)
	}
	for depth := maxDepth; depth >= 0; depth-- {
		t, err := targetAt(fs, goType, depth)
		if err != nil {
			return err
		}
		var here []tagItem
		for _, it := range items {
			if it.depth == depth {
				here = append(here, it)
			}
		}
		if err := applyItems(t, here); err != nil {
			return err
		}
		if depth == 0 && t.s.Default != nil {
			parent.Required = slices.DeleteFunc(parent.Required, func(r string) bool { return r == name })
		}
	}
	return nil
}

// targetAt descends depth levels of array items from the field's schema.
func targetAt(fs *jsonschema.Schema, goType reflect.Type, depth int) (tagTarget, error) {
	t := tagTarget{s: fs, goType: derefType(goType)}
	for i := 0; i < depth; i++ {
		k := t.goType.Kind()
		if t.s.Items == nil || (k != reflect.Slice && k != reflect.Array) {
			return t, fmt.Errorf(`"items." keywords apply to slices and arrays, and %s is not one`, t.goType)
		}
		t = tagTarget{s: t.s.Items, goType: derefType(t.goType.Elem()), depth: i + 1}
	}
	return t, nil
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// applyItems applies the items of one level to t: the constraints first,
// then a check that they leave some value, then enum and const, then the
// default.
func applyItems(t tagTarget, items []tagItem) error {
	if err := checkConflicts(items); err != nil {
		return err
	}
	var values []tagItem
	for _, it := range items {
		spec := keywords[it.keyword]
		if !typesFit(spec.types, t.s) {
			return fmt.Errorf("%s applies to %s, and the %s's JSON type is %s", it.keyword, typeNames(spec.types), t.what(), jsonTypeNames(schemaTypes(t.s)))
		}
		if spec.set == nil {
			values = append(values, it)
			continue
		}
		if err := spec.set(t, it.keyword, it.values[0]); err != nil {
			return fmt.Errorf("%s: %w", it.keyword, err)
		}
	}
	if err := checkSatisfiable(t.s); err != nil {
		return err
	}
	slices.SortStableFunc(values, func(a, b tagItem) int { return valueOrder(a.keyword) - valueOrder(b.keyword) })
	for _, it := range values {
		if err := applyValue(t, it); err != nil {
			return fmt.Errorf("%s: %w", it.keyword, err)
		}
	}
	return nil
}

// exclusive are the keyword pairs a tag may not combine: the second would
// override the first, or (pattern and format) the validator would read the
// pattern as the format's own, as Zod writes it.
var exclusive = [][2]string{
	{"minimum", "exclusiveMinimum"}, {"maximum", "exclusiveMaximum"},
	{"pattern", "format"}, {"enum", "const"},
}

func checkConflicts(items []tagItem) error {
	has := map[string]bool{}
	for _, it := range items {
		has[it.keyword] = true
	}
	for _, pair := range exclusive {
		if has[pair[0]] && has[pair[1]] {
			return fmt.Errorf("use one of %s and %s", pair[0], pair[1])
		}
	}
	return nil
}

// valueOrder puts default last: it is checked against enum and const.
func valueOrder(keyword string) int {
	if keyword == "default" {
		return 1
	}
	return 0
}

func (t tagTarget) what() string {
	if t.depth == 0 {
		return "field"
	}
	return "element"
}

func setDescription(t tagTarget, _, v string) error {
	switch {
	case v == "":
		return errors.New("empty description")
	case t.s.Description != "":
		return errors.New("the field is described by its jsonschema tag already; use one")
	}
	t.s.Description = v
	return nil
}

// setNumber sets a numeric keyword. On integer fields a bound must lie
// within what the Go type holds; an exclusive bound replaces the bound
// inferred from the Go type.
func setNumber(t tagTarget, keyword, v string) error {
	f, err := parseNumber(v)
	if err != nil {
		return err
	}
	if keyword == "multipleOf" {
		if f <= 0 {
			return fmt.Errorf("%s is not positive", v)
		}
		t.s.MultipleOf = &f
		return nil
	}
	if lo, hi, ok := integerRange(t.goType.Kind()); ok && (f < lo || f > hi) {
		return fmt.Errorf("%s is outside the range of %s (%s to %s)", v, t.goType, formatNumber(lo), formatNumber(hi))
	}
	switch keyword {
	case "minimum":
		t.s.Minimum = &f
	case "maximum":
		t.s.Maximum = &f
	case "exclusiveMinimum":
		t.s.ExclusiveMinimum, t.s.Minimum = &f, nil
	case "exclusiveMaximum":
		t.s.ExclusiveMaximum, t.s.Maximum = &f, nil
	}
	return nil
}

func parseNumber(v string) (float64, error) {
	x, err := parseJSON(v)
	f, ok := x.(float64)
	if err != nil || !ok {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return f, nil
}

// setCount sets a length or item count: a non-negative integer.
func setCount(t tagTarget, keyword, v string) error {
	f, err := parseNumber(v)
	if err != nil || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return fmt.Errorf("%q is not a non-negative integer", v)
	}
	n := int(f)
	switch keyword {
	case "minLength":
		t.s.MinLength = &n
	case "maxLength":
		t.s.MaxLength = &n
	case "minItems":
		t.s.MinItems = &n
	case "maxItems":
		t.s.MaxItems = &n
	}
	return nil
}

func setPattern(t tagTarget, _, v string) error {
	if _, err := compilePattern(v); err != nil {
		return err
	}
	t.s.Pattern = v
	return nil
}

func setFormat(t tagTarget, _, v string) error {
	if !slices.Contains(checkedFormats, v) {
		return fmt.Errorf("%q is not a format the validator checks (%s); use a pattern", v, strings.Join(checkedFormats, ", "))
	}
	t.s.Format = v
	return nil
}
