// Package processors holds Mastra's memory processors as agent step
// processors (agent.Config.Processors): they run before each model call
// and change only what that call is given, never the run's history or
// what memory keeps.
//
//   - TokenLimiter (Mastra's `new TokenLimiter(limit)`, id
//     "token-limiter") drops the oldest messages of the prompt until it
//     fits a token budget, keeping the system messages and keeping each
//     tool call with its results.
//   - ToolCallFilter (Mastra's `new ToolCallFilter()` and `new
//     ToolCallFilter({exclude})`, id "tool-call-filter") takes the tool
//     calls and results of the conversation's history out of the prompt.
//
// Put the filter first, as Mastra advises: the limiter then counts the
// prompt without the traffic the filter removed.
//
//	a, err := agent.New(agent.Config{ID: "assistant", Model: m, Storage: store,
//		Memory:     &agent.MemoryOptions{LastMessages: 40},
//		Processors: []agent.StepProcessor{processors.NewToolCallFilter(), processors.NewTokenLimiter(8000)},
//	})
//
// Tokens are counted as Mastra 1.71 counts them, with an estimate
// (Estimate, tokenx's); package processors/o200k counts exactly with
// OpenAI's o200k_base tokenizer, its vocabulary embedded.
package processors
