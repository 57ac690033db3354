package main

import "github.com/spf13/cobra"

// Memory routes (@mastra/server), as the Mastra CLI's route metadata lists them.
var (
	routeListThreads = apiRoute{method: "GET", path: "/memory/threads",
		queryParams: []string{"agentId", "metadata", "orderBy", "page", "perPage", "resourceId"},
		shape:       responseShape{kind: "object-property", listProperty: "threads", paginationProperty: "page"}}
	routeGetThread = apiRoute{method: "GET", path: "/memory/threads/:threadId",
		queryParams: []string{"agentId", "resourceId"}, shape: responseShape{kind: "single"}}
	routeCreateThread = apiRoute{method: "POST", path: "/memory/threads", queryParams: []string{"agentId"},
		bodyParams: []string{"metadata", "resourceId", "threadId", "title"}, hasBody: true,
		shape: responseShape{kind: "single"}}
	routeUpdateThread = apiRoute{method: "PATCH", path: "/memory/threads/:threadId", queryParams: []string{"agentId"},
		bodyParams: []string{"metadata", "resourceId", "title"}, hasBody: true, shape: responseShape{kind: "single"}}
	routeDeleteThread = apiRoute{method: "DELETE", path: "/memory/threads/:threadId",
		queryParams: []string{"agentId", "resourceId"}, shape: responseShape{kind: "single"}}
	routeListMessages = apiRoute{method: "GET", path: "/memory/threads/:threadId/messages",
		queryParams: []string{"agentId", "filter", "include", "includeSystemReminders", "orderBy", "page", "perPage", "resourceId"},
		shape:       responseShape{kind: "object-property", listProperty: "messages", paginationProperty: "page"}}
	routeSearchMemory = apiRoute{method: "GET", path: "/memory/search",
		queryParams: []string{"agentId", "limit", "memoryConfig", "resourceId", "searchQuery", "threadId"},
		shape:       responseShape{kind: "single"}}
	routeGetWorkingMemory = apiRoute{method: "GET", path: "/memory/threads/:threadId/working-memory",
		queryParams: []string{"agentId", "memoryConfig", "resourceId"}, shape: responseShape{kind: "single"}}
	routeUpdateWorkingMemory = apiRoute{method: "POST", path: "/memory/threads/:threadId/working-memory",
		queryParams: []string{"agentId"}, bodyParams: []string{"memoryConfig", "resourceId", "workingMemory"},
		hasBody: true, shape: responseShape{kind: "single"}}
	routeMemoryStatus = apiRoute{method: "GET", path: "/memory/status",
		queryParams: []string{"agentId", "resourceId", "threadId"}, shape: responseShape{kind: "single"}}
)

// addThreadCommands adds `mastra api thread list|get|create|update|delete|messages`.
//
// The routes pick their memory by the agentId query parameter: create,
// update and delete send agentId (and delete resourceId) in the query and
// the rest of the input in the body; list and messages send all their
// input as query parameters (objects such as orderBy and metadata as JSON
// text). get takes no input, so it asks without an agentId.
func (b *apiBuilder) addThreadCommands(api *cobra.Command) {
	thread := b.group(api, "thread", "Manage memory threads and messages")
	b.leaf(thread, "list", routeListThreads, actionSpec{description: "List memory threads", list: true})
	b.leaf(thread, "get", routeGetThread, actionSpec{description: "Get thread details"})
	b.leaf(thread, "create", routeCreateThread, actionSpec{
		description: "Create a memory thread",
		input:       inputModeOf(inputRequired),
		examples: []example{{"Create a memory thread",
			`mastra api thread create '{"agentId":"weather-agent","resourceId":"user_123","threadId":"thread_abc123","title":"Support conversation"}'`}},
	})
	b.leaf(thread, "update", routeUpdateThread, actionSpec{
		description: "Update a memory thread",
		input:       inputModeOf(inputRequired),
		examples: []example{{"Update a memory thread",
			`mastra api thread update thread_abc123 '{"agentId":"weather-agent","title":"Updated title"}'`}},
	})
	b.leaf(thread, "delete", routeDeleteThread, actionSpec{
		description: "Delete a memory thread",
		input:       inputModeOf(inputRequired),
		examples: []example{{"Delete a memory thread",
			`mastra api thread delete thread_abc123 '{"agentId":"weather-agent","resourceId":"user_123"}'`}},
	})
	b.leaf(thread, "messages", routeListMessages, actionSpec{description: "List messages in a memory thread",
		input: inputModeOf(inputOptional), list: true})
}

// addMemoryCommands adds `mastra api memory search|status` and
// `mastra api memory current get|update` (working memory; the thread is
// the input's threadId, not a positional argument).
func (b *apiBuilder) addMemoryCommands(api *cobra.Command) {
	memory := b.group(api, "memory", "Search and manage agent memory")
	b.leaf(memory, "search", routeSearchMemory, actionSpec{
		description: "Search long-term memory",
		input:       inputModeOf(inputRequired),
		list:        true,
		examples: []example{{"Search long-term memory",
			`mastra api memory search '{"agentId":"weather-agent","resourceId":"user_123","searchQuery":"caching strategy","limit":10}'`}},
	})
	current := b.group(memory, "current", "Read and update working memory")
	b.leaf(current, "get", routeGetWorkingMemory, actionSpec{
		description:         "Get current working memory",
		input:               inputModeOf(inputRequired),
		pathParamsFromInput: []string{"threadId"},
		examples: []example{{"Read current working memory",
			`mastra api memory current get '{"threadId":"thread_abc123","agentId":"code-reviewer"}'`}},
	})
	b.leaf(current, "update", routeUpdateWorkingMemory, actionSpec{
		description:         "Update current working memory",
		input:               inputModeOf(inputRequired),
		pathParamsFromInput: []string{"threadId"},
		examples: []example{{"Update current working memory. Requires working memory to be enabled for the memory instance.",
			`mastra api memory current update '{"threadId":"thread_abc123","agentId":"code-reviewer","workingMemory":"Remember the user prefers concise responses."}'`}},
	})
	b.leaf(memory, "status", routeMemoryStatus, actionSpec{
		description: "Get memory system status",
		input:       inputModeOf(inputRequired),
		examples: []example{
			{"Get memory status for an agent", `mastra api memory status '{"agentId":"weather-agent"}'`},
			{"Get memory status for an agent, resource, and thread",
				`mastra api memory status '{"agentId":"weather-agent","resourceId":"user_123","threadId":"thread_abc123"}'`},
		},
	})
}
