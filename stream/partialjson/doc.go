// Package partialjson parses the partial JSON of streamed tool-call
// arguments (the text of Mastra's tool-call-delta chunks, argsTextDelta)
// with the semantics of the AI SDK's parsePartialJson and fixJson,
// incrementally.
//
// # Semantics
//
// For a text t, the state and value are those of parsePartialJson(t):
//
//   - [SuccessfulParse]: t is complete JSON (RFC 8259, what JSON.parse
//     accepts; surrounding whitespace allowed); the value is t decoded.
//   - [RepairedParse]: t is not, but fixJson(t) is; the value is that
//     decoded. fixJson cuts t after the last byte that can end a valid
//     prefix — dropping a dangling key, colon or comma, a lone '-', a
//     number's trailing '.', 'e', 'E' or exponent sign, trailing
//     whitespace (except after a value inside an array, which fixJson
//     keeps) and anything after a complete top-level value — then closes
//     what is open: an open string gets '"', a partial literal its
//     remaining letters ("nu" becomes null), then every open array and
//     object its ']' or '}', innermost first.
//   - [FailedParse]: neither parses. As in JavaScript this includes the
//     empty and all-whitespace texts, and fixJson's own quirks are kept:
//     a text cut inside a \uXXXX escape ("\u00" closes to an invalid
//     escape), a '-' right after '[', or an escape inside an unfinished
//     key make the repair invalid, so the state is FailedParse until more
//     text arrives.
//   - [UndefinedInput]: no text at all; only a [Parser] that has not had
//     Append called reports it (the AI SDK's undefined input).
//
// Values decode as encoding/json decodes into any: map[string]any,
// []any, string, float64 (JavaScript's number), bool and nil. A number
// beyond float64's range decodes to ±Inf, as JSON.parse makes it
// ±Infinity.
//
// # Cost
//
// A [Parser] keeps the text and a small scanner state: fixJson's stack of
// open states, the offset of its last valid byte, where a partial literal
// started, and a strict JSON validator's state (its container stack and
// the state it had at that last valid byte). [Parser.Append] scans only
// the delta, so a whole stream costs O(n) scanning. [Parser.State] costs
// O(depth): it feeds the closers to the validator snapshot instead of
// re-reading the text. [Parser.Repaired] costs O(bytes since the previous
// call + depth): the repaired prefix is copied once, as it grows, into a
// buffer that the returned slice aliases (a string would need a fresh
// O(n) copy per call, so Repaired returns a []byte valid until the next
// call, like bufio.Scanner.Bytes; [Repair] returns a string). [Parser.Value] decodes the text
// and so costs O(n) per call; call it when the value is needed, not on
// every delta, if the stream is long.
//
// [Parse] and [Repair] are the one-shot forms.
//
// # Differences from the AI SDK
//
//   - The text is bytes, not UTF-16. When a delta boundary splits a UTF-8
//     sequence at the end of an open string, the incomplete sequence is
//     left out of the repaired text until its remaining bytes arrive
//     (JavaScript, which receives decoded characters, never sees it).
//     Invalid UTF-8 decodes to U+FFFD, and a lone surrogate escape
//     (\ud800) decodes to U+FFFD where JavaScript keeps the lone
//     surrogate.
//   - The AI SDK parses with secure-json-parse, which rejects objects with
//     a "__proto__" key or a "constructor" key holding a "prototype" key
//     (a JavaScript prototype-pollution guard). Go maps have no
//     prototype, so such texts parse here like any other.
//   - encoding/json refuses nesting deeper than 10000; Value then reports
//     FailedParse while State still reports the state the text has.
//
// A Parser is not safe for concurrent use; distinct Parsers are
// independent. The package keeps no global state.
package partialjson
