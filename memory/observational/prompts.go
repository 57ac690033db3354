package observational

import (
	_ "embed"
	"strings"
	"time"
)

// The model-facing texts below are Mastra's, byte for byte: each file in
// prompts/ was cut by testdata/gen.mjs from what @mastra/memory 1.31.0's
// own builders return (src/processors/observational-memory), with its
// default extractors (current-task, suggested-response) and no thread
// title, custom instruction or retrieval. The tests compare the prompts
// assembled here with whole prompts the same script captured.

// observerSystemPrompt is buildObserverSystemPrompt(false, undefined,
// false, extractors) (observer-agent.ts): the observer's instructions.
//
//go:embed prompts/observer-system.txt
var observerSystemPrompt string

// reflectorSystemPrompt is buildReflectorSystemPrompt(undefined,
// extractors) (reflector-agent.ts): the reflector's instructions.
//
//go:embed prompts/reflector-system.txt
var reflectorSystemPrompt string

// extractorSections is buildExtractorOutputSections(extractors)
// (extractor.ts), which the reflector's prompt ends with.
//
//go:embed prompts/extractor-sections.txt
var extractorSections string

// contextPrompt is OBSERVATION_CONTEXT_PROMPT, a blank line and
// OBSERVATION_CONTEXT_INSTRUCTIONS (constants.ts): the first system
// message formatObservationsForContext gives the model.
//
//go:embed prompts/context.txt
var contextPrompt string

// continuationHint is OBSERVATION_CONTINUATION_HINT (constants.ts), sent
// in a <system-reminder> user message after the observations.
//
//go:embed prompts/continuation-hint.txt
var continuationHint string

// COMPRESSION_GUIDANCE[1..4] (reflector-agent.ts), the reflector's retry
// levels.
var (
	//go:embed prompts/compression-1.txt
	compression1 string
	//go:embed prompts/compression-2.txt
	compression2 string
	//go:embed prompts/compression-3.txt
	compression3 string
	//go:embed prompts/compression-4.txt
	compression4 string
)

var compressionGuidance = [...]string{"", compression1, compression2, compression3, compression4}

// maxCompressionLevel is Mastra's MAX_COMPRESSION_LEVEL.
const maxCompressionLevel = 4

// observerTaskPrompt is buildObserverTaskPrompt (observer-agent.ts) for a
// thread whose previous observations, current task and suggested response
// are given ("" when none).
func observerTaskPrompt(existing, priorTask, priorSuggested string) string {
	var b strings.Builder
	if existing != "" {
		b.WriteString("## Previous Observations\n\n" + existing + "\n\n---\n\n")
		b.WriteString("Do not repeat these existing observations. Your new observations will be appended to the existing observations.\n\n")
	}
	var prior []string
	if priorTask != "" {
		prior = append(prior, "- prior current-task: "+priorTask)
	}
	if priorSuggested != "" {
		prior = append(prior, "- prior suggested-response: "+priorSuggested)
	}
	if len(prior) > 0 {
		b.WriteString("## Prior Thread Metadata\n\n" + strings.Join(prior, "\n") + "\n\n")
		b.WriteString("Use the prior current-task, suggested-response as continuity hints, then update them based on the new messages.\n\n---\n\n")
	}
	b.WriteString("## Your Task\n\n")
	b.WriteString("Extract new observations from the message history above. Do not repeat observations that are already in the previous observations. Add your new observations in the format specified in your instructions.")
	return b.String()
}

// reflectorPrompt is buildReflectorPrompt (reflector-agent.ts) at a
// compression level, with the default extractors.
func reflectorPrompt(observations string, level int) string {
	p := "## OBSERVATIONS TO REFLECT ON\n\n" + observations + "\n\n---\n\n" +
		"Please analyze these observations and produce a refined, condensed version that will become the assistant's entire memory going forward."
	if level > 0 && level < len(compressionGuidance) {
		p += "\n\n" + compressionGuidance[level]
	}
	return p + "\n\n## Additional Output Sections\n\n" + extractorSections
}

// contextMessages is formatObservationsForContext (observational-memory.ts)
// without retrieval: the system messages that give the model its
// observations, their dates annotated relative to now (dates read in
// loc), and others, the other threads' unobserved messages ("": none).
func contextMessages(observations, others, currentTask, suggested string, now time.Time, loc *time.Location) []string {
	msgs := []string{contextPrompt}
	if others != "" {
		msgs = append(msgs, "The following content is from OTHER conversations different from the current conversation, they're here for reference,  but they're not necessarily your focus:\nSTART_OTHER_CONVERSATIONS_BLOCK\n"+others+"\nEND_OTHER_CONVERSATIONS_BLOCK")
	}
	if chunks := splitContextChunks(addRelativeTime(optimizeForContext(observations), now, loc)); len(chunks) > 0 {
		msgs = append(msgs, "<observations>")
		msgs = append(msgs, chunks...)
	}
	if currentTask != "" {
		msgs = append(msgs, "<current-task>\n"+currentTask+"\n</current-task>")
	}
	if suggested != "" {
		msgs = append(msgs, "<suggested-response>\n"+suggested+"\n</suggested-response>")
	}
	return msgs
}
