// Package compat rewrites a tool's input JSON Schema into the form a given
// model provider accepts, as Mastra's provider schema-compat layers
// (@mastra/schema-compat 1.3.11) do before a tool is offered to a model.
//
// # Contract
//
// [Apply] takes a schema (draft 2020-12 as github.com/google/jsonschema-go
// produces, or draft-07) and a [Model], picks the first [Layer] of [Layers]
// whose ShouldApply accepts the model, and returns that layer's rewrite with
// the layer's name. The order and the predicates are Mastra's:
//
//	1 openai-reasoning  model id contains "o1", "o3" or "o4", and provider or model id contains "openai"
//	2 openai            not a reasoning model, and provider contains "openai" or "groq", or model id contains "openai"
//	3 google            model id lacks "claude", and provider contains "google" or model id contains "gemini-" or "google"
//	4 anthropic         model id contains "claude"
//	5 deepseek          model id contains "deepseek" and not "r1"
//	6 meta              model id contains "meta"
//
// With no layer, Apply returns the draft-07 form of the schema with its
// objects closed (see Apply). Every result is a new schema in draft-07 form
// ($schema "http://json-schema.org/draft-07/schema#" unless the layer
// deletes it, definitions instead of $defs, tuple items instead of
// prefixItems; see [Draft07]). Inputs are never modified.
//
// The rewritten schema is only what the model sees. Arguments the model
// returns are validated against the original schema; when an OpenAI layer
// ran, first pass them through [RestoreOptional], which turns the nulls it
// invited for optional properties back into absent keys. [ValidationSchema]
// names the schema to validate against.
//
// # Common rewriting
//
// Every layer walks the schema depth first and rewrites each node before
// visiting its children:
//   - allOf is flattened into one closed object (branch properties merged,
//     required lists united);
//   - an object with properties and no additionalProperties gets
//     additionalProperties: false; an object without properties gets
//     required: [] (replacing any list);
//   - limits providers ignore are removed and appended to the description,
//     after a newline when there already is one, as
//     "constraints: <phrase>, <phrase>": minItems/maxItems ("minimum length
//     N", "maximum length N", or "exact length N" when equal),
//     minLength/maxLength ("minimum length N", "maximum length N"), the
//     formats email, emoji, uri, uuid, date-time, date and time ("a valid
//     <format>", removing the pattern too), a pattern when nothing else was
//     moved ("input must match this regex <pattern>"), minimum ("greater than
//     or equal to N"), maximum ("lower than or equal to N"), exclusiveMinimum
//     ("greater than N"), exclusiveMaximum ("lower than N") and multipleOf
//     ("multiple of N"). Numbers are written as JavaScript writes them;
//     ±9007199254740991 bounds (Zod's .int()) are dropped silently. Only one
//     of the object, array, number and string rules applies to a node, in
//     that order (Google checks number before array).
//
// and, after its children, normalises unions: non-object entries of anyOf
// are dropped and the remaining entries go through the layer's node rules a
// second time (Mastra does this; it is why, for example, a pattern held
// back by a length limit ends up in the description of an anyOf branch, and
// why the OpenAI layers wrap an untyped anyOf branch in null unions more
// than once). The layer-specific rules are documented on each layer type:
// [OpenAILayer], [OpenAIReasoningLayer], [GoogleLayer], [AnthropicLayer],
// [DeepSeekLayer], [MetaLayer].
//
// # Representation
//
// Keywords jsonschema.Schema has no field for live in its Extra map:
// "x-optional" ([XOptional], a []string) and "nullable" ([Nullable], true).
// JSON false (additionalProperties: false) is jsonschema.Schema's false
// schema, {"not": {}}. jsonschema.Schema's MarshalJSON cannot write an empty
// sub-schema as {} (it writes true) nor an empty required list; [Marshal]
// renders the result as Mastra would send it (up to key order; a JSON true
// sub-schema, which jsonschema.Schema cannot tell from {}, is treated and
// written as {}).
//
// # Differences from Mastra
//
// The layers were checked against @mastra/schema-compat 1.3.11 itself,
// output for output, on the schemas in testdata and on thousands of random
// ones. Deliberate differences:
//   - Mastra's Google layer runs its nullable-union fix-up (which removes
//     non-string enum and const) only on the AI-SDK path it uses for Zod 3
//     and AI-SDK schemas; tools made with createTool skip it. GoogleLayer
//     always runs it, so Gemini never receives non-string enums.
//   - When the Google layer inlines a "#" reference, Mastra's copy of the
//     root carries the root's definitions along; here copies carry no
//     definitions. Inlining stops after 50,000 copied nodes (remaining
//     references become {"type": "object"}), where Mastra would run on.
//   - RestoreOptional follows $ref, so optional properties inside recursive or
//     shared definitions are restored too; Mastra stops at a $ref.
//   - Mastra's OpenAI validator also turns date strings back into Date
//     objects for Zod dates; there is no such type here.
//
// Properties are handled in document order, which decides the order of the
// required and "x-optional" lists the OpenAI layers write: PropertyOrder
// (which jsonschema.For sets) first, then the remaining names sorted. A
// schema decoded from JSON has no PropertyOrder; set it to keep the JSON's
// order, as Mastra (JavaScript objects) does.
//
// Schemas are trees here: a sub-schema pointer shared by two parents is
// copied for each, and a pointer cycle is cut (see [Draft07]). Recursion in
// the JSON sense ($ref) is never followed while rewriting, except by the
// Google layer, which inlines references and unrolls recursive ones once,
// and by [RestoreOptional]. All functions are safe for concurrent use
// ([RestoreOptional] mutates the value it is given, so not concurrently on
// the same value).
package compat
