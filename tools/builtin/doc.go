// Package builtin holds Mastra's built-in tools and the task-list signal:
//
//   - [AskUserTool] (id "ask_user"): ask the user a question and suspend
//     until the answer comes back as resume data.
//   - [SubmitPlanTool] (id "submit_plan"): submit a plan file for review and
//     suspend until it is approved or rejected.
//   - The task tools "task_write", "task_update", "task_complete" and
//     "task_check" ([TaskTools]): a structured task list kept per memory
//     thread in a [storage.ThreadState] under the type "task".
//   - [TaskStateProcessor] (id "task-state"): a step processor that keeps the
//     model informed about the task list with <current-task-list> snapshots
//     and <task-list-update> deltas.
//   - [TaskSignalProvider] (id "task-signals"): the four task tools and the
//     processor as one agent.Signal, Mastra's TaskSignalProvider.
//   - [WebFetchTool] (id "web_fetch", [NewWebFetchTool]): fetch an http(s)
//     URL as text, SSRF-safe (no private or reserved address in any
//     notation, DNS-rebinding safe, at most 5 checked redirects), HTML as
//     readable text.
//   - [WebSearchTool] (id "web_search"): the model provider's own web
//     search (OpenAI, Anthropic, Google, xAI), resolved for each run's
//     model.
//
// Everything the model sees (tool ids, descriptions, schemas, result texts,
// signal texts) is Mastra 1.71's, byte for byte; testdata/mastra.json holds
// the outputs of the real Mastra that the tests compare against.
//
// The tools and the processor are safe for concurrent use.
package builtin
