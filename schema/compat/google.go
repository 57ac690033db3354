package compat

import (
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Nullable is the OpenAPI 3.0 keyword (kept in Schema.Extra) with which the
// Google layer marks a node that also accepts null.
const Nullable = "nullable"

// maxInlineNodes bounds the number of schema nodes the Google layer copies
// while inlining $ref targets. Inlining is exponential for schemas whose
// definitions reference each other several times; past the bound the
// remaining references collapse to {"type": "object"} as recursive ones do.
const maxInlineNodes = 50_000

// GoogleLayer prepares schemas for Gemini, whose function declarations take
// an OpenAPI 3.0 subset. It applies when the model id does not contain
// "claude" and the provider contains "google" or the model id contains
// "gemini-" or "google".
//
// On top of the common rewriting (see the package documentation), on every
// node after its children:
//   - $schema, additionalProperties and propertyNames are deleted;
//   - a type array with one non-null type becomes that type, plus
//     nullable: true when "null" was listed; ["null"] becomes type object +
//     nullable; several non-null types become an anyOf of {type: T}
//     (+ nullable when "null" was listed);
//   - oneOf is renamed anyOf; const becomes enum [const];
//   - a tuple (items array) becomes items {anyOf: [...]} without
//     minItems/maxItems;
//   - an anyOf with a {type: "null"} branch and one other branch is replaced
//     by that branch's keywords plus nullable: true; with several other
//     branches the null branch is dropped and nullable: true is set;
//   - a node with none of type, anyOf, oneOf, allOf, $ref, enum, const,
//     properties or items (an "any" schema) becomes a nullable anyOf of
//     string, number, integer, boolean, object and an array of those.
//
// Then, when the schema contains a $ref, every $ref is replaced by a copy of
// its target (the root for "#", definitions/$defs entries for
// "#/definitions/X" and "#/$defs/X"; the copy's keywords override the
// referring node's siblings). A reference met again while its own target is
// being inlined, or one that cannot be resolved, collapses to
// {"type": "object"}, so a recursive schema is unrolled once. definitions and
// $defs are then deleted.
//
// Finally the nullable-union fix-up Mastra applies to the AI-SDK form of
// Google schemas runs (see fixGoogleNullable): enum lists with a non-string
// value and non-string const are deleted (Gemini only takes string enums),
// remaining type arrays are collapsed, an anyOf that still has a null branch
// is collapsed, and a node with anyOf keeps only that anyOf (its
// description is copied into branches that lack one).
type GoogleLayer struct{}

// Name returns "google".
func (GoogleLayer) Name() string { return NameGoogle }

// ShouldApply: the model id does not contain "claude", and the provider
// contains "google" or the model id contains "gemini-" or "google".
func (GoogleLayer) ShouldApply(m Model) bool {
	if contains(m.ModelID, "claude") {
		return false
	}
	return contains(m.Provider, "google") || contains(m.ModelID, "gemini-") || contains(m.ModelID, "google")
}

// Process returns the Gemini form of s (a new schema; s is not modified).
func (GoogleLayer) Process(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	return fixGoogleNullable(processGoogleJSON(s))
}

// processGoogleJSON is the Google layer without the final AI-SDK fix-up:
// exactly Mastra's GoogleSchemaCompatLayer.processToJSONSchema.
func processGoogleJSON(s *jsonschema.Schema) *jsonschema.Schema {
	t := prepare(s)
	walk(googleRules{}, t)
	inlineRefs(t)
	return t
}

type googleRules struct{}

func (googleRules) pre(s *jsonschema.Schema) {
	if isAllOfSchema(s) {
		mergeAllOf(s)
	}
	switch {
	case isObjectSchema(s):
		objectHandler(s)
	case isNumberSchema(s):
		numberHandler(s)
	case isArraySchema(s):
		arrayHandler(s)
	case isStringSchema(s):
		stringHandler(s)
	}
}

var geminiAnyTypes = []string{"string", "number", "integer", "boolean", "object"}

func geminiAnyOf() []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, t := range geminiAnyTypes {
		out = append(out, &jsonschema.Schema{Type: t})
	}
	var inner []*jsonschema.Schema
	for _, t := range geminiAnyTypes {
		inner = append(inner, &jsonschema.Schema{Type: t})
	}
	return append(out, &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{AnyOf: inner}})
}

func (r googleRules) post(s *jsonschema.Schema) {
	if isUnionSchema(s) {
		unionHandler(r, s)
	}
	s.Schema = ""
	s.AdditionalProperties = nil
	s.PropertyNames = nil

	if s.Types != nil {
		var nonNull []string
		hasNull := false
		for _, t := range s.Types {
			if t == "null" {
				hasNull = true
			} else {
				nonNull = append(nonNull, t)
			}
		}
		s.Types = nil
		switch {
		case len(nonNull) == 1:
			s.Type = nonNull[0]
			if hasNull {
				setExtra(s, Nullable, true)
			}
		case len(nonNull) == 0 && hasNull:
			s.Type = "object"
			setExtra(s, Nullable, true)
		default:
			s.AnyOf = make([]*jsonschema.Schema, 0, len(nonNull))
			for _, t := range nonNull {
				s.AnyOf = append(s.AnyOf, &jsonschema.Schema{Type: t})
			}
			if hasNull {
				setExtra(s, Nullable, true)
			}
		}
	}

	if s.OneOf != nil {
		s.AnyOf, s.OneOf = s.OneOf, nil
	}
	if s.Const != nil {
		s.Enum = []any{*s.Const}
		s.Const = nil
	}
	if s.ItemsArray != nil {
		s.Items, s.ItemsArray = &jsonschema.Schema{AnyOf: s.ItemsArray}, nil
		s.MinItems, s.MaxItems = nil, nil
	}

	if s.AnyOf != nil {
		var nonNull []*jsonschema.Schema
		hasNull := false
		for _, v := range s.AnyOf {
			if v == nil || isFalse(v) {
				continue // JSON false is not an object
			}
			if v.Type == "null" {
				hasNull = true
			} else {
				nonNull = append(nonNull, v)
			}
		}
		switch {
		case hasNull && len(nonNull) == 1:
			s.AnyOf = nil
			assign(s, nonNull[0])
			setExtra(s, Nullable, true)
		case hasNull && len(nonNull) > 1:
			s.AnyOf = nonNull
			setExtra(s, Nullable, true)
		}
	}

	if s.Type == "" && s.Types == nil && s.AnyOf == nil && s.OneOf == nil && s.AllOf == nil &&
		s.Ref == "" && s.Enum == nil && !truthyConst(s) && s.Properties == nil &&
		s.Items == nil && s.ItemsArray == nil {
		s.AnyOf = geminiAnyOf()
		setExtra(s, Nullable, true)
	}
}

// truthyConst: a const JavaScript would not treat as falsy.
func truthyConst(s *jsonschema.Schema) bool {
	if s.Const == nil {
		return false
	}
	switch v := (*s.Const).(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0
	}
	return true
}

// inlineRefs replaces $ref nodes with copies of their targets (see
// GoogleLayer) and drops root definitions and $defs. It does nothing at all
// when there is no $ref.
func inlineRefs(root *jsonschema.Schema) {
	if !hasRef(root) {
		return
	}
	snap := clone(root)
	defs := snap.Definitions
	if defs == nil {
		defs = snap.Defs
	}
	in := &inliner{live: root, root: snap, defs: defs, visiting: map[string]bool{}}
	in.resolve(root)
	root.Definitions, root.Defs = nil, nil
}

func hasRef(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	if s.Ref != "" {
		return true
	}
	found := false
	eachSchemaChild(s, func(c *jsonschema.Schema) {
		if !found && hasRef(c) {
			found = true
		}
	})
	return found
}

// eachSchemaChild calls fn on every direct sub-schema of s, in every
// position (unlike eachChild, which follows the traversal's positions).
func eachSchemaChild(s *jsonschema.Schema, fn func(*jsonschema.Schema)) {
	for _, m := range []map[string]*jsonschema.Schema{s.Defs, s.Definitions, s.DependencySchemas, s.Properties, s.PatternProperties, s.DependentSchemas} {
		for _, c := range m {
			if c != nil {
				fn(c)
			}
		}
	}
	for _, c := range []*jsonschema.Schema{s.Items, s.AdditionalItems, s.Contains, s.UnevaluatedItems, s.AdditionalProperties,
		s.PropertyNames, s.UnevaluatedProperties, s.Not, s.If, s.Then, s.Else, s.ContentSchema} {
		if c != nil {
			fn(c)
		}
	}
	for _, l := range [][]*jsonschema.Schema{s.PrefixItems, s.ItemsArray, s.AllOf, s.AnyOf, s.OneOf} {
		for _, c := range l {
			if c != nil {
				fn(c)
			}
		}
	}
}

type inliner struct {
	live     *jsonschema.Schema            // the root being rewritten
	root     *jsonschema.Schema            // snapshot of the processed root
	defs     map[string]*jsonschema.Schema // snapshot of its definitions
	visiting map[string]bool
	copied   int
}

func (in *inliner) lookup(ref string) *jsonschema.Schema {
	if ref == "#" {
		return in.root
	}
	for _, p := range []string{"#/definitions/", "#/$defs/"} {
		if name, ok := strings.CutPrefix(ref, p); ok && name != "" {
			return in.defs[name]
		}
	}
	return nil
}

func (in *inliner) resolve(s *jsonschema.Schema) {
	// Sub-schemas first. The root's definitions are skipped: they are about
	// to be dropped (and copies never keep them).
	if s != in.live {
		for _, m := range []map[string]*jsonschema.Schema{s.Definitions, s.Defs} {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if c := m[k]; c != nil {
					in.resolve(c)
				}
			}
		}
	}
	for _, m := range []map[string]*jsonschema.Schema{s.DependencySchemas, s.Properties, s.PatternProperties, s.DependentSchemas} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if c := m[k]; c != nil {
				in.resolve(c)
			}
		}
	}
	for _, c := range []*jsonschema.Schema{s.Items, s.AdditionalItems, s.Contains, s.UnevaluatedItems, s.AdditionalProperties,
		s.PropertyNames, s.UnevaluatedProperties, s.Not, s.If, s.Then, s.Else, s.ContentSchema} {
		if c != nil {
			in.resolve(c)
		}
	}
	for _, l := range [][]*jsonschema.Schema{s.PrefixItems, s.ItemsArray, s.AllOf, s.AnyOf, s.OneOf} {
		for _, c := range l {
			if c != nil {
				in.resolve(c)
			}
		}
	}
	if s.Ref == "" {
		return
	}
	ref := s.Ref
	s.Ref = ""
	target := in.lookup(ref)
	if target == nil || in.visiting[ref] || in.copied > maxInlineNodes {
		s.Type, s.Types = "object", nil
		return
	}
	in.visiting[ref] = true
	bare := *target
	bare.Definitions, bare.Defs = nil, nil
	c := &cloner{onStack: map[*jsonschema.Schema]bool{}}
	cp := c.clone(&bare)
	in.copied += c.nodes
	in.resolve(cp)
	delete(in.visiting, ref)
	assign(s, cp)
}

// fixGoogleNullable is Mastra's fixAISDKNullableUnionTypes, which its Google
// layer runs on the JSON Schema it hands to the AI SDK. It returns the
// rewritten node (which may be a new one):
//   - a type array: a single non-null type becomes type + nullable: true;
//     otherwise type and nullable are deleted;
//   - an enum with any non-string value is deleted, and so is a non-string
//     const;
//   - an anyOf with a {type: "null"} branch: with exactly one other branch,
//     the node becomes its other keywords overridden by the fixed branch (+
//     nullable: true when that has a type); otherwise the anyOf is just
//     deleted. Either way the node is returned without visiting further;
//   - then properties, items, additionalProperties, anyOf, oneOf and allOf are
//     fixed recursively;
//   - a node with an anyOf is replaced by {anyOf} alone, after copying its
//     description into every branch that has none.
func fixGoogleNullable(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil || isFalse(s) {
		return s
	}
	if s.Types != nil {
		var nonNull []string
		for _, t := range s.Types {
			if t != "null" {
				nonNull = append(nonNull, t)
			}
		}
		s.Types = nil
		if len(nonNull) == 1 {
			s.Type = nonNull[0]
			setExtra(s, Nullable, true)
		} else {
			deleteExtra(s, Nullable)
		}
	}
	if slices.ContainsFunc(s.Enum, func(v any) bool { _, ok := v.(string); return !ok }) {
		s.Enum = nil
	}
	if s.Const != nil {
		if _, ok := (*s.Const).(string); !ok {
			s.Const = nil
		}
	}
	if s.AnyOf != nil {
		hasNull := false
		var others []*jsonschema.Schema
		for _, v := range s.AnyOf {
			if v != nil && v.Type == "null" {
				hasNull = true
			} else {
				others = append(others, v)
			}
		}
		if hasNull {
			s.AnyOf = nil
			if len(others) == 1 && others[0] != nil && !isFalse(others[0]) {
				fixed := fixGoogleNullable(others[0])
				assign(s, fixed)
				if fixed.Type != "" || fixed.Types != nil {
					setExtra(s, Nullable, true)
				}
			}
			return s
		}
	}
	for _, k := range propertyKeys(s) {
		s.Properties[k] = fixGoogleNullable(s.Properties[k])
	}
	s.Items = fixGoogleNullable(s.Items)
	for i, c := range s.ItemsArray {
		s.ItemsArray[i] = fixGoogleNullable(c)
	}
	if s.AdditionalProperties != nil && !isFalse(s.AdditionalProperties) {
		s.AdditionalProperties = fixGoogleNullable(s.AdditionalProperties)
	}
	for _, l := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf} {
		for i, c := range l {
			l[i] = fixGoogleNullable(c)
		}
	}
	if s.AnyOf != nil {
		if s.Description != "" {
			for _, b := range s.AnyOf {
				if b != nil && !isFalse(b) && b.Description == "" {
					b.Description = s.Description
				}
			}
		}
		return &jsonschema.Schema{AnyOf: s.AnyOf}
	}
	return s
}
