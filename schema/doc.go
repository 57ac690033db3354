// Package schema turns JSON Schemas and Go types into validators whose
// errors read exactly like Mastra's (Zod 4's English messages), and holds the
// tool-input pipeline Mastra runs before a tool executes.
//
// Three ways to get a [Schema]:
//
//   - [For] infers one from a Go type (the `json` and `jsonschema` struct
//     tags: a field is required unless tagged omitempty or omitzero, the
//     jsonschema tag is its description). Constraints are a `schema` tag
//     ([TagKey]): `schema:"minimum=1"`, `schema:"enum=a|b,default=a"`,
//     checked when the schema is built (a *[TagError] names the field).
//     Unknown object keys are stripped, as Zod's z.object does. [MustFor]
//     and [MustFromJSON] panic instead of returning an error, for
//     package-level schemas.
//   - [Compile] and [FromJSON] take a JSON Schema (draft 2020-12 or draft-07;
//     local $ref only). additionalProperties: false rejects unknown keys.
//   - Any value implementing [Schema]: the adapter point for other schema
//     libraries (Mastra's "any library that supports Standard JSON Schema").
//
// Validation works on decoded JSON values: nil, bool, float64 or json.Number
// (ints of any Go kind are accepted too), string, []any and map[string]any.
// It never panics on any such value, however deep or large.
//
// Issues carry Zod's codes and messages. Where JSON Schema has a keyword Zod
// lacks, the message follows Zod's style; the mapping is documented in
// MESSAGES.md beside this file. String lengths count Unicode code points,
// as Zod 4 does (an emoji is one character), and numbers must be finite.
package schema
