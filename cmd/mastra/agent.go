package main

import "github.com/spf13/cobra"

// Agent routes (@mastra/server), as the Mastra CLI's route metadata lists them.
var (
	routeListAgents = apiRoute{method: "GET", path: "/agents", queryParams: []string{"partial"},
		shape: responseShape{kind: "record"}}
	routeGetAgent = apiRoute{method: "GET", path: "/agents/:agentId", queryParams: []string{"status", "versionId"},
		shape: responseShape{kind: "single"}}
	routeGenerate = apiRoute{method: "POST", path: "/agents/:agentId/generate", bodyParams: []string{
		"activeTools", "clientTools", "context", "instructions", "maxSteps", "memory", "messages", "model",
		"modelSettings", "output", "providerOptions", "requestContext", "requireToolApproval", "returnScorerData",
		"runId", "savePerStep", "scorers", "stopWhen", "structuredOutput", "system", "toolChoice", "toolsets",
		"tracingOptions", "untilIdle", "versions"}, hasBody: true, shape: responseShape{kind: "single"}}
)

// addAgentCommands adds `mastra api agent list|get|run`.
//
// run posts the input unchanged to the generate route (so it must carry
// "messages") and prints a digest of the FullOutput: text, structuredOutput,
// usage, toolCalls, toolResults, finishReason, runId, traceId, spanId; with
// --show-tool-errors also toolErrors, the failed tool calls (see
// toolErrors), which the digest otherwise leaves out.
func (b *apiBuilder) addAgentCommands(api *cobra.Command) {
	agent := b.group(api, "agent", "List, inspect, and run agents")
	b.leaf(agent, "list", routeListAgents, actionSpec{description: "List available agents", list: true})
	b.leaf(agent, "get", routeGetAgent, actionSpec{description: "Get agent details"})
	b.leaf(agent, "run", routeGenerate, actionSpec{
		description:    "Run an agent with JSON input",
		input:          inputModeOf(inputRequired),
		toolErrorsFlag: true,
		examples: []example{
			{"Run an agent with a text prompt",
				`mastra api agent run weather-agent '{"messages":"What is the weather in London?"}'`},
			{"Run an agent and persist messages to a thread",
				`mastra api agent run weather-agent '{"messages":"What is the weather in London?","memory":{"thread":"thread_abc123","resource":"user_123"}}'`},
		},
	})
}

// agentRunDigest is the Mastra CLI's reduction of a generate response.
func agentRunDigest(data any) any {
	if !isObject(data) {
		return data
	}
	get := func(k string) any { return property(data, k) }
	out := newObject()
	for _, kv := range []struct {
		key string
		val any
	}{
		{"text", coalesce(get("text"), get("result"), get("output"))},
		{"structuredOutput", coalesce(get("structuredOutput"), get("object"))},
		{"usage", coalesce(get("usage"), get("totalUsage"))},
		{"toolCalls", get("toolCalls")},
		{"toolResults", get("toolResults")},
		{"finishReason", get("finishReason")},
		{"runId", get("runId")},
		{"traceId", get("traceId")},
		{"spanId", get("spanId")},
	} {
		if kv.val != undefined {
			out.set(kv.key, kv.val)
		}
	}
	return out
}
