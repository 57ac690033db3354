package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema validates decoded JSON values and describes itself as JSON Schema.
// Implementations must be safe for concurrent use.
type Schema interface {
	// JSONSchema returns the schema as JSON Schema (draft 2020-12). Callers
	// must not modify it.
	JSONSchema() *jsonschema.Schema
	// Validate checks v and returns the value the tool should receive (with
	// defaults filled in and, where the schema says so, unknown keys
	// stripped) or the issues found (the first [MaxIssues]+1 of them at
	// most, for [Compiled]). It must not modify v.
	Validate(v any) (any, []Issue)
}

// Issue is one validation problem, worded as Zod 4 words it.
type Issue struct {
	// Code is Zod's issue code: invalid_type, invalid_value, too_small,
	// too_big, invalid_format, not_multiple_of, unrecognized_keys,
	// invalid_union, invalid_key, invalid_element or custom.
	Code string `json:"code"`
	// Path locates the value: object keys and array indexes (as decimal
	// strings). Empty means the root.
	Path []string `json:"path"`
	// Message is the human (and model) readable text.
	Message string `json:"message"`
	// aborting marks issues after which Zod stops checking the value (a
	// wrong type), as opposed to failed refinements; unions use it to pick
	// the branch whose issues to report.
	aborting bool
}

// PathString joins the path with "." or returns "root" for an empty path,
// the form Mastra's messages use.
func (i Issue) PathString() string {
	if len(i.Path) == 0 {
		return "root"
	}
	return strings.Join(i.Path, ".")
}

// Compiled is a JSON Schema compiled once into a validator. It is immutable
// and safe for concurrent use.
type Compiled struct {
	src      *jsonschema.Schema
	root     *node
	warnings []string
}

// Option configures compilation.
type Option func(*compileOptions)

type compileOptions struct {
	stripUnknown bool
	zodObjects   bool
	nilSlices    map[*jsonschema.Schema]bool
}

// StripUnknown makes objects whose schema says additionalProperties: false
// drop unknown keys instead of reporting them (Zod's z.object behaviour; the
// default for schemas inferred from Go types).
func StripUnknown() Option { return func(o *compileOptions) { o.stripUnknown = true } }

// nilSlicesAt marks the schemas of Go slices (see [refiner]): null there
// is a nil slice, validated as the empty array.
func nilSlicesAt(set map[*jsonschema.Schema]bool) Option {
	return func(o *compileOptions) { o.nilSlices = set }
}

// ZodObjects reads objects as Zod's toJSONSchema writes them: an object
// schema without additionalProperties is a z.object, whose unknown keys are
// stripped from the output (plain JSON Schema keeps them);
// additionalProperties: false is a z.strictObject, which rejects them; a
// schema for additionalProperties is a z.looseObject or catchall.
func ZodObjects() Option { return func(o *compileOptions) { o.zodObjects = true } }

// Compile compiles s. It reports an error for schemas it cannot honour: a
// $ref that is not local, an invalid pattern, a nil schema.
func Compile(s *jsonschema.Schema, opts ...Option) (*Compiled, error) {
	if s == nil {
		return nil, errors.New("schema: nil schema")
	}
	var o compileOptions
	for _, opt := range opts {
		opt(&o)
	}
	c := &compiler{root: s, opts: o, done: map[*jsonschema.Schema]*node{}}
	n, err := c.compile(s)
	if err != nil {
		return nil, err
	}
	if err := c.resolveRefs(); err != nil {
		return nil, err
	}
	return &Compiled{src: s, root: n, warnings: c.warnings}, nil
}

// Warnings lists the parts of the schema that are not enforced (patterns
// using ECMA-262 features Go's regexp lacks).
func (c *Compiled) Warnings() []string { return c.warnings }

// MustCompile is like [Compile] but panics on error; for package-level
// schemas known to be valid.
func MustCompile(s *jsonschema.Schema, opts ...Option) *Compiled {
	c, err := Compile(s, opts...)
	if err != nil {
		panic(err)
	}
	return c
}

// MaxSchemaDepth is how deeply FromJSON lets a schema's JSON nest. Real
// schemas stay far below it; the parser and compiler cost grows with
// depth, so deeper text is refused before it is parsed.
const MaxSchemaDepth = 256

// FromJSON compiles a JSON Schema given as JSON text.
func FromJSON(data []byte, opts ...Option) (*Compiled, error) {
	if d := jsonDepth(data); d > MaxSchemaDepth {
		return nil, fmt.Errorf("schema: JSON Schema nests %d levels deep, more than %d", d, MaxSchemaDepth)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("schema: parsing JSON Schema: %w", err)
	}
	recordPropertyOrder(&s, data)
	return Compile(&s, opts...)
}

// MustFromJSON is [FromJSON] for schemas known to be right, such as a
// program's own JSON Schema text in a package-level variable: it panics on
// an error.
func MustFromJSON(data []byte, opts ...Option) *Compiled {
	c, err := FromJSON(data, opts...)
	if err != nil {
		panic(err)
	}
	return c
}

// FromMap compiles a JSON Schema given as a decoded JSON object.
func FromMap(m map[string]any, opts ...Option) (*Compiled, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("schema: encoding JSON Schema: %w", err)
	}
	return FromJSON(data, opts...)
}

// For infers the schema of T from its json and jsonschema struct tags and
// its schema tags ([TagKey]; see the package documentation) and compiles
// it with [StripUnknown]. A tag that cannot be applied is a *[TagError]
// naming the field. A slice field not behind a pointer is an array, never
// null. Integer
// fields get the range their Go type holds; int, int64, uint and uint64
// get JavaScript's safe integers, ±(2^53−1), as Zod's z.int() and Mastra's
// served schemas do.
func For[T any]() (*Compiled, error) {
	return ForType(reflect.TypeFor[T]())
}

// MustFor is [For] for schemas known to be right, such as those of a
// program's own types in package-level variables: it panics on an error.
func MustFor[T any]() *Compiled {
	c, err := For[T]()
	if err != nil {
		panic(err)
	}
	return c
}

// ForType is [For] for a reflect.Type.
func ForType(t reflect.Type) (*Compiled, error) {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// Raw JSON is any JSON value, not the byte slice it is stored in.
		reflect.TypeFor[json.RawMessage](): {},
	}})
	if err != nil {
		if te := descriptionConstraint(t, map[reflect.Type]bool{}); te != nil {
			return nil, te
		}
		return nil, fmt.Errorf("schema: inferring JSON Schema of %s: %w", t, err)
	}
	r := newRefiner()
	if err := r.refine(t, s); err != nil {
		return nil, err
	}
	return Compile(s, StripUnknown(), nilSlicesAt(r.nilSlices))
}

// JSONSchema implements [Schema].
func (c *Compiled) JSONSchema() *jsonschema.Schema { return c.src }

// Validate implements [Schema]. It stops after MaxIssues+1 issues (see
// [MaxIssues]).
func (c *Compiled) Validate(v any) (any, []Issue) {
	issues := newIssueList()
	out, _ := c.root.validate(v, true, nil, issues)
	if issues.found > 0 {
		return nil, issues.items
	}
	return out, nil
}

// ValidateChanged is Validate that also reports whether the output differs
// from v (defaults filled in, unknown keys stripped), so callers can keep
// their own value when it does not.
func (c *Compiled) ValidateChanged(v any) (any, bool, []Issue) {
	issues := newIssueList()
	out, changed := c.root.validate(v, true, nil, issues)
	if issues.found > 0 {
		return nil, false, issues.items
	}
	return out, changed, nil
}

// Type returns the schema's top-level JSON type ("object", "array", ...)
// when it has exactly one besides "null", else "".
func (c *Compiled) Type() string { return c.root.baseTypeName() }

// TypeOf returns s's top-level JSON type as [Compiled.Type] does, reading
// the JSON Schema of schemas that are not [Compiled].
func TypeOf(s Schema) string {
	if c, ok := s.(*Compiled); ok {
		return c.Type()
	}
	js := s.JSONSchema()
	if js == nil {
		return ""
	}
	if js.Type != "" {
		return js.Type
	}
	var t string
	for _, x := range js.Types {
		if x == "null" {
			continue
		}
		if t != "" {
			return ""
		}
		t = x
	}
	return t
}

// jsonDepth returns the deepest nesting of arrays and objects in data,
// ignoring brackets inside strings. It does not validate the JSON.
func jsonDepth(data []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}
