// Package model holds the model-facing types gomastra shares with the AI SDK:
// what a language model receives and returns.
//
// # Language models
//
// [LanguageModel] is the AI SDK's LanguageModelV2/V3 in Go: a provider id,
// a model id and Stream, which sends one [Request] (messages, tool
// definitions, tool choice, settings, response format, provider options)
// and yields [StreamPart] values (text, reasoning, tool-input start/delta/
// end, tool calls, provider-executed tool results, sources, files, finish
// with usage, errors). [Collect] drains a stream into a [Response].
// [Message] and [Part] are the AI SDK's ModelMessage and its content parts,
// marshalled exactly as the AI SDK does. Package model/mock is a scripted
// model for tests.
//
// # Embedding models
//
// [EmbeddingModel] is the AI SDK's EmbeddingModel for texts, which Mastra's
// Memory takes as its embedder for semantic recall: Embed turns values
// into one vector each, in their order, in one provider call of at most
// MaxValuesPerCall values; [EmbedMany] splits any number of values into
// such calls, as the AI SDK's embedMany does. [Router.ResolveEmbedding]
// and [Router.Embedder] resolve Mastra's embedder ids
// ("openai/text-embedding-3-small", "google/gemini-embedding-001",
// "ollama/nomic-embed-text") from the registered entries that offer
// embedding models ([Provider].NewEmbedding). [CosineSimilarity] compares
// two vectors. Package model/mock has a deterministic embedder for tests.
//
// # Tool result output
//
// [ToolResultOutput] is the AI SDK's tool result output (ToolResultOutput in
// @ai-sdk/provider-utils v6, LanguageModelV3ToolResultOutput on the provider
// side): the {type, value} envelope a model sees for a tool result, and what a
// tool's toModelOutput returns. The output types are "text", "json",
// "content", "error-text", "error-json" and "execution-denied" (with an
// optional reason). A "content" output carries [ContentPart] values: "text",
// "image-url", "image-data", "image-file-id", "file-url", "file-data",
// "file-id", "custom", and the V2-compatible "media" form.
//
// Both types marshal to exactly the fields the AI SDK defines for their type
// (and unmarshal with the same validation [ParseToolResultOutput] applies), so
// a value survives a JSON round trip unchanged.
//
// [ToolResultOutput.Normalize] applies the normalisation Mastra performs on a
// toModelOutput result before storing it at providerMetadata.mastra.modelOutput:
// "image-data" and "file-data" parts and "image-url" parts whose URL is a
// data: URI become {type: "media", data, mediaType} parts (default media types
// image/jpeg and application/octet-stream); remote URLs, file ids and text are
// kept as they are. [ParseToolResultOutput] validates an arbitrary decoded JSON
// value (from a dynamic tool, a JavaScript client or storage) against the
// allowed shapes and returns it normalised.
//
// Values of these types are plain data: safe for concurrent reads, and every
// method returns a new value rather than modifying its receiver.
package model
