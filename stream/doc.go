// Package stream holds Mastra's stream chunks and their wire forms: the
// chunk envelope {type, runId, from, payload, metadata}, the payloads of
// the tool chunks (spec §4.2) and the text and lifecycle chunks around
// them, data-* chunks, and SSE framing as Mastra's server writes it
// ("data: <json>\n\n", ended by "data: [DONE]\n\n").
//
// Chunks marshal to exactly the keys Mastra emits, in Mastra's order where
// recorded traffic shows it (spec/http/smoke-fullstream.json); optional
// keys are left out when unset, as JavaScript leaves out undefined.
package stream
