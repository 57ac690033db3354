package server

// The inputs of the bad-input sweep (badinput_test.go), route by route:
// for every POST route of the route table, a body it accepts, the status
// of an empty body, and its wrong-typed bodies and queries.

// routeInputs are, for one POST route, a body it accepts (with the
// query it needs), the status of an empty body, and wrong-typed bodies
// with their status.
type routeInputs struct {
	query     string
	valid     string
	emptyCode int
	wrong     []wrongInput
}

// wrongInput is a bad request to a route: target is a query to append
// to the route's path ("?runId=x"; "?" for none), or a whole path
// ("/api/..."; "{n}" in it is a fresh number), or "" for the route's
// path and query; status 0 accepts any 4xx.
type wrongInput struct {
	name, target, body string
	status             int
}

// agentRunWrong are wrong types in the options every agent run route
// reads (Server.runOptions).
var agentRunWrong = []wrongInput{
	{"messages a number", "", `{"messages":5}`, 400},
	{"messages an object", "", `{"messages":{"role":"user"}}`, 400},
	{"message content a number", "", `{"messages":[{"role":"user","content":5}]}`, 400},
	{"message without role", "", `{"messages":[{"content":"hi"}]}`, 400},
	{"maxSteps a string", "", `{"messages":"hi","maxSteps":"3"}`, 400},
	{"maxSteps out of float range", "", `{"messages":"hi","maxSteps":1e400}`, 400},
	{"memory a string", "", `{"messages":"hi","memory":"t1"}`, 400},
	{"memory.thread a number", "", `{"messages":"hi","memory":{"thread":5,"resource":"r"}}`, 400},
	{"memory.resource a number", "", `{"messages":"hi","memory":{"thread":"t","resource":5}}`, 400},
	{"requestContext an array", "", `{"messages":"hi","requestContext":[1]}`, 400},
	{"runId a number", "", `{"messages":"hi","runId":5}`, 400},
	{"instructions a number", "", `{"messages":"hi","instructions":5}`, 400},
	{"context a string", "", `{"messages":"hi","context":"x"}`, 400},
	{"activeTools a string", "", `{"messages":"hi","activeTools":"add"}`, 400},
	{"toolChoice unknown", "", `{"messages":"hi","toolChoice":{"type":"tool"}}`, 400},
	{"requireToolApproval a string", "", `{"messages":"hi","requireToolApproval":"yes"}`, 400},
	{"providerOptions an array", "", `{"messages":"hi","providerOptions":[]}`, 400},
	{"modelSettings wrong field type", "", `{"messages":"hi","modelSettings":{"temperature":"hot"}}`, 400},
	{"clientTools entry a number", "", `{"messages":"hi","clientTools":{"x":5}}`, 400},
	{"clientTools bad schema", "", `{"messages":"hi","clientTools":{"x":{"inputSchema":{"type":5}}}}`, 400},
	{"structuredOutput schema a string", "", `{"messages":"hi","structuredOutput":{"schema":"x"}}`, 400},
	{"structuredOutput errorStrategy unknown", "", `{"messages":"hi","structuredOutput":{"schema":{"type":"object"},"errorStrategy":"explode"}}`, 400},
}

// approvalWrong are wrong bodies of the approve/decline routes.
var approvalWrong = []wrongInput{
	{"runId a number", "", `{"runId":5,"toolCallId":"c"}`, 400},
	{"toolCallId an array", "", `{"runId":"r","toolCallId":[]}`, 400},
	{"empty runId", "", `{"runId":"","toolCallId":"c"}`, 400},
	{"empty toolCallId", "", `{"runId":"r","toolCallId":""}`, 400},
	// The whole body is validated before the run is looked up, as Mastra.
	{"requestContext a string", "", `{"runId":"r","toolCallId":"c","requestContext":"x"}`, 400},
	{"unknown run", "", `{"runId":"nope","toolCallId":"c"}`, 404},
}

// workflowStartWrong are wrong bodies of a start route. Input the
// workflow's schema refuses (a missing inputData too: Mastra checks
// undefined against it) is a 400 where the run is awaited (start-async,
// stream); start, as Mastra's, starts only a run create-run made (404
// for the fresh ids here, once the body is valid).
func workflowStartWrong(route string) []wrongInput {
	badInput := 400
	if route == "start" {
		badInput = 404
	}
	return []wrongInput{
		{"resourceId a number", "", `{"inputData":{"n":1},"resourceId":5}`, 400},
		{"requestContext a number", "", `{"inputData":{"n":1},"requestContext":5}`, 400},
		{"inputData of the wrong type", "/api/workflows/strict/" + route + "?runId=bad-{n}", `{"inputData":{"n":"x"}}`, badInput},
		{"inputData missing", "/api/workflows/strict/" + route + "?runId=bad-{n}", `{}`, badInput},
		{"runId already started", "?runId=w-started", `{"inputData":{"n":1}}`, 409},
	}
}

// workflowResumeWrong are wrong bodies and queries of the resume routes.
var workflowResumeWrong = []wrongInput{
	{"no runId", "?", `{"resumeData":{"ok":true}}`, 400},
	{"empty runId", "?runId=", `{"resumeData":{"ok":true}}`, 400},
	{"runId not percent-encoded", "?runId=%zz", `{"resumeData":{"ok":true}}`, 400},
	{"step a number", "?runId=r-unknown", `{"step":5}`, 400},
	{"step an array of numbers", "?runId=r-unknown", `{"step":[1]}`, 400},
	{"forEachIndex a string", "?runId=r-unknown", `{"forEachIndex":"x"}`, 400},
	{"requestContext an array", "?runId=r-unknown", `{"requestContext":[]}`, 400},
	{"unknown run", "?runId=r-unknown", `{"resumeData":{"ok":true}}`, 404},
}

// postInputs has an entry for every POST route of the route table
// (TestBadInputCoversEveryPostRoute checks it).
var postInputs = map[string]routeInputs{
	"/tools/{toolId}/execute": {valid: `{"data":{"a":1,"b":2}}`, emptyCode: 400, wrong: []wrongInput{
		{"data missing", "", `{"requestContext":{}}`, 400},
		{"data null", "", `{"data":null}`, 400},
		{"data false", "", `{"data":false}`, 400},
		{"data zero", "", `{"data":0}`, 400},
		{"data empty string", "", `{"data":""}`, 400},
		{"requestContext a string", "", `{"data":{"a":1,"b":2},"requestContext":"x"}`, 400},
		{"requestContext an array", "", `{"data":{"a":1,"b":2},"requestContext":[]}`, 400},
	}},
	"/agents/{agentId}/tools/{toolId}/execute": {valid: `{"data":{"a":1,"b":2}}`, emptyCode: 400, wrong: []wrongInput{
		{"data missing", "", `{}`, 400},
		{"data null", "", `{"data":null}`, 400},
		{"requestContext a number", "", `{"data":{"a":1,"b":2},"requestContext":1}`, 400},
	}},
	"/agents/{agentId}/generate": {valid: `{"messages":"hi"}`, emptyCode: 400, wrong: agentRunWrong},
	"/agents/{agentId}/stream":   {valid: `{"messages":"hi"}`, emptyCode: 400, wrong: agentRunWrong},
	"/agents/{agentId}/resume-stream": {valid: `{"runId":"nope"}`, emptyCode: 400, wrong: []wrongInput{
		{"runId a number", "", `{"runId":5}`, 400},
		{"empty runId", "", `{"runId":""}`, 400},
		{"toolCallId a number", "", `{"runId":"r","toolCallId":5}`, 400},
		{"maxSteps a string", "", `{"runId":"r","maxSteps":"x"}`, 400},
		{"unknown run", "", `{"runId":"nope","resumeData":{}}`, 404},
	}},
	"/agents/{agentId}/approve-tool-call":          {valid: `{"runId":"nope","toolCallId":"c"}`, emptyCode: 400, wrong: approvalWrong},
	"/agents/{agentId}/decline-tool-call":          {valid: `{"runId":"nope","toolCallId":"c"}`, emptyCode: 400, wrong: append([]wrongInput{{"reason a number", "", `{"runId":"r","toolCallId":"c","reason":5}`, 400}}, approvalWrong...)},
	"/agents/{agentId}/approve-tool-call-generate": {valid: `{"runId":"nope","toolCallId":"c"}`, emptyCode: 400, wrong: approvalWrong},
	"/agents/{agentId}/decline-tool-call-generate": {valid: `{"runId":"nope","toolCallId":"c"}`, emptyCode: 400, wrong: approvalWrong},
	"/agents/{agentId}/send-tool-approval": {valid: `{"resourceId":"r","threadId":"t","toolCallId":"c","approved":true}`, emptyCode: 400, wrong: []wrongInput{
		{"approved a string", "", `{"resourceId":"r","threadId":"t","toolCallId":"c","approved":"yes"}`, 400},
		{"threadId a number", "", `{"resourceId":"r","threadId":1,"toolCallId":"c","approved":true}`, 400},
		{"resourceId missing", "", `{"threadId":"t","toolCallId":"c","approved":true}`, 400},
		{"no run on the thread", "", `{"resourceId":"r","threadId":"t","toolCallId":"c","approved":true}`, 404},
	}},
	"/agents/{agentId}/observe": {valid: `{"runId":"nope"}`, emptyCode: 400, wrong: []wrongInput{
		{"runId a number", "", `{"runId":5}`, 400},
		{"offset a string", "", `{"runId":"r","offset":"2"}`, 400},
		{"offset negative", "", `{"runId":"r","offset":-1}`, 400},
		{"unknown run", "", `{"runId":"nope"}`, 404},
	}},
	"/agents/{agentId}/threads/abort": {valid: `{"threadId":"t"}`, emptyCode: 400, wrong: []wrongInput{
		{"threadId a number", "", `{"threadId":5}`, 400},
		{"threadId missing", "", `{"resourceId":"r"}`, 400},
		{"threadId empty", "", `{"threadId":""}`, 400},
		{"expectedRunId a number", "", `{"threadId":"t","expectedRunId":1}`, 400},
	}},
	"/workflows/{workflowId}/create-run": {valid: `{}`, emptyCode: 200, wrong: []wrongInput{
		{"resourceId a number", "", `{"resourceId":5}`, 400},
		{"runId an array", "", `{"runId":[]}`, 400},
	}},
	// An empty body has no inputData, which approve-wf's input schema
	// ({n}, its first step's) refuses: Mastra's 400 "Invalid input data:
	// \n- : Invalid input: expected object, received undefined".
	"/workflows/{workflowId}/start-async": {query: "?runId=w-{n}", valid: `{"inputData":{"n":1}}`, emptyCode: 400, wrong: workflowStartWrong("start-async")},
	"/workflows/{workflowId}/start":       {query: "?runId=w-{n}", valid: `{"inputData":{"n":1}}`, emptyCode: 404, wrong: workflowStartWrong("start")},
	"/workflows/{workflowId}/stream": {query: "?runId=w-{n}", valid: `{"inputData":{"n":1}}`, emptyCode: 400, wrong: append(workflowStartWrong("stream"),
		wrongInput{"no runId (Mastra requires it)", "?", `{"inputData":{"n":1}}`, 400})},
	"/workflows/{workflowId}/resume-async":  {query: "?runId=r-unknown", valid: `{"resumeData":{"ok":true}}`, emptyCode: 404, wrong: workflowResumeWrong},
	"/workflows/{workflowId}/resume":        {query: "?runId=r-unknown", valid: `{"resumeData":{"ok":true}}`, emptyCode: 404, wrong: workflowResumeWrong},
	"/workflows/{workflowId}/resume-stream": {query: "?runId=r-unknown", valid: `{"resumeData":{"ok":true}}`, emptyCode: 404, wrong: workflowResumeWrong},
	// observe reads no body (one sent must still be a JSON object).
	"/workflows/{workflowId}/observe": {query: "?runId=r-unknown", valid: `{}`, emptyCode: 404, wrong: []wrongInput{
		{"no runId", "?", `{}`, 400},
		{"empty runId", "?runId=", `{}`, 400},
		{"runId not percent-encoded", "?runId=%zz", `{}`, 400},
		{"offset negative", "?runId=r-unknown&offset=-1", `{}`, 400},
		{"offset a fraction", "?runId=r-unknown&offset=0.5", `{}`, 400},
		{"offset not a number", "?runId=r-unknown&offset=x", `{}`, 400},
		{"offset past 2^53", "?runId=r-unknown&offset=1e300", `{}`, 400},
		{"unknown run", "?runId=r-unknown&offset=3", `{}`, 404},
	}},
	// cancel reads no body (one sent must still be a JSON object).
	"/workflows/{workflowId}/runs/{runId}/cancel": {valid: `{}`, emptyCode: 404, wrong: []wrongInput{
		{"unknown run", "", `{"runId":"w-started"}`, 404},
	}},
	"/memory/threads/{threadId}/working-memory": {query: "?agentId=calc-agent", valid: `{"workingMemory":"# Notes"}`, emptyCode: 400, wrong: []wrongInput{
		{"workingMemory a number", "", `{"workingMemory":5}`, 400},
		{"workingMemory empty", "", `{"workingMemory":""}`, 400},
		{"resourceId a number", "", `{"workingMemory":"x","resourceId":5}`, 400},
		{"no agentId", "?", `{"workingMemory":"x"}`, 400},
		{"unknown agent", "?agentId=nope", `{"workingMemory":"x"}`, 404},
		{"unknown thread", "", `{"workingMemory":"x"}`, 404},
	}},
	"/memory/threads": {query: "?agentId=calc-agent", valid: `{"resourceId":"r1","threadId":"bad-input-thread"}`, emptyCode: 400, wrong: []wrongInput{
		{"resourceId missing", "", `{"title":"x"}`, 400},
		{"resourceId a number", "", `{"resourceId":5}`, 400},
		{"metadata an array", "", `{"resourceId":"r1","metadata":[]}`, 400},
		{"no agentId", "?", `{"resourceId":"r1"}`, 400},
		{"unknown agent", "?agentId=nope", `{"resourceId":"r1"}`, 404},
	}},
	"/memory/save-messages": {query: "?agentId=calc-agent", valid: `{"messages":[]}`, emptyCode: 400, wrong: []wrongInput{
		{"messages missing", "", `{}`, 400},
		{"messages an object", "", `{"messages":{}}`, 400},
		{"a message without its thread", "", `{"messages":[{"role":"user","content":"x"}]}`, 400},
		{"a message of an unknown role", "", `{"messages":[{"threadId":"t","resourceId":"r","role":"nope","content":"x"}]}`, 400},
		{"a bad createdAt", "", `{"messages":[{"threadId":"t","resourceId":"r","role":"user","content":"x","createdAt":"soon"}]}`, 400},
		{"unknown thread", "", `{"messages":[{"threadId":"nope","resourceId":"r","role":"user","content":"x"}]}`, 404},
		{"unknown agent", "?agentId=nope", `{"messages":[]}`, 404},
	}},
	"/memory/messages/delete": {query: "?agentId=calc-agent", valid: `{"messageIds":["nope"]}`, emptyCode: 400, wrong: []wrongInput{
		{"messageIds missing", "", `{}`, 400},
		{"messageIds a number", "", `{"messageIds":5}`, 400},
		{"messageIds holding a number", "", `{"messageIds":["a",5]}`, 400},
		{"no agentId", "?", `{"messageIds":"a"}`, 400},
	}},
	// The sweep's calc-agent keeps no observational memory.
	"/memory/observational-memory/buffer-status": {valid: `{"agentId":"calc-agent","resourceId":"r1"}`, emptyCode: 400, wrong: []wrongInput{
		{"agentId missing", "", `{"resourceId":"r1"}`, 400},
		{"agentId a number", "", `{"agentId":5}`, 400},
		{"resourceId a number", "", `{"agentId":"calc-agent","resourceId":5}`, 400},
		{"threadId an object", "", `{"agentId":"calc-agent","threadId":{}}`, 400},
		{"unknown agent", "", `{"agentId":"nope"}`, 404},
		{"no observational memory", "", `{"agentId":"calc-agent","resourceId":"r1"}`, 400},
	}},
	// The sweep's registry has no background tasks: every task is unknown.
	"/background-tasks/{backgroundTaskId}/cancel": {valid: `{}`, emptyCode: 404, wrong: []wrongInput{
		{"unknown task", "", `{}`, 404},
	}},
	"/background-tasks/{backgroundTaskId}/resume": {valid: `{"resumeData":{"ok":true}}`, emptyCode: 404, wrong: []wrongInput{
		{"unknown task", "", `{"resumeData":1}`, 404},
	}},
}
