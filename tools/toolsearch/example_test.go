package toolsearch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/toolsearch"
)

type cityInput struct {
	City string `json:"city"`
}

// exampleCatalogue is a small catalogue; a real one has hundreds of tools.
func exampleCatalogue() tools.Set {
	mk := func(id, description string, approval bool) *tools.Tool {
		return tools.New(tools.Config[cityInput, string]{
			ID: id, Description: description, RequireApproval: approval,
			Execute: func(_ tools.Context, in cityInput) (string, error) { return id + " for " + in.City, nil },
		})
	}
	return tools.Set{
		"weather":  mk("get_weather", "Get the current weather for a city", false),
		"forecast": mk("get_forecast", "Get a 7-day weather forecast for a city", false),
		"book":     mk("book_hotel", "Book a hotel room in a city", true),
	}
}

// call runs a prepared tool the way an agent would and prints its result.
func call(prep *toolsearch.Prepared, name, args string) {
	for _, nt := range prep.Tools {
		if nt.Name == name {
			res, err := nt.Tool.Execute(context.Background(), json.RawMessage(args), nil)
			if err != nil {
				fmt.Println("error:", err)
				return
			}
			out, _ := res.JSON()
			fmt.Println(string(out))
			return
		}
	}
	fmt.Println(name, "is not offered")
}

func ExampleNew() {
	p, err := toolsearch.New(toolsearch.Options{
		Tools:  exampleCatalogue(),
		Search: toolsearch.SearchOptions{TopK: 2},
		TTL:    30 * time.Minute,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.ID())
	// Output: tool-search
}

// Prepare runs before each model call: the model searches, loads, and from
// its next call on is offered what it loaded.
func ExampleProcessor_Prepare() {
	p, _ := toolsearch.New(toolsearch.Options{Tools: exampleCatalogue()})
	ctx := context.Background()
	step := toolsearch.Step{ThreadID: "thread-1"}

	prep, _ := p.Prepare(ctx, step)
	for _, nt := range prep.Tools {
		fmt.Println("offered:", nt.Name)
	}
	fmt.Println("system:", prep.System[0])
	call(prep, "search_tools", `{"query":"weather forecast"}`)
	call(prep, "load_tool", `{"toolName":"get_forecast"}`)
	call(prep, "get_forecast", `{"city":"Paris"}`)

	prep, _ = p.Prepare(ctx, step) // the next model call
	call(prep, "get_forecast", `{"city":"Paris"}`)
	// Output:
	// offered: search_tools
	// offered: load_tool
	// system: To discover available tools, call search_tools with a keyword query. To add one or more tools to the conversation, call load_tool with a toolName or toolNames array. Tools must be loaded before they can be used.
	// {"results":[{"name":"get_forecast","description":"Get a 7-day weather forecast for a city","score":3.84},{"name":"get_weather","description":"Get the current weather for a city","score":2.66}],"message":"Found 2 tool(s). Use load_tool with an exact toolName or a toolNames array to make them available."}
	// {"success":true,"message":"Tool \"get_forecast\" loaded successfully. It will be available on your next turn.","toolName":"get_forecast"}
	// get_forecast is not offered
	// "get_forecast for Paris"
}

// With AutoLoad, search results are loaded at once and there is no
// load_tool.
func ExampleSearchOptions_autoLoad() {
	p, _ := toolsearch.New(toolsearch.Options{
		Tools:  exampleCatalogue(),
		Search: toolsearch.SearchOptions{TopK: 1, AutoLoad: true},
	})
	prep, _ := p.Prepare(context.Background(), toolsearch.Step{})
	call(prep, "search_tools", `{"query":"hotel"}`)
	prep, _ = p.Prepare(context.Background(), toolsearch.Step{})
	for _, nt := range prep.Tools {
		fmt.Println("offered:", nt.Name, "requires approval:", nt.Tool.RequireApproval())
	}
	// Output:
	// {"results":[{"name":"book_hotel","description":"Book a hotel room in a city","score":3.44}],"message":"Found and loaded 1 tool(s): book_hotel. They are available on your next turn — call them directly."}
	// offered: search_tools requires approval: false
	// offered: book_hotel requires approval: true
}

// A filter hides tools per request: here, booking for guests.
func ExampleOptions_filter() {
	p, _ := toolsearch.New(toolsearch.Options{
		Tools: exampleCatalogue(),
		Filter: func(a toolsearch.FilterArgs) error {
			if role, _ := a.RequestContext.Get("role"); role == "guest" && a.ToolName == "book_hotel" {
				return errors.New("guests cannot book")
			}
			return nil
		},
	})
	rc := tools.NewRequestContext(map[string]any{"role": "guest"})
	prep, _ := p.Prepare(context.Background(), toolsearch.Step{RequestContext: rc})
	call(prep, "load_tool", `{"toolNames":["book_hotel","get_weather"]}`)
	// Output:
	// {"success":false,"message":"Loaded: get_weather — available on your next turn | Not found: book_hotel","loadedCount":1,"loaded":["get_weather"],"notFound":["book_hotel"]}
}

// LoadedTools gives a resumed run (a call that waited for approval) the
// loaded tools without a new Prepare.
func ExampleProcessor_LoadedTools() {
	p, _ := toolsearch.New(toolsearch.Options{Tools: exampleCatalogue()})
	step := toolsearch.Step{ThreadID: "thread-1"}
	prep, _ := p.Prepare(context.Background(), step)
	call(prep, "load_tool", `{"toolName":"book"}`)
	loaded, _ := p.LoadedTools(context.Background(), step)
	for _, nt := range loaded {
		fmt.Println(nt.Name, nt.Tool.ID(), nt.Tool.RequireApproval())
	}
	// Output:
	// {"success":true,"message":"Tool \"book\" loaded successfully. It will be available on your next turn.","toolName":"book"}
	// book book_hotel true
}

// The in-memory store can be inspected and cleared.
func ExampleProcessor_StateStats() {
	p, _ := toolsearch.New(toolsearch.Options{Tools: exampleCatalogue()})
	for _, thread := range []string{"a", "b", ""} {
		_, _ = p.Prepare(context.Background(), toolsearch.Step{ThreadID: thread})
	}
	fmt.Println(p.StateStats().ThreadCount)
	p.ClearState("a")
	fmt.Println(p.StateStats().ThreadCount)
	p.ClearAllState()
	fmt.Println(p.StateStats().ThreadCount, p.CleanupNow())
	// Output:
	// 3
	// 2
	// 0 0
}
