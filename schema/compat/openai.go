package compat

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// XOptional is the keyword (kept in Schema.Extra) in which the OpenAI layers
// list, on an object node, the properties they made required and nullable
// although the original schema had them optional. RestoreOptional reads it.
const XOptional = "x-optional"

// openAIFormats are the string formats OpenAI structured outputs accept
// (https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas).
// Any other format is removed together with the node's pattern. Of these,
// email, uuid, date-time, date and time are then turned into description
// phrases by the common string handler, so only duration, hostname, ipv4 and
// ipv6 reach the model as a format keyword.
var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// OpenAILayer prepares schemas for OpenAI's strict function calling. It
// applies to models that are not OpenAI reasoning models (see
// OpenAIReasoningLayer) when the provider contains "openai" or "groq" or the
// model id contains "openai".
//
// On top of the common rewriting (see the package documentation) it:
//   - removes string formats OpenAI does not support, with their pattern;
//   - wraps every node that has neither type nor anyOf as
//     {"anyOf": [node, {"type": "null"}]};
//   - sets additionalProperties: false on every object node and removes
//     propertyNames;
//   - makes every property required; a property that was optional is made
//     nullable (see below) and its name is appended to the object's
//     "x-optional" list, so that RestoreOptional can map a null answer back
//     to an absent key.
//
// Making an optional property nullable: a property with a type array gets
// "null" added to it and becomes an anyOf with one branch per type (the
// object/array keywords move into the matching branch; anyOf, oneOf, not,
// if, then and else are copied into every non-null branch; a const becomes
// enum [const, null] and an enum gains null). A property of type object or
// array becomes {"anyOf": [{type, its object/array keywords, const, enum,
// oneOf, not, if, then, else (and its anyOf, unless that is just a redundant
// nullable wrapper)}, {"type": "null"}]} keeping its other keywords
// (description, ...) outside. A property of another non-null type becomes
// {"anyOf": [a copy of the whole property, {"type": "null"}]} with the
// outside keeping everything but type, const, enum, anyOf, oneOf, not, if,
// then and else. A property without a type (already wrapped) or of type
// "null" only gets required.
type OpenAILayer struct{}

// Name returns "openai".
func (OpenAILayer) Name() string { return NameOpenAI }

// ShouldApply: not a reasoning model, and the provider contains "openai" or
// "groq", or the model id contains "openai".
func (OpenAILayer) ShouldApply(m Model) bool {
	return !isReasoningModel(m) && (contains(m.Provider, "openai") || contains(m.ModelID, "openai") || contains(m.Provider, "groq"))
}

// Process returns the OpenAI form of s (a new schema; s is not modified).
func (OpenAILayer) Process(s *jsonschema.Schema) *jsonschema.Schema { return processOpenAI(s) }

// OpenAIReasoningLayer prepares schemas for OpenAI reasoning models (model id
// containing "o1", "o3" or "o4", reached through a provider or model id
// containing "openai"; groq is not included). Mastra gives this layer its own
// class because its Zod-level processing differs (and its schema target is
// OpenAPI 3, which only Mastra's deprecated Zod conversion reads), but for
// JSON Schema it inherits the OpenAI layer's node rewriting unchanged, so its
// output is identical to OpenAILayer's: optional properties become required +
// nullable and are listed in "x-optional".
type OpenAIReasoningLayer struct{}

// Name returns "openai-reasoning".
func (OpenAIReasoningLayer) Name() string { return NameOpenAIReasoning }

// ShouldApply: the model id contains "o1", "o3" or "o4", and the provider or
// the model id contains "openai".
func (OpenAIReasoningLayer) ShouldApply(m Model) bool {
	return isReasoningModel(m) && (contains(m.Provider, "openai") || contains(m.ModelID, "openai"))
}

// Process returns the OpenAI form of s (a new schema; s is not modified).
func (OpenAIReasoningLayer) Process(s *jsonschema.Schema) *jsonschema.Schema { return processOpenAI(s) }

func isReasoningModel(m Model) bool {
	return contains(m.ModelID, "o3") || contains(m.ModelID, "o4") || contains(m.ModelID, "o1")
}

func processOpenAI(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	t := prepare(s)
	walk(openAIRules{}, t)
	return t
}

type openAIRules struct{}

func (openAIRules) pre(s *jsonschema.Schema) { rewriteNode(s, dropUnsupportedFormat) }

// dropUnsupportedFormat removes a string format OpenAI's strict mode does
// not accept, with its pattern.
func dropUnsupportedFormat(s *jsonschema.Schema) {
	if s.Format != "" && !slices.Contains(openAIFormats, s.Format) {
		s.Format, s.Pattern = "", ""
	}
}

func (r openAIRules) post(s *jsonschema.Schema) {
	if isUnionSchema(s) {
		unionHandler(r, s)
	}
	if s.Type == "" && s.Types == nil && s.AnyOf == nil {
		inner := new(jsonschema.Schema)
		*inner = *s
		*s = jsonschema.Schema{AnyOf: []*jsonschema.Schema{inner, {Type: "null"}}}
	}
	if !isObjectSchema(s) {
		return
	}
	s.AdditionalProperties = falseSchema()
	s.PropertyNames = nil
	if len(s.Properties) == 0 {
		return
	}
	if s.Required == nil {
		s.Required = []string{}
	}
	required := make(map[string]bool, len(s.Required))
	for _, k := range s.Required {
		required[k] = true
	}
	var optional []string
	for _, key := range propertyKeys(s) {
		if required[key] {
			continue
		}
		if optional == nil {
			optional = optionalList(s)
		}
		optional = append(optional, key)
		required[key] = true
		s.Required = append(s.Required, key)
		if prop := s.Properties[key]; prop != nil {
			makeNullable(prop)
		}
	}
	if optional != nil {
		setExtra(s, XOptional, optional)
	}
}

// optionalList returns a copy of s's x-optional list.
func optionalList(s *jsonschema.Schema) []string {
	switch v := s.Extra[XOptional].(type) {
	case []string:
		return slices.Clone(v)
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if str, ok := e.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// keyword movers used by makeNullable. Each moves one JSON keyword (possibly
// spread over several struct fields) from one node to another.
type keyword struct {
	has  func(*jsonschema.Schema) bool
	move func(dst, src *jsonschema.Schema)
}

var (
	kwProperties = keyword{
		func(s *jsonschema.Schema) bool { return s.Properties != nil },
		func(d, s *jsonschema.Schema) {
			d.Properties, d.PropertyOrder = s.Properties, s.PropertyOrder
			s.Properties, s.PropertyOrder = nil, nil
		},
	}
	kwRequired = keyword{
		func(s *jsonschema.Schema) bool { return s.Required != nil },
		func(d, s *jsonschema.Schema) { d.Required, s.Required = s.Required, nil },
	}
	kwAdditionalProperties = keyword{
		func(s *jsonschema.Schema) bool { return s.AdditionalProperties != nil },
		func(d, s *jsonschema.Schema) {
			d.AdditionalProperties, s.AdditionalProperties = s.AdditionalProperties, nil
		},
	}
	kwXOptional = keyword{
		func(s *jsonschema.Schema) bool { _, ok := s.Extra[XOptional]; return ok },
		func(d, s *jsonschema.Schema) { setExtra(d, XOptional, s.Extra[XOptional]); deleteExtra(s, XOptional) },
	}
	kwItems = keyword{
		func(s *jsonschema.Schema) bool { return s.Items != nil || s.ItemsArray != nil },
		func(d, s *jsonschema.Schema) {
			d.Items, d.ItemsArray = s.Items, s.ItemsArray
			s.Items, s.ItemsArray = nil, nil
		},
	}
	kwConst = keyword{
		func(s *jsonschema.Schema) bool { return s.Const != nil },
		func(d, s *jsonschema.Schema) { d.Const, s.Const = s.Const, nil },
	}
	kwEnum = keyword{
		func(s *jsonschema.Schema) bool { return s.Enum != nil },
		func(d, s *jsonschema.Schema) { d.Enum, s.Enum = s.Enum, nil },
	}
	kwAnyOf = keyword{
		func(s *jsonschema.Schema) bool { return s.AnyOf != nil },
		func(d, s *jsonschema.Schema) { d.AnyOf, s.AnyOf = s.AnyOf, nil },
	}
	kwOneOf = keyword{
		func(s *jsonschema.Schema) bool { return s.OneOf != nil },
		func(d, s *jsonschema.Schema) { d.OneOf, s.OneOf = s.OneOf, nil },
	}
	kwNot = keyword{
		func(s *jsonschema.Schema) bool { return s.Not != nil },
		func(d, s *jsonschema.Schema) { d.Not, s.Not = s.Not, nil },
	}
	kwIf = keyword{
		func(s *jsonschema.Schema) bool { return s.If != nil },
		func(d, s *jsonschema.Schema) { d.If, s.If = s.If, nil },
	}
	kwThen = keyword{
		func(s *jsonschema.Schema) bool { return s.Then != nil },
		func(d, s *jsonschema.Schema) { d.Then, s.Then = s.Then, nil },
	}
	kwElse = keyword{
		func(s *jsonschema.Schema) bool { return s.Else != nil },
		func(d, s *jsonschema.Schema) { d.Else, s.Else = s.Else, nil },
	}

	objectKeywords            = []keyword{kwProperties, kwRequired, kwAdditionalProperties, kwXOptional}
	arrayKeywords             = []keyword{kwItems}
	genericConstraintKeywords = []keyword{kwConst, kwEnum, kwOneOf, kwNot, kwIf, kwThen, kwElse}
	branchConstraintKeywords  = []keyword{kwAnyOf, kwOneOf, kwNot, kwIf, kwThen, kwElse}
)

func typeSpecificKeywords(t string) []keyword {
	switch t {
	case "object":
		return objectKeywords
	case "array":
		return arrayKeywords
	}
	return nil
}

func nullSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "null"} }

// makeNullable rewrites a property the OpenAI layer has just made required so
// that null is accepted as well (see OpenAILayer).
func makeNullable(prop *jsonschema.Schema) {
	switch {
	case prop.Types != nil:
		types := slices.Clone(prop.Types)
		if !slices.Contains(types, "null") {
			types = append(types, "null")
		}
		constraints := &jsonschema.Schema{}
		for _, kw := range branchConstraintKeywords {
			if kw.has(prop) {
				kw.move(constraints, prop)
			}
		}
		prop.Types = nil
		if prop.Const != nil {
			c := *prop.Const
			if prop.Enum == nil || slices.ContainsFunc(prop.Enum, func(v any) bool { return jsonValuesEqual(v, c) }) {
				prop.Enum = []any{c, nil}
			} else {
				prop.Enum = []any{nil}
			}
			prop.Const = nil
		} else if prop.Enum != nil && !slices.Contains(prop.Enum, nil) {
			prop.Enum = append(prop.Enum, nil)
		}
		// The object and array keywords leave prop; each branch of the
		// matching type gets (a copy of) its own.
		typed := &jsonschema.Schema{}
		for _, kw := range append(slices.Clone(objectKeywords), arrayKeywords...) {
			if kw.has(prop) {
				kw.move(typed, prop)
			}
		}
		branches := make([]*jsonschema.Schema, 0, len(types))
		for _, t := range types {
			if t == "null" {
				branches = append(branches, nullSchema())
				continue
			}
			b := &jsonschema.Schema{Type: t}
			src := clone(typed)
			for _, kw := range typeSpecificKeywords(t) {
				if kw.has(src) {
					kw.move(b, src)
				}
			}
			assign(b, clone(constraints))
			branches = append(branches, b)
		}
		prop.AnyOf = branches

	case prop.Type != "" && prop.Type != "null":
		t := prop.Type
		if kws := typeSpecificKeywords(t); kws != nil {
			branch := &jsonschema.Schema{Type: t}
			var keepAnyOf []*jsonschema.Schema
			if prop.AnyOf != nil && !isRedundantNullableUnion(prop, t) {
				keepAnyOf = prop.AnyOf
			}
			for _, kw := range append(slices.Clone(kws), genericConstraintKeywords...) {
				if kw.has(prop) {
					kw.move(branch, prop)
				}
			}
			if keepAnyOf != nil {
				branch.AnyOf = keepAnyOf
			}
			prop.Type = ""
			prop.AnyOf = []*jsonschema.Schema{branch, nullSchema()}
		} else {
			whole := clone(prop)
			if isRedundantNullableUnion(prop, t) {
				whole.AnyOf = nil
			}
			for _, kw := range append(slices.Clone(genericConstraintKeywords), kwAnyOf) {
				if kw.has(prop) {
					kw.move(&jsonschema.Schema{}, prop)
				}
			}
			prop.Type = ""
			prop.AnyOf = []*jsonschema.Schema{whole, nullSchema()}
		}
	}
}

// isRedundantNullableUnion reports whether prop's anyOf is just
// [{type: t, <keywords prop itself has with equal values>}, {type: "null"}].
func isRedundantNullableUnion(prop *jsonschema.Schema, t string) bool {
	if len(prop.AnyOf) != 2 {
		return false
	}
	var nulls, values []*jsonschema.Schema
	for _, b := range prop.AnyOf {
		if b == nil || isFalse(b) {
			continue // JSON booleans are neither
		}
		if b.Type == "null" {
			nulls = append(nulls, b)
		} else {
			values = append(values, b)
		}
	}
	if len(nulls) != 1 || len(values) != 1 {
		return false
	}
	vb := values[0]
	if vb.Type != t {
		return false
	}
	pv, err1 := toValue(prop)
	bv, err2 := toValue(vb)
	pm, ok1 := pv.(map[string]any)
	bm, ok2 := bv.(map[string]any)
	if err1 != nil || err2 != nil || !ok1 || !ok2 {
		return false
	}
	for k, v := range bm {
		if k == "type" {
			continue
		}
		pvk, ok := pm[k]
		if !ok || !schemaValuesEqual(pvk, v, k) {
			return false
		}
	}
	return true
}

// jsonValuesEqual is deep equality of decoded JSON values (arrays ordered).
func jsonValuesEqual(a, b any) bool {
	av, err1 := normalizeJSON(a)
	bv, err2 := normalizeJSON(b)
	if err1 != nil || err2 != nil {
		return reflect.DeepEqual(a, b)
	}
	return reflect.DeepEqual(av, bv)
}

// normalizeJSON round-trips v through encoding/json so that values built in
// Go (ints, []string, ...) compare equal to their decoded forms.
func normalizeJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// schemaValuesEqual compares two decoded schema keyword values the way
// Mastra does: const/default/example(s) by deep equality; required and type
// arrays as unordered sets of scalars; enum as an unordered list of values;
// allOf/anyOf/oneOf as unordered lists of schemas; other arrays in order;
// objects key by key.
func schemaValuesEqual(a, b any, kw string) bool {
	switch kw {
	case "const", "default", "example", "examples":
		return reflect.DeepEqual(a, b)
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	if aIsList || bIsList {
		if !aIsList || !bIsList {
			return false
		}
		switch kw {
		case "required", "type", "enum":
			return unorderedEqual(al, bl, func(x, y any) bool { return reflect.DeepEqual(x, y) })
		case "allOf", "anyOf", "oneOf":
			return unorderedEqual(al, bl, func(x, y any) bool { return schemaValuesEqual(x, y, "") })
		}
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !schemaValuesEqual(al[i], bl[i], "") {
				return false
			}
		}
		return true
	}
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	if aIsMap && bIsMap {
		if len(am) != len(bm) {
			return false
		}
		for k, v := range am {
			w, ok := bm[k]
			if !ok || !schemaValuesEqual(v, w, k) {
				return false
			}
		}
		return true
	}
	if aIsMap || bIsMap {
		return false
	}
	return a == b
}

func unorderedEqual(a, b []any, eq func(x, y any) bool) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
	for _, x := range a {
		found := false
		for j, y := range b {
			if !used[j] && eq(x, y) {
				used[j] = true
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
