package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// applyValue sets enum, const or default on t. Each value must validate
// against t's schema as it stands (enum and const values against the
// other constraints, a default against those and enum and const). On a
// nullable target, enum and const also allow null.
func applyValue(t tagTarget, it tagItem) error {
	var c *Compiled // t.s compiled once, when the first value parses
	vals := make([]any, len(it.values))
	for i, text := range it.values {
		v, err := t.parseValue(text)
		if err != nil {
			return err
		}
		if c == nil {
			if c, err = Compile(t.s); err != nil {
				return err
			}
		}
		if err := checkValue(c, v); err != nil {
			return fmt.Errorf("%s: %w", stringifyPrimitive(v), err)
		}
		vals[i] = v
	}
	nullable := slices.Contains(t.s.Types, "null")
	switch it.keyword {
	case "enum":
		if nullable && !slices.Contains(vals, nil) {
			vals = append(vals, nil)
		}
		t.s.Enum = vals
	case "const":
		if nullable && vals[0] != nil {
			t.s.Enum = []any{vals[0], nil}
			break
		}
		t.s.Const = &vals[0]
	case "default":
		if t.depth > 0 {
			return errors.New(`a default applies to a struct field, not to "items."`)
		}
		b, err := json.Marshal(vals[0])
		if err != nil {
			return err
		}
		t.s.Default = b
	}
	return nil
}

// parseValue reads an enum, const or default value: the text itself on a
// target whose only non-null JSON type is string, JSON otherwise.
func (t tagTarget) parseValue(text string) (any, error) {
	if schemaTypes(t.s) == tString {
		return text, nil
	}
	v, err := parseJSON(text)
	if err != nil {
		return nil, fmt.Errorf("%q is not JSON (only a string field's values are plain text)", text)
	}
	return v, nil
}

// parseJSON decodes exactly one JSON value from text.
func parseJSON(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if rest := bytes.TrimSpace([]byte(text[dec.InputOffset():])); len(rest) > 0 {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}

// checkValue validates v against c, the target's schema compiled without
// options, and returns its issues as an error. Unknown object keys are
// errors.
func checkValue(c *Compiled, v any) error {
	_, issues := c.Validate(v)
	if len(issues) == 0 {
		return nil
	}
	msgs := make([]string, len(issues))
	for i, is := range issues {
		msgs[i] = is.Message
		if len(is.Path) > 0 {
			msgs[i] = is.PathString() + ": " + is.Message
		}
	}
	return errors.New(strings.Join(msgs, "; "))
}

// checkSatisfiable reports bounds that no value meets.
func checkSatisfiable(s *jsonschema.Schema) error {
	lo, loExcl := s.Minimum, false
	if s.ExclusiveMinimum != nil {
		lo, loExcl = s.ExclusiveMinimum, true
	}
	hi, hiExcl := s.Maximum, false
	if s.ExclusiveMaximum != nil {
		hi, hiExcl = s.ExclusiveMaximum, true
	}
	if lo != nil && hi != nil && (*lo > *hi || (*lo == *hi && (loExcl || hiExcl))) {
		return fmt.Errorf("no number is within the bounds (lower %s, upper %s)", formatNumber(*lo), formatNumber(*hi))
	}
	if s.MinLength != nil && s.MaxLength != nil && *s.MinLength > *s.MaxLength {
		return fmt.Errorf("minLength %d is above maxLength %d", *s.MinLength, *s.MaxLength)
	}
	if s.MinItems != nil && s.MaxItems != nil && *s.MinItems > *s.MaxItems {
		return fmt.Errorf("minItems %d is above maxItems %d", *s.MinItems, *s.MaxItems)
	}
	return nil
}

// schemaTypes is s's JSON types as a bit set, without null; 0 means any.
// An integer type counts as a number too.
func schemaTypes(s *jsonschema.Schema) uint8 {
	var bits uint8
	for _, t := range append([]string{s.Type}, s.Types...) {
		bits |= typeBits[t]
	}
	return bits &^ tNull
}

// typesFit reports whether a keyword applying to want (0: any) can
// constrain a value of s.
func typesFit(want uint8, s *jsonschema.Schema) bool {
	have := schemaTypes(s)
	return want == 0 || have == 0 || have&want != 0
}

// typeNames names the values a keyword applying to bits constrains.
func typeNames(bits uint8) string {
	switch {
	case bits&(tNumber|tInteger) != 0:
		return "numbers"
	case bits&tString != 0:
		return "strings"
	case bits&tArray != 0:
		return "arrays"
	}
	return "any JSON value"
}

// jsonTypeNames names JSON types, as a schema's "type" would.
func jsonTypeNames(bits uint8) string {
	var names []string
	for _, name := range []string{"string", "number", "integer", "boolean", "array", "object"} {
		if bits&typeBits[name] != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, " or ")
}
