// Package stream holds Mastra's stream chunks and their wire forms: the
// chunk envelope {type, runId, from, payload, metadata}, the payloads of
// the tool chunks (tool-call, its streamed input, tool-result, tool-error,
// tool-output, and the approval and suspension chunks) and the text and
// lifecycle chunks around them, data-* chunks, and SSE framing as Mastra's
// server writes it ("data: <json>\n\n", ended by "data: [DONE]\n\n").
//
// Chunks marshal to exactly the keys Mastra emits, in the order a Mastra
// server sends them where that order is known; optional keys are left out
// when unset, as JavaScript leaves out undefined.
package stream
