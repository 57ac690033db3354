// Package transform implements Mastra's tool payload transforms: the
// display and transcript shaping of tool inputs, outputs, errors, approvals
// and suspensions (a tool's `transform` field and the run/agent/instance
// `transform` policy).
//
// A transform never changes what the tool, the model, onOutput hooks or
// application code see: they always get the raw values. It only computes
// metadata, attached to a chunk at metadata.mastra.toolPayloadTransform
// and to a stored tool invocation's providerMetadata at
// mastra.toolPayloadTransform, shaped
//
//	{"display":    {"<phase>": {"transformed"?: …, "suppress"?: true, "failed"?: true}},
//	 "transcript": {"<phase>": {…}}}
//
// which consumers (UI conversion for [TargetDisplay], persisted transcripts
// and suspension metadata for [TargetTranscript]) use instead of the raw
// payload.
//
// # Algorithm
//
// [Apply] computes one (target, phase) entry exactly as Mastra does:
//
//  1. Neither the policy (configured for the target) nor the tool's config
//     for the target exists: no entry (nil); the raw payload is used.
//  2. The candidates are the policy's TransformToolPayload (when the policy
//     covers the target) then the tool's function for the phase.
//  3. No candidate (the target is configured but nothing serves this phase):
//     {"suppress": true} for input-delta, else the placeholder
//     {"transformed": {"message": "Tool <phase> payload unavailable"}},
//     <phase> being the phase id, e.g. "Tool output-available payload
//     unavailable".
//  4. Candidates run in order; the first one that answers (ok == true) wins:
//     {"transformed": value}. A nil value is an answer and yields
//     {"transformed": null}.
//  5. A candidate that returns an error or panics stops the search: a warning
//     is logged and the entry is {"suppress": true, "failed": true} for
//     input-delta, else {"transformed": <placeholder>, "failed": true}. There
//     is never a fallback to the raw payload.
//  6. No candidate answered: as in step 3.
//
// [ApplyAll] does this for both targets (display first) and returns the
// [Metadata] map; [AttachMetadata] merges it into chunk metadata or provider
// metadata; [Lookup] reads an entry back (also from Mastra's legacy
// toolPayloadProjection key).
//
// # Policy selection
//
// A run uses one [Policy]: the per-call one, else the agent's, else the
// Mastra instance's ([SelectPolicy]). A policy whose Targets is nil covers
// both targets; a non-nil Targets covers exactly the targets it lists, so an
// empty, non-nil slice covers none (as a JavaScript empty array does).
//
// # Concurrency
//
// Apply and ApplyAll call the transform functions synchronously on the
// calling goroutine and are safe for concurrent use as long as the functions
// are. Functions receive the raw payloads and must not modify them.
package transform
