package schema

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsonvalue"
)

// validate checks v (present=false: the value is absent, JavaScript's
// undefined) and appends issues. It returns the output value and whether it
// differs from v (defaults filled, keys stripped); v itself is never
// modified.
func (n *node) validate(v any, present bool, path []string, issues *issueList) (any, bool) {
	if n == nil {
		return v, false
	}
	changed := false
	if n.refNode != nil {
		// The referenced schema applies first; keywords beside $ref apply
		// too (draft 2020-12). Compile rejects reference cycles that never
		// reach into the value.
		before := issues.found
		out, chg := n.refNode.validate(v, present, path, issues)
		if issues.found > before {
			return v, false
		}
		if chg {
			v, changed = out, true
		}
	}
	if n.never {
		add(issues, path, "invalid_type", "Invalid input: expected never, received "+received(v, present), true)
		return v, false
	}
	// Enumerations and constants are checked first and alone, as Zod's
	// z.enum and z.literal do.
	if n.enum != nil {
		if !present || !containsValue(n.enum, v) {
			add(issues, path, "invalid_value", enumMessage(n.enumOptions()), true)
			return v, false
		}
	}
	if n.hasConst {
		if !present || !equalValues(n.constVal, v) {
			add(issues, path, "invalid_value", enumMessage([]any{n.constVal}), true)
			return v, false
		}
	}
	for _, union := range [2]struct {
		branches   []*node
		exactlyOne bool
	}{{n.anyOf, false}, {n.oneOf, true}} {
		if len(union.branches) == 0 {
			continue
		}
		out, chg, ok := n.validateUnion(union.branches, union.exactlyOne, v, present, path, issues)
		if !ok {
			return v, false
		}
		if chg {
			v, changed = out, true
		}
	}
	if !present {
		if n.types != 0 {
			add(issues, path, "invalid_type", typeMessage(n.types, v, false), true)
			return v, false
		}
		for _, sub := range n.allOf {
			sub.validate(v, false, path, issues)
		}
		return v, changed // an untyped value may be absent
	}
	if v == nil && n.nilSlice {
		// Go encodes a nil slice as null: the empty array.
		n.validateArray(nil, path, issues)
		return v, changed
	}
	var out any = v
	if n.types != 0 {
		jt := jsonType(v)
		if !n.typeAllows(jt, v) {
			if jt == tNumber && n.types&tInteger != 0 && n.types&tNumber == 0 && isNumber(v) {
				add(issues, path, "invalid_type", "Invalid input: expected int, received number", true)
			} else {
				add(issues, path, "invalid_type", typeMessage(n.types, v, true), true)
			}
			return v, false
		}
	}
	switch t := v.(type) {
	case string:
		n.checkString(t, path, issues)
	case map[string]any:
		if o, chg := n.validateObject(t, path, issues); chg {
			out, changed = o, true
		}
	case []any:
		if o, chg := n.validateArray(t, path, issues); chg {
			out, changed = o, true
		}
	case nil, bool:
	default:
		if f, ok := toFloat(v); ok {
			n.checkNumber(f, path, issues)
		}
	}
	for _, sub := range n.allOf {
		o, c := sub.validate(out, true, path, issues)
		if c {
			out, changed = o, true
		}
	}
	if n.not != nil {
		scratch := issueList{limit: 1} // only whether it fails matters
		n.not.validate(out, true, path, &scratch)
		if scratch.found == 0 {
			add(issues, path, "custom", "Invalid input", false)
		}
	}
	return out, changed
}

// enumOptions is the enum as Zod words it: on a nullable type, null is
// the .nullable() around a z.enum or z.literal, not one of its options.
func (n *node) enumOptions() []any {
	if n.types&tNull == 0 || len(n.enum) < 2 || !containsValue(n.enum, nil) {
		return n.enum
	}
	return slices.DeleteFunc(slices.Clone(n.enum), func(v any) bool { return v == nil })
}

func (n *node) typeAllows(jt uint8, v any) bool {
	if jt == tNumber {
		// Zod's numbers are finite: JSON.parse("1e400") is Infinity, which
		// z.number() rejects.
		if f, _ := toFloat(v); math.IsInf(f, 0) || math.IsNaN(f) {
			return false
		}
	}
	if n.types&jt != 0 {
		return true
	}
	if jt == tNumber && n.types&tInteger != 0 {
		f, ok := toFloat(v)
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	return false
}

// validateUnion handles anyOf and oneOf as Zod's z.union and
// z.discriminatedUnion do: the first matching branch wins; when none
// matches and exactly one branch got past its type checks, that branch's
// issues are reported; otherwise one "Invalid input".
func (n *node) validateUnion(branches []*node, exactlyOne bool, v any, present bool, path []string, issues *issueList) (any, bool, bool) {
	if n.discriminator != "" && sameNodes(branches, n.discBranches) {
		obj, isObj := v.(map[string]any)
		if !present || !isObj {
			add(issues, path, "invalid_type", "Invalid input: expected object, received "+received(v, present), true)
			return v, false, false
		}
		dv, has := obj[n.discriminator]
		for i, vals := range n.discValues {
			if has && containsValue(vals, dv) {
				before := issues.found
				out, changed := branches[i].validate(v, present, path, issues)
				return out, changed, issues.found == before
			}
		}
		add(issues, appendPath(path, n.discriminator), "invalid_union", discriminatorMessage(n.discValues), true)
		return v, false, false
	}
	var (
		results   [][]Issue
		matches   int
		firstOut  any
		firstChg  bool
		nonAbort  = -1
		nonAborts int
	)
	for i, b := range branches {
		bl := issueList{limit: issues.limit}
		out, chg := b.validate(v, present, path, &bl)
		bi := bl.items
		results = append(results, bi)
		if bl.found == 0 {
			matches++
			if matches == 1 {
				firstOut, firstChg = out, chg
			}
			if !exactlyOne {
				return out, chg, true
			}
			continue
		}
		if !anyAborting(bi) {
			nonAborts++
			nonAbort = i
		}
	}
	if matches == 1 || (matches > 1 && !exactlyOne) {
		return firstOut, firstChg, true
	}
	if matches == 0 && nonAborts == 1 {
		issues.addAll(results[nonAbort])
		return v, false, false
	}
	add(issues, path, "invalid_union", "Invalid input", true)
	return v, false, false
}

func sameNodes(a, b []*node) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func anyAborting(issues []Issue) bool {
	for _, i := range issues {
		if i.aborting {
			return true
		}
	}
	return false
}

// checkString runs the string checks in Zod's order: the format (Zod's
// base type for z.email() and friends) first, then lengths, then a pattern,
// then any other format.
func (n *node) checkString(s string, path []string, issues *issueList) {
	zodMsg, zodFormat := zodFormatMessage(n.format, n.patternSrc)
	if zodFormat {
		// Zod writes its string formats as "format" plus the "pattern" that
		// implements them, and reports one format message.
		valid := true
		if n.pattern != nil {
			valid = n.pattern.MatchString(s)
		} else if _, checked := checkFormat(n.format, s); !checked {
			valid = false
		}
		if !valid {
			add(issues, path, "invalid_format", zodMsg, false)
		}
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLen >= 0 && l < n.minLen {
			add(issues, path, "too_small", sizeMessage(false, "string", n.minLen, n.minLen == n.maxLen), false)
		}
		if n.maxLen >= 0 && l > n.maxLen {
			add(issues, path, "too_big", sizeMessage(true, "string", n.maxLen, n.minLen == n.maxLen), false)
		}
	}
	if zodFormat {
		return
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		add(issues, path, "invalid_format", "Invalid string: must match pattern /"+n.patternSrc+"/", false)
	}
	if n.format != "" {
		if msg, ok := checkFormat(n.format, s); !ok {
			add(issues, path, "invalid_format", msg, false)
		}
	}
}

func (n *node) checkNumber(f float64, path []string, issues *issueList) {
	if n.minimum != nil && f < *n.minimum {
		add(issues, path, "too_small", boundMessage(false, n.origin(*n.minimum), *n.minimum, true), false)
	}
	if n.exclMin != nil && f <= *n.exclMin {
		add(issues, path, "too_small", boundMessage(false, n.origin(*n.exclMin), *n.exclMin, false), false)
	}
	if n.maximum != nil && f > *n.maximum {
		add(issues, path, "too_big", boundMessage(true, n.origin(*n.maximum), *n.maximum, true), false)
	}
	if n.exclMax != nil && f >= *n.exclMax {
		add(issues, path, "too_big", boundMessage(true, n.origin(*n.exclMax), *n.exclMax, false), false)
	}
	if n.multipleOf != nil && *n.multipleOf > 0 && !isMultiple(f, *n.multipleOf) {
		add(issues, path, "not_multiple_of", "Invalid number: must be a multiple of "+formatNumber(*n.multipleOf), false)
	}
}

// origin is the noun Zod uses for a numeric bound: "int" for the safe
// integer bounds z.int() carries, "number" otherwise.
func (n *node) origin(bound float64) string {
	if n.types&tInteger != 0 && math.Abs(bound) == maxSafeInteger {
		return "int"
	}
	return "number"
}

const maxSafeInteger = 1<<53 - 1

func isMultiple(f, m float64) bool {
	q := f / m
	if math.IsInf(q, 0) {
		return false
	}
	r := math.Abs(q - math.Round(q))
	return r < 1e-9*math.Max(1, math.Abs(q))
}

func (n *node) validateObject(obj map[string]any, path []string, issues *issueList) (any, bool) {
	var out map[string]any // copy made on first change
	set := func(k string, v any) {
		if out == nil {
			out = make(map[string]any, len(obj))
			for kk, vv := range obj {
				out[kk] = vv
			}
		}
		out[k] = v
	}
	for _, k := range n.order {
		if issues.full() {
			break // the rest would not be kept
		}
		pn := n.props[k]
		v, ok := obj[k]
		if !ok {
			if d, has := n.defaults[k]; has {
				set(k, cloneJSON(d))
				continue
			}
			if !n.required[k] {
				continue
			}
			if pn == nil {
				pn = n.additional
			}
			if pn == nil {
				add(issues, appendPath(path, k), "invalid_type", "Invalid input: expected nonoptional, received undefined", true)
				continue
			}
		}
		o, chg := pn.validate(v, ok, appendPath(path, k), issues)
		if chg {
			set(k, o)
		}
	}
	var unknown []string
	if n.noAdditional || n.additional != nil || len(n.patternProps) > 0 || n.propNames != nil {
		for _, k := range sortedKeys(obj) {
			if issues.full() {
				break // the rest would not be kept
			}
			if n.propNames != nil {
				scratch := issueList{limit: 1} // only whether it fails matters
				n.propNames.validate(k, true, path, &scratch)
				if scratch.found > 0 {
					// Zod's enum-keyed records report unknown keys as
					// unrecognized; other key schemas as invalid keys.
					if n.propNames.resolved().enum != nil {
						unknown = append(unknown, k)
					} else {
						add(issues, appendPath(path, k), "invalid_key", "Invalid key in record", true)
					}
					continue
				}
			}
			if _, declared := n.props[k]; declared {
				continue
			}
			matched := false
			for _, pp := range n.patternProps {
				if pp.re.MatchString(k) {
					matched = true
					o, chg := pp.n.validate(obj[k], true, appendPath(path, k), issues)
					if chg {
						set(k, o)
					}
				}
			}
			if matched {
				continue
			}
			switch {
			case n.additional != nil:
				o, chg := n.additional.validate(obj[k], true, appendPath(path, k), issues)
				if chg {
					set(k, o)
				}
			case n.noAdditional:
				unknown = append(unknown, k)
			}
		}
	}
	if len(unknown) > 0 {
		if n.strip && n.propNames == nil {
			if out == nil {
				out = make(map[string]any, len(obj))
				for kk, vv := range obj {
					out[kk] = vv
				}
			}
			for _, k := range unknown {
				delete(out, k)
			}
		} else {
			add(issues, path, "unrecognized_keys", unrecognizedMessage(unknown), false)
		}
	}
	if n.minProps >= 0 && len(obj) < n.minProps {
		add(issues, path, "too_small", sizeMessage(false, "object", n.minProps, false), false)
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps {
		add(issues, path, "too_big", sizeMessage(true, "object", n.maxProps, false), false)
	}
	if out == nil {
		return obj, false
	}
	return out, true
}

func (n *node) validateArray(arr []any, path []string, issues *issueList) (any, bool) {
	var out []any
	set := func(i int, v any) {
		if out == nil {
			out = append([]any(nil), arr...)
		}
		out[i] = v
	}
	for i, e := range arr {
		if issues.full() {
			break // the rest would not be kept
		}
		var en *node
		switch {
		case i < len(n.prefix):
			en = n.prefix[i]
		case n.itemsFalse:
			continue
		default:
			en = n.items
		}
		if en == nil {
			continue
		}
		o, chg := en.validate(e, true, appendPath(path, strconv.Itoa(i)), issues)
		if chg {
			set(i, o)
		}
	}
	minItems, maxItems := n.minItems, n.maxItems
	exact := minItems >= 0 && minItems == maxItems && len(n.prefix) == 0
	if len(n.prefix) > 0 && n.itemsFalse {
		if minItems < 0 {
			minItems = len(n.prefix)
		}
		if maxItems < 0 {
			maxItems = len(n.prefix)
		}
	}
	if minItems >= 0 && len(arr) < minItems {
		add(issues, path, "too_small", sizeMessage(false, "array", minItems, exact), false)
	}
	if maxItems >= 0 && len(arr) > maxItems {
		add(issues, path, "too_big", sizeMessage(true, "array", maxItems, exact), false)
	}
	if n.uniqueItems && hasDuplicates(arr) {
		add(issues, path, "custom", "Invalid input: expected unique items", false)
	}
	if out == nil {
		return arr, false
	}
	return out, true
}

func add(issues *issueList, path []string, code, msg string, aborting bool) {
	if issues.full() {
		issues.found++ // not kept: no need to copy its path
		return
	}
	issues.add(Issue{Code: code, Path: append([]string(nil), path...), Message: msg, aborting: aborting})
}

// appendPath extends path for a child. The child's path may share the
// parent's backing array: siblings are visited one after another and add
// copies a path into its Issue, so nothing keeps a path beyond the call.
// (Forcing a copy per level made deep values cost quadratic memory.)
func appendPath(path []string, k string) []string {
	return append(path, k)
}

func jsonType(v any) uint8 {
	switch v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case string:
		return tString
	case map[string]any:
		return tObject
	case []any:
		return tArray
	}
	if isNumber(v) {
		return tNumber
	}
	return 0
}

func isNumber(v any) bool {
	_, ok := toFloat(v)
	return ok
}

func toFloat(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case json.Number:
		f, err := t.Float64()
		if err != nil && !math.IsInf(f, 0) {
			return 0, false
		}
		return f, true // ±Inf for out-of-range texts, as JSON.parse gives; typeAllows rejects it
	case float32:
		return float64(t), true
	case int:
		return float64(t), true
	case int8:
		return float64(t), true
	case int16:
		return float64(t), true
	case int32:
		return float64(t), true
	case int64:
		return float64(t), true
	case uint:
		return float64(t), true
	case uint8:
		return float64(t), true
	case uint16:
		return float64(t), true
	case uint32:
		return float64(t), true
	case uint64:
		return float64(t), true
	}
	return 0, false
}

func containsValue(list []any, v any) bool {
	for _, e := range list {
		if equalValues(e, v) {
			return true
		}
	}
	return false
}

// equalValues compares decoded JSON values; numbers compare by value.
func equalValues(a, b any) bool {
	fa, aNum := toFloat(a)
	fb, bNum := toFloat(b)
	if aNum || bNum {
		return aNum && bNum && fa == fb
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalValues(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	return a == b
}

// cloneJSON deep-copies a decoded JSON value so defaults are never shared.
func cloneJSON(v any) any { return jsonvalue.Map(v, func(s any) any { return s }) }

func (n *node) baseTypeName() string {
	n = n.resolved()
	if n == nil {
		return ""
	}
	switch n.types &^ tNull {
	case tObject:
		return "object"
	case tArray:
		return "array"
	case tString:
		return "string"
	case tBoolean:
		return "boolean"
	case tNumber, tInteger, tNumber | tInteger:
		if n.types&tNumber != 0 {
			return "number"
		}
		return "integer"
	}
	return ""
}

// hasDuplicates reports whether two elements of arr are equal JSON values,
// in linear time: elements are keyed by their canonical encoding (numbers
// by value, object keys sorted).
func hasDuplicates(arr []any) bool {
	seen := make(map[string]struct{}, len(arr))
	for _, e := range arr {
		b, err := json.Marshal(canonicalNumbers(e))
		if err != nil {
			return false
		}
		if _, dup := seen[string(b)]; dup {
			return true
		}
		seen[string(b)] = struct{}{}
	}
	return false
}

// canonicalNumbers returns a copy of v with every number as a float64, so
// 1 and 1.0 encode alike.
func canonicalNumbers(v any) any {
	return jsonvalue.Map(v, func(s any) any {
		if f, ok := toFloat(s); ok {
			return f
		}
		return s
	})
}
