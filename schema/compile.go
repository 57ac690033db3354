package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// JSON types as a bit set.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tInteger
	tString
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "integer": tInteger, "string": tString,
}

// node is one compiled schema. A nil *node accepts everything.
type node struct {
	never bool  // the false schema
	types uint8 // 0: any type

	enum     []any // nil: no enum; values decoded from JSON
	hasConst bool
	constVal any

	// strings
	minLen, maxLen int // -1: unset
	pattern        *regexp.Regexp
	patternSrc     string
	format         string

	// numbers
	minimum, maximum, exclMin, exclMax, multipleOf *float64

	// arrays
	nilSlice           bool // a Go slice: null is its nil value, read as []
	items              *node
	itemsFalse         bool
	prefix             []*node
	minItems, maxItems int
	uniqueItems        bool

	// objects
	props        map[string]*node
	order        []string // declared property order, then required-only keys
	required     map[string]bool
	defaults     map[string]any
	additional   *node
	noAdditional bool
	strip        bool
	patternProps []patternProp
	propNames    *node
	minProps     int
	maxProps     int

	allOf, anyOf, oneOf []*node
	not                 *node
	discriminator       string // anyOf/oneOf branches keyed by this const property
	discValues          [][]any
	discBranches        []*node // the anyOf or oneOf list the discriminator keys

	ref     string
	refNode *node
}

type patternProp struct {
	re *regexp.Regexp
	n  *node
}

type compiler struct {
	root *jsonschema.Schema
	opts compileOptions
	done map[*jsonschema.Schema]*node
	refs []*node

	warnings []string
}

func (c *compiler) compile(s *jsonschema.Schema) (*node, error) {
	if s == nil {
		return nil, nil
	}
	if n, ok := c.done[s]; ok {
		return n, nil
	}
	n := &node{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	c.done[s] = n
	if isFalseSchema(s) {
		n.never = true
		return n, nil
	}
	n.nilSlice = c.opts.nilSlices[s]
	if s.Type != "" {
		if err := n.addType(s.Type); err != nil {
			return nil, err
		}
	}
	for _, t := range s.Types {
		if err := n.addType(t); err != nil {
			return nil, err
		}
	}
	if nb, ok := s.Extra["nullable"].(bool); ok && nb && n.types != 0 {
		n.types |= tNull
	}
	if s.Enum != nil {
		n.enum = normaliseAll(s.Enum)
	}
	if s.Const != nil {
		n.hasConst = true
		n.constVal = normalise(*s.Const)
	}
	if s.MinLength != nil {
		n.minLen = *s.MinLength
	}
	if s.MaxLength != nil {
		n.maxLen = *s.MaxLength
	}
	if s.Pattern != "" {
		n.patternSrc = s.Pattern
		re, err := compilePattern(s.Pattern)
		if err != nil {
			// ECMA-262 features RE2 lacks (lookaround, \p{Extended_Pictographic}):
			// the pattern is not checked; a known format still is.
			c.warnings = append(c.warnings, fmt.Sprintf("pattern %q is not supported and is not checked: %v", s.Pattern, err))
		} else {
			n.pattern = re
		}
	}
	n.format = s.Format
	n.minimum, n.maximum, n.multipleOf = s.Minimum, s.Maximum, s.MultipleOf
	n.exclMin, n.exclMax = s.ExclusiveMinimum, s.ExclusiveMaximum
	if s.MinItems != nil {
		n.minItems = *s.MinItems
	}
	if s.MaxItems != nil {
		n.maxItems = *s.MaxItems
	}
	n.uniqueItems = s.UniqueItems
	var err error
	prefix := s.PrefixItems
	if len(prefix) == 0 && len(s.ItemsArray) > 0 { // draft-07 tuple form
		prefix = s.ItemsArray
		if s.AdditionalItems != nil {
			if n.items, err = c.compile(s.AdditionalItems); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range prefix {
		pn, err := c.compile(p)
		if err != nil {
			return nil, err
		}
		n.prefix = append(n.prefix, pn)
	}
	if s.Items != nil {
		if n.items, err = c.compile(s.Items); err != nil {
			return nil, err
		}
	}
	if n.items != nil && n.items.never {
		n.itemsFalse = true
	}
	if err := c.compileObject(n, s); err != nil {
		return nil, err
	}
	if n.allOf, err = c.compileList(s.AllOf); err != nil {
		return nil, err
	}
	if n.anyOf, err = c.compileList(s.AnyOf); err != nil {
		return nil, err
	}
	if n.oneOf, err = c.compileList(s.OneOf); err != nil {
		return nil, err
	}
	if n.not, err = c.compile(s.Not); err != nil {
		return nil, err
	}
	if s.Ref != "" {
		n.ref = s.Ref
		c.refs = append(c.refs, n)
	}
	return n, nil
}

func (c *compiler) compileObject(n *node, s *jsonschema.Schema) error {
	if len(s.Properties) > 0 {
		n.props = make(map[string]*node, len(s.Properties))
		order := propertyOrder(s)
		for _, k := range order {
			pn, err := c.compile(s.Properties[k])
			if err != nil {
				return err
			}
			n.props[k] = pn
			if d := s.Properties[k].Default; len(d) > 0 {
				var v any
				if err := json.Unmarshal(d, &v); err != nil {
					return fmt.Errorf("schema: default of %q: %w", k, err)
				}
				if n.defaults == nil {
					n.defaults = map[string]any{}
				}
				n.defaults[k] = v
			}
		}
		n.order = order
	}
	if len(s.Required) > 0 {
		n.required = make(map[string]bool, len(s.Required))
		for _, k := range s.Required {
			n.required[k] = true
			if _, ok := n.props[k]; !ok && !slices.Contains(n.order, k) {
				n.order = append(n.order, k)
			}
		}
	}
	if s.AdditionalProperties == nil && c.opts.zodObjects && len(s.Properties) > 0 {
		n.noAdditional, n.strip = true, true
	}
	if s.AdditionalProperties != nil {
		if isFalseSchema(s.AdditionalProperties) {
			n.noAdditional = true
			n.strip = c.opts.stripUnknown
		} else {
			an, err := c.compile(s.AdditionalProperties)
			if err != nil {
				return err
			}
			n.additional = an
		}
	}
	for _, k := range sortedKeys(s.PatternProperties) {
		re, err := compilePattern(k)
		if err != nil {
			return fmt.Errorf("schema: patternProperties %q: %w", k, err)
		}
		pn, err := c.compile(s.PatternProperties[k])
		if err != nil {
			return err
		}
		n.patternProps = append(n.patternProps, patternProp{re, pn})
	}
	var err error
	if n.propNames, err = c.compile(s.PropertyNames); err != nil {
		return err
	}
	if s.MinProperties != nil {
		n.minProps = *s.MinProperties
	}
	if s.MaxProperties != nil {
		n.maxProps = *s.MaxProperties
	}
	return nil
}

func (c *compiler) compileList(list []*jsonschema.Schema) ([]*node, error) {
	var out []*node
	for _, s := range list {
		n, err := c.compile(s)
		if err != nil {
			return nil, err
		}
		if n == nil {
			n = &node{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
		}
		out = append(out, n)
	}
	return out, nil
}

// resolveRefs links every $ref to its target: "#", "#/$defs/X",
// "#/definitions/X" or any JSON pointer into the root document.
func (c *compiler) resolveRefs() error {
	for i := 0; i < len(c.refs); i++ { // compiling a target may add refs
		n := c.refs[i]
		target, err := lookupPointer(c.root, n.ref)
		if err != nil {
			return err
		}
		tn, err := c.compile(target)
		if err != nil {
			return err
		}
		n.refNode = tn
	}
	if err := c.checkCycles(); err != nil {
		return err
	}
	for _, n := range c.done {
		n.findDiscriminator()
	}
	return nil
}

// checkCycles rejects schemas in which validating a value would come back
// to the same schema for the same value ({"$ref": "#"}, an anyOf of itself,
// a chain of references to references): such a schema describes no value
// and would recurse forever. Cycles through properties or items are fine:
// each step goes into a smaller value.
func (c *compiler) checkCycles() error {
	const (
		unseen = iota
		active
		finished
	)
	state := make(map[*node]int, len(c.done))
	var visit func(n *node) error
	visit = func(n *node) error {
		if n == nil {
			return nil
		}
		switch state[n] {
		case active:
			return fmt.Errorf("schema: reference cycle that never reaches into the value (through %q)", n.ref)
		case finished:
			return nil
		}
		state[n] = active
		next := []*node{n.refNode, n.not}
		next = append(next, n.allOf...)
		next = append(next, n.anyOf...)
		next = append(next, n.oneOf...)
		for _, m := range next {
			if err := visit(m); err != nil {
				return err
			}
		}
		state[n] = finished
		return nil
	}
	for _, n := range c.done {
		if err := visit(n); err != nil {
			return err
		}
	}
	return nil
}

func lookupPointer(root *jsonschema.Schema, ref string) (*jsonschema.Schema, error) {
	if ref == "#" {
		return root, nil
	}
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, fmt.Errorf("schema: $ref %q: only local references (#/...) are supported", ref)
	}
	segs := strings.Split(ptr, "/")
	for i := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~")
	}
	cur := root
	for i := 0; i < len(segs); i++ {
		if cur == nil {
			break
		}
		var m map[string]*jsonschema.Schema
		switch segs[i] {
		case "$defs":
			m = cur.Defs
		case "definitions":
			m = cur.Definitions
		case "properties":
			m = cur.Properties
		case "items":
			cur = cur.Items
			continue
		case "additionalProperties":
			cur = cur.AdditionalProperties
			continue
		default:
			return nil, fmt.Errorf("schema: $ref %q: unsupported pointer segment %q", ref, segs[i])
		}
		if i+1 >= len(segs) {
			return nil, fmt.Errorf("schema: $ref %q: incomplete pointer", ref)
		}
		i++
		cur = m[segs[i]]
	}
	if cur == nil {
		return nil, fmt.Errorf("schema: $ref %q: target not found", ref)
	}
	return cur, nil
}

// findDiscriminator recognises Zod's discriminated unions: every branch of
// anyOf/oneOf an object requiring the same property, constant per branch.
func (n *node) findDiscriminator() {
	branches := n.anyOf
	if len(branches) == 0 {
		branches = n.oneOf
	}
	n.discBranches = branches
	if len(branches) < 2 {
		return
	}
	first := branches[0].resolved()
	for _, key := range first.order {
		var values [][]any
		for _, b := range branches {
			b = b.resolved()
			p := b.props[key].resolved()
			if b.types&tObject == 0 || !b.required[key] || p == nil {
				values = nil
				break
			}
			switch {
			case p.hasConst:
				values = append(values, []any{p.constVal})
			case len(p.enum) > 0:
				values = append(values, p.enum)
			default:
				values = nil
			}
			if values == nil {
				break
			}
		}
		if len(values) == len(branches) {
			n.discriminator, n.discValues = key, values
			return
		}
	}
}

func (n *node) resolved() *node {
	for i := 0; n != nil && n.refNode != nil && i < 64; i++ {
		n = n.refNode
	}
	return n
}

func (n *node) addType(t string) error {
	b, ok := typeBits[t]
	if !ok {
		return fmt.Errorf("schema: unknown type %q", t)
	}
	n.types |= b
	return nil
}

// isFalseSchema recognises jsonschema-go's form of the false schema,
// {"not": {}}, in constant time.
func isFalseSchema(s *jsonschema.Schema) bool {
	if s == nil || s.Not == nil || !isEmptySchema(s.Not) {
		return false
	}
	cp := *s
	cp.Not = nil
	return isEmptySchema(&cp)
}

func isEmptySchema(s *jsonschema.Schema) bool {
	return reflect.ValueOf(s).Elem().IsZero()
}

func propertyOrder(s *jsonschema.Schema) []string {
	seen := make(map[string]bool, len(s.Properties))
	var order []string
	for _, k := range s.PropertyOrder {
		if _, ok := s.Properties[k]; ok && !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	for _, k := range sortedKeys(s.Properties) {
		if !seen[k] {
			order = append(order, k)
		}
	}
	return order
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// compilePattern compiles an ECMA-262 pattern with Go's RE2, after
// translating the escapes that differ (\d and friends mean ASCII in both).
func compilePattern(p string) (*regexp.Regexp, error) {
	return regexp.Compile(p)
}

func normaliseAll(vs []any) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = normalise(v)
	}
	return out
}

// normalise turns any JSON-able Go value into the decoded-JSON form the
// validator compares with (numbers as float64).
func normalise(v any) any {
	switch v.(type) {
	case nil, bool, string, float64:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}
