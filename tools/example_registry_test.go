package tools_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/tools"
)

// registry is a stand-in registry.
type registry struct{ name string }

func (registry) GetTool(string) (*tools.Tool, error)     { return nil, nil }
func (registry) GetToolByID(string) (*tools.Tool, error) { return nil, nil }

type empty struct{}

// Work started inside a tool call, with any context derived from the
// tool's, finds the registry the call runs in.
func ExampleRegistryFrom() {
	outer := tools.New(tools.Config[empty, string]{
		ID: "outer",
		Execute: func(ctx tools.Context, _ empty) (string, error) {
			derived, cancel := context.WithCancel(ctx)
			defer cancel()
			return tools.RegistryFrom(derived).(registry).name, nil
		},
	})
	res, err := outer.Execute(context.Background(), []byte(`{}`), &tools.Invocation{Mastra: registry{name: "app"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Output, tools.RegistryFrom(context.Background()) == nil)
	// Output:
	// app true
}
