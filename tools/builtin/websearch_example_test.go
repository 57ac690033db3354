package builtin_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// An agent with WebSearchTool offers the model its provider's own search.
func ExampleWebSearchTool() {
	m := mock.New(mock.Step{Text: "It is sunny in Lisbon."}).WithID("anthropic.messages", "claude-sonnet-4-5")
	a, _ := agent.New(agent.Config{
		ID: "searcher", Instructions: "Search the web when you need to.", Model: m,
		Tools: tools.Set{"webSearch": builtin.WebSearchTool},
	})
	out, err := a.Generate(context.Background(), "Weather in Lisbon?")
	if err != nil {
		panic(err)
	}
	def := m.Calls()[0].Tools[0]
	fmt.Println(def.Type, def.ID, def.Name)
	fmt.Println(out.Text)
	// Output:
	// provider-defined anthropic.web_search_20250305 web_search
	// It is sunny in Lisbon.
}

func ExampleWebSearchProviderTool() {
	pt, _ := builtin.WebSearchProviderTool("google.generative-ai", "gemini-2.5-flash")
	fmt.Println(pt.ID, pt.Name)

	_, err := builtin.WebSearchProviderTool("groq.chat", "llama-3")
	var re *agent.RunError
	if errors.As(err, &re) {
		fmt.Println(re.ID)
		fmt.Println(re.Message)
	}
	// Output:
	// google.google_search google_search
	// WEB_SEARCH_UNSUPPORTED_PROVIDER
	// The built-in webSearchTool supports OpenAI, Anthropic, Google, and xAI models. Could not infer a supported provider from "groq".
}
