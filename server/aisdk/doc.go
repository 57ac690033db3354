// Package aisdk connects gomastra agents to Vercel AI SDK front ends: the
// Go counterpart of Mastra's @mastra/ai-sdk (version 1.10.4), wire
// compatible with what it emits.
//
// ChatRoute is the route a useChat front end posts to (Mastra's
// chatRoute): mount it with server.Options.Routes.
//
//	m := mastra.New(mastra.Config{Agents: ...})
//	srv := server.New(m, server.Options{Routes: []server.Route{
//		aisdk.ChatRoute(m, aisdk.ChatRouteOptions{}), // POST /chat/{agentId}
//	}})
//
// and point the front end at it:
//
//	useChat({ transport: new DefaultChatTransport({ api: 'http://localhost:4111/chat/weather-agent' }) })
//
// With ChatRouteOptions.Resumable, mounted with ChatRoutes, an answer
// outlives its request and useChat({resume: true}) reconnects to it after
// a reload, through GET /chat/{agentId}/{chatId}/stream.
//
// The pieces it is made of work without HTTP too:
//
//   - ParseChatRequest reads the body useChat's transport posts ({id,
//     messages, trigger, messageId}) and Mastra's additions (runId,
//     resumeData, memory, requestContext);
//   - ToModelMessages turns the chat's UI messages (text, files,
//     reasoning, the tool parts of earlier turns) into the agent's input;
//   - StreamChat runs the agent, or resumes a suspended run (approvals,
//     suspended tools), and yields the answer as UI message stream parts
//     (Mastra's handleChatStream);
//   - ToUIStream and Converter turn any agent stream (package stream's
//     chunks) into parts (Mastra's toAISdkStream): start, start-step,
//     text-*, reasoning-*, tool-input-start/-delta/-available,
//     tool-output-available/-error/-denied, finish-step, finish, error,
//     and Mastra's data parts: data-tool-call-approval and
//     data-tool-call-suspended, data-tool-agent snapshots of sub-agent runs
//     (whose part id is the sub-agent's run and data.id its agent id,
//     while the tool call says "agent-<key>"), data-tool-workflow
//     snapshots of workflow tools, data-structured-output, and the data-*
//     chunks tools write. Display transforms (package tools/transform)
//     attached to chunks shape what the parts show: a part carries the
//     transformed input, output or error in place of the raw one.
//
// Version V6 adds the AI SDK v6 native approval flow: a
// tool-approval-request part (approval id "<runId>::<toolCallId>"), and
// the client's answer on the tool part resumes the run.
//
// Part types, keys and key order, errorText rendering and SSE framing are
// checked against recordings of the real package (testdata, made by
// testdata/capture/capture.mjs).
package aisdk
