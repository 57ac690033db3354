package tools_test

import (
	"fmt"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// The validation error an agent answers a call with when the model gives
// "_background" to a tool that cannot run in the background.
func ExampleInputValidationError() {
	ve := tools.InputValidationError("weather",
		[]schema.Issue{{Code: "unrecognized_keys", Message: `Unrecognized key: "_background"`}},
		[]byte(`{"city":"Paris","_background":{"disposition":"deferred"}}`))
	fmt.Println(ve.Message)
	// Output:
	// Tool input validation failed for weather. Please fix the following errors and try again:
	// - root: Unrecognized key: "_background"
	//
	// Provided arguments: {
	//   "city": "Paris",
	//   "_background": {
	//     "disposition": "deferred"
	//   }
	// }
}

// A tool eligible for background execution whose calls run in the
// foreground unless the model opts them in.
func ExampleBackgroundConfig() {
	t := tools.New(tools.Config[struct{}, string]{
		ID: "report", Description: "Builds a long report",
		Background: &tools.BackgroundConfig{Enabled: true, DefaultDisposition: tools.DispositionForeground},
		Execute:    func(tools.Context, struct{}) (string, error) { return "report", nil },
	})
	fmt.Println(t.Background().Enabled, t.Background().DefaultDisposition, tools.DispositionAwaited.Valid())
	// Output:
	// true foreground true
}
