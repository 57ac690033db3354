// Package tools defines tools the way Mastra's createTool does, and runs
// their calls exactly as Mastra's tool wrapper does.
//
// A tool is built once, with [New] (typed: the input and output schemas
// come from the Go types), [NewDynamic] (JSON Schema values, for MCP and
// client tools) or [Build] (New returning an error), and is then an
// immutable *[Tool], safe for concurrent use: the one runtime shape every
// kind of tool takes. Agents get tools by name through a [Set], whose keys
// are the model-facing names.
//
// [Tool.Execute] runs one call from its raw JSON arguments. What it
// validates (input, request context, resume data, suspend payload, output)
// and in which order is documented on it. Invalid data is returned as a
// *[ValidationError] result, never as a Go error; a Go error is a tool
// error (what Execute returned, a recovered panic, malformed arguments, a
// client tool, a cancelled context), which an agent reports to the model
// before going on.
//
// Execute receives a [Context]: a context.Context (cancellation is Mastra's
// abortSignal, the OpenTelemetry span its tracing context) plus the call's
// facts: tool-call id, request context, writer, Suspend and resume data,
// agent and workflow info, the registry.
//
// Each execution is an OpenTelemetry span when a tracer is configured
// (Invocation.Tracer or the global provider); nothing is exported by
// default.
package tools

// Set is a tool record: model-facing name (Mastra's record key) to tool.
type Set map[string]*Tool
