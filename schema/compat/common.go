package compat

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Type tests, as Mastra's json-schema utils define them.

func hasType(s *jsonschema.Schema, t string) bool {
	return s.Type == t || slices.Contains(s.Types, t)
}

func isObjectSchema(s *jsonschema.Schema) bool {
	return hasType(s, "object") || s.Properties != nil
}

func isArraySchema(s *jsonschema.Schema) bool {
	return hasType(s, "array") || s.Items != nil || s.ItemsArray != nil
}

func isStringSchema(s *jsonschema.Schema) bool { return hasType(s, "string") }

func isNumberSchema(s *jsonschema.Schema) bool {
	return hasType(s, "number") || hasType(s, "integer")
}

// isUnionSchema: a non-empty anyOf or oneOf, or a type array.
func isUnionSchema(s *jsonschema.Schema) bool {
	return len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.Types != nil
}

func isAllOfSchema(s *jsonschema.Schema) bool { return len(s.AllOf) > 0 }

// mergeDescription appends "constraints: a, b" to a description, on a new
// line when there already is one.
func mergeDescription(desc string, constraints []string) string {
	if len(constraints) == 0 {
		return desc
	}
	c := "constraints: " + strings.Join(constraints, ", ")
	if desc != "" {
		return desc + "\n" + c
	}
	return c
}

// mergeAllOf flattens allOf into one closed object: the branches' properties
// (a later branch's schema for a name wins, at the position of its first
// appearance) replace the node's own, their required lists are united
// (order kept, duplicates dropped; the node's own list is kept when the
// union is empty), type becomes "object" and additionalProperties false.
// Branch keywords other than properties and required are dropped.
func mergeAllOf(s *jsonschema.Schema) {
	props := map[string]*jsonschema.Schema{}
	var order, req []string
	for _, sub := range s.AllOf {
		if sub == nil {
			continue
		}
		for _, k := range propertyKeys(sub) {
			if _, seen := props[k]; !seen {
				order = append(order, k)
			}
			props[k] = sub.Properties[k]
		}
		req = append(req, sub.Required...)
	}
	s.AllOf = nil
	s.Type, s.Types = "object", nil
	s.Properties, s.PropertyOrder = props, order
	if len(req) > 0 {
		s.Required = dedupe(req)
	}
	s.AdditionalProperties = falseSchema()
}

func dedupe(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// objectHandler: additionalProperties false when there are properties and
// none is set; required [] (replacing any list) when there are no properties.
func objectHandler(s *jsonschema.Schema) {
	if s.Properties != nil && s.AdditionalProperties == nil {
		s.AdditionalProperties = falseSchema()
	}
	if len(s.Properties) == 0 {
		s.Required = []string{}
	}
}

// arrayHandler moves minItems/maxItems into the description.
func arrayHandler(s *jsonschema.Schema) {
	var c []string
	if s.MinItems != nil && s.MaxItems != nil && *s.MinItems == *s.MaxItems {
		c = append(c, "exact length "+strconv.Itoa(*s.MinItems))
		s.MinItems, s.MaxItems = nil, nil
	} else {
		if s.MinItems != nil {
			c = append(c, "minimum length "+strconv.Itoa(*s.MinItems))
			s.MinItems = nil
		}
		if s.MaxItems != nil {
			c = append(c, "maximum length "+strconv.Itoa(*s.MaxItems))
			s.MaxItems = nil
		}
	}
	s.Description = mergeDescription(s.Description, c)
}

// describedFormats are the string formats the common string handler turns
// into an "a valid <format>" phrase (removing format and pattern).
var describedFormats = []string{"email", "emoji", "uri", "uuid", "date-time", "date", "time"}

// stringHandler moves minLength/maxLength and the formats in describedFormats
// into the description. A pattern is moved too, as "input must match this
// regex <pattern>", but only when nothing else was (Mastra's rule: a pattern
// beside a length limit stays a keyword).
func stringHandler(s *jsonschema.Schema) {
	var c []string
	if s.MinLength != nil {
		c = append(c, "minimum length "+strconv.Itoa(*s.MinLength))
		s.MinLength = nil
	}
	if s.MaxLength != nil {
		c = append(c, "maximum length "+strconv.Itoa(*s.MaxLength))
		s.MaxLength = nil
	}
	if slices.Contains(describedFormats, s.Format) {
		c = append(c, "a valid "+s.Format)
		s.Pattern, s.Format = "", ""
	}
	if len(c) == 0 && s.Pattern != "" {
		c = append(c, "input must match this regex "+s.Pattern)
		s.Pattern = ""
	}
	s.Description = mergeDescription(s.Description, c)
}

// JavaScript's Number.MIN_SAFE_INTEGER and MAX_SAFE_INTEGER: bounds Zod adds
// for .int(); they are removed without a phrase.
const (
	minSafeInteger = -9007199254740991
	maxSafeInteger = 9007199254740991
)

// numberHandler moves minimum, maximum, exclusiveMinimum, exclusiveMaximum
// and multipleOf into the description.
func numberHandler(s *jsonschema.Schema) {
	var c []string
	if s.Minimum != nil {
		if *s.Minimum != minSafeInteger {
			c = append(c, "greater than or equal to "+jsNumber(*s.Minimum))
		}
		s.Minimum = nil
	}
	if s.Maximum != nil {
		if *s.Maximum != maxSafeInteger {
			c = append(c, "lower than or equal to "+jsNumber(*s.Maximum))
		}
		s.Maximum = nil
	}
	if s.ExclusiveMinimum != nil {
		c = append(c, "greater than "+jsNumber(*s.ExclusiveMinimum))
		s.ExclusiveMinimum = nil
	}
	if s.ExclusiveMaximum != nil {
		c = append(c, "lower than "+jsNumber(*s.ExclusiveMaximum))
		s.ExclusiveMaximum = nil
	}
	if s.MultipleOf != nil {
		c = append(c, "multiple of "+jsNumber(*s.MultipleOf))
		s.MultipleOf = nil
	}
	s.Description = mergeDescription(s.Description, c)
}

// jsNumber formats f as JavaScript's String(number) does: the shortest
// round-tripping digits, in plain notation for 1e-6 <= |f| < 1e21 and in
// exponent notation ("1e+21", "1.5e-7") otherwise.
func jsNumber(f float64) string {
	if f == 0 {
		return "0" // also -0
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // like 1.5e-07
	mant, exp, _ := strings.Cut(e, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

// unionHandler is Mastra's post-order union normalisation: the entries of
// anyOf that are not objects (nil, the false schema) are dropped and every
// remaining entry is run through the layer's pre and post rules once more
// (they were already rewritten when the walk visited them; this second pass
// is Mastra's and its effects are kept, such as a pattern that a length
// limit held back being moved into the description now, or OpenAI wrapping an
// untyped branch again). A one-entry anyOf is kept as it is. oneOf and type
// arrays are left alone.
func unionHandler(r nodeRules, s *jsonschema.Schema) {
	if s.AnyOf == nil {
		return
	}
	out := make([]*jsonschema.Schema, 0, len(s.AnyOf))
	for _, sub := range s.AnyOf {
		if sub == nil || isFalse(sub) {
			continue
		}
		r.pre(sub)
		r.post(sub)
		out = append(out, sub)
	}
	s.AnyOf = out
}

// commonRules is the rewriting shared by the Anthropic, DeepSeek and Meta
// layers (and the base of the others).
type commonRules struct{}

func (commonRules) pre(s *jsonschema.Schema) { rewriteNode(s, nil) }

// rewriteNode is the pre-order node rewriting of the common rules: allOf
// merged, then the object, array, number or string handler. beforeString,
// when set, runs on a string node before its handler (OpenAI drops the
// formats it does not support there).
func rewriteNode(s *jsonschema.Schema, beforeString func(*jsonschema.Schema)) {
	if isAllOfSchema(s) {
		mergeAllOf(s)
	}
	switch {
	case isObjectSchema(s):
		objectHandler(s)
	case isArraySchema(s):
		arrayHandler(s)
	case isNumberSchema(s):
		numberHandler(s)
	case isStringSchema(s):
		if beforeString != nil {
			beforeString(s)
		}
		stringHandler(s)
	}
}

func (r commonRules) post(s *jsonschema.Schema) {
	if isUnionSchema(s) {
		unionHandler(r, s)
	}
}
