// Package toolsearch is Mastra's tool search (ToolSearchProcessor, id
// "tool-search"): instead of offering a model hundreds of tools at every
// call, a Processor offers two meta-tools, search_tools and load_tool, and
// the tools the model has loaded with them.
//
//   - search_tools({query}) ranks the catalogue with BM25 (Mastra's
//     tokenisation, k1 = 1.5, b = 0.75) over each tool's id and
//     description, adds 5 per query term equal to the tool's id and 2 per
//     term inside it, and returns the best TopK as {name, description (at
//     most 150 UTF-16 code units), score (2 decimals)} with a message.
//   - load_tool({toolName} or {toolNames}) marks tools loaded for the
//     thread; they are offered from the model's next call on, keeping
//     their settings (a tool that requires approval still does).
//
// Loaded tools live per thread in memory with a TTL, or, with
// StorageContext, in the conversation itself. A Filter can hide tools per
// request at search, load and offer time. Everything the model reads
// (descriptions, schemas, messages, result texts) is Mastra 1.71's byte for
// byte; testdata/mastra.json holds what the real Mastra produced and the
// tests compare against it.
//
// Prepare is the per-step hook: given the step's tools and messages it
// returns the system messages to add and the tools to offer, in Mastra's
// order (search_tools, load_tool, the step's tools, the loaded tools).
package toolsearch
