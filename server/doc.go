// Package server serves Mastra's HTTP API over a [mastra.Mastra] registry,
// so that Mastra's own JavaScript client (@mastra/client-js) and CLI
// (mastra api ...) work against a Go program unchanged: same routes, same
// request bodies, same JSON and SSE shapes, same error answers.
//
//	h := server.New(m, server.Options{})           // an http.Handler
//	err := server.Serve(ctx, m, server.ServeOptions{}) // or listen on 127.0.0.1:4111
//
// # Routes
//
// Under the API prefix (default "/api"):
//
//	GET  /tools                                     {key: SerializedTool}
//	GET  /tools/:toolId                             SerializedTool; 404 {"error":"Tool not found"}
//	POST /tools/:toolId/execute?runId=              {data, requestContext?} → the tool's raw result
//	GET  /agents                                    {agentId: agent}
//	GET  /agents/:agentId                           agent (name, instructions, tools, provider, modelId, ...)
//	GET  /agents/:agentId/tools/:toolId             SerializedTool (the agent's own tools, by tool id)
//	POST /agents/:agentId/tools/:toolId/execute     {data, requestContext?} → raw result
//	POST /agents/:agentId/generate                  run body → Mastra's FullOutput
//	POST /agents/:agentId/stream                    run body → SSE
//	POST /agents/:agentId/resume-stream             {runId, resumeData, toolCallId?, ...} → SSE
//	POST /agents/:agentId/approve-tool-call         {runId, toolCallId, requestContext?} → SSE
//	POST /agents/:agentId/decline-tool-call         {runId, toolCallId, reason?, ...} → SSE
//	POST /agents/:agentId/approve-tool-call-generate   → FullOutput
//	POST /agents/:agentId/decline-tool-call-generate   → FullOutput
//	POST /agents/:agentId/send-tool-approval        {resourceId, threadId, toolCallId, approved} → {accepted, runId, toolCallId}
//	GET  /agents/:agentId/suspended-runs            ?threadId&resourceId&fromDate&toDate&perPage&page → {runs, total}
//	GET  /workflows                                 {key: workflow}
//	GET  /workflows/:workflowId                     name, description, steps, allSteps, stepGraph, schemas
//	POST /workflows/:workflowId/create-run?runId=   {runId}
//	POST /workflows/:workflowId/start-async?runId=  {inputData, initialState?, requestContext?} → result
//	POST /workflows/:workflowId/start?runId=        same, in the background → {message}
//	POST /workflows/:workflowId/stream?runId=       same → chunks ("\x1E" records; SSE if Accept: text/event-stream)
//	POST /workflows/:workflowId/resume-async?runId= {step?, resumeData?, requestContext?} → result
//	POST /workflows/:workflowId/resume?runId=       same, in the background → {message}
//	POST /workflows/:workflowId/resume-stream?runId= same → chunks
//	POST /workflows/:workflowId/observe?runId=&offset= the run's chunks from offset, then live, to its finish
//	GET  /workflows/:workflowId/runs                ?page&perPage&fromDate&toDate&resourceId&status → {runs, total}
//	GET  /workflows/:workflowId/runs/:runId         {runId, workflowName, status, createdAt, updatedAt, result?, ...}
//	POST /workflows/:workflowId/runs/:runId/cancel  {"message":"Workflow run cancelled"}
//	GET  /background-tasks                          ?agentId&status&runId&threadId&resourceId&toolName&fromDate&toDate&dateFilterBy&orderBy&orderDirection&page&perPage → {tasks, total}
//	GET  /background-tasks/stream                   ?agentId&runId&threadId&resourceId → SSE of {type, payload} task events
//	GET  /background-tasks/:backgroundTaskId        the task record (404 "Background task not found")
//	POST /background-tasks/:backgroundTaskId/cancel {"success":true}
//	POST /background-tasks/:backgroundTaskId/resume {resumeData} → {"success":true}
//	GET  /system/api-schema                         the route catalogue (what `mastra api --schema` reads)
//
// plus GET / of the prefix ("Hello to the Mastra API!") and GET /health
// ({"success":true}) outside it, the app's own routes (Options.Routes,
// such as the AI SDK chat route of package aisdk or the MCP routes of
// package mcpserver) and the dev studio (Options.Studio). Anything else
// is Hono's 404 "404 Not Found". Every answer carries Mastra's CORS headers
// (Access-Control-Allow-Origin: *); OPTIONS preflights get 204.
//
// # Bodies and errors
//
// A body that is not JSON, or whose fields have the wrong types, is 400
// {"error":"Invalid request body","issues":[{"field","message"}]} with
// Zod's (and, for unparsable JSON, V8's) messages. Bodies over
// Options.MaxBodyBytes (4.5 MB) are 413 {"error":"Request body too
// large"}. Handler errors are {"error": message} with the status
// mastraerror.HTTPStatus gives the error: a registry error's
// details.status, an agent resume conflict 409, a run or snapshot that
// does not exist 404, invalid workflow input or resume data 400, a
// timeout 504, other failures 500. A handler that panics is answered 500
// {"error":"Internal Server Error"} and logged; the server keeps serving.
//
// Request contexts come from the body's requestContext (POST) or
// ?requestContext=<base64 JSON> (GET). The reserved keys
// mastra__resourceId and mastra__threadId are removed from what clients
// send: a run's memory thread and resource come from its body's memory
// only, and Options.Auth's resource, when it gives one, overrides the
// resource everywhere (a thread or run of another resource is 403).
//
// # Streams
//
// Agent stream routes answer text/event-stream: one "data: <chunk
// JSON>\n\n" frame per chunk (passed through stream.Redact), flushed as it
// comes, then "data: [DONE]\n\n". A run that cannot start is answered as
// a JSON error instead (nothing has been streamed yet). The run's context
// is the request's: a client that disconnects cancels the run.
package server
