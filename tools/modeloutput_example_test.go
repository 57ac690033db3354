package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

type ChartInput struct {
	Metric string `json:"metric"`
}

type ChartOutput struct {
	Title string `json:"title"`
	PNG   []byte `json:"png"`
}

// ToModelOutput chooses what the model sees of a result; the
// constructors are its whole answer. Here the model gets the chart's
// title and the image, not the raw bytes as JSON.
func ExampleContentOutput() {
	chart := tools.New(tools.Config[ChartInput, ChartOutput]{
		ID: "chart", Description: "Draws a chart of a metric",
		ToModelOutput: func(ctx context.Context, out ChartOutput) (*model.ToolResultOutput, error) {
			return tools.ContentOutput(model.TextPart(out.Title), model.ImageDataPart(out.PNG, "image/png"))
		},
		Execute: func(ctx tools.Context, in ChartInput) (ChartOutput, error) {
			return ChartOutput{Title: in.Metric + " per day", PNG: []byte{0x89, 'P', 'N', 'G'}}, nil
		},
	})
	mo, err := chart.ModelOutput(context.Background(), "chart", ChartOutput{Title: "visits per day", PNG: []byte{0x89, 'P', 'N', 'G'}}, nil)
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(mo)
	fmt.Println(string(b))
	// Output:
	// {"type":"content","value":[{"type":"text","text":"visits per day"},{"type":"media","data":"iVBORw==","mediaType":"image/png"}]}
}

// TextOutput gives the model a sentence instead of the result's JSON.
func ExampleTextOutput() {
	mo, _ := tools.TextOutput("3 orders found")
	b, _ := json.Marshal(mo)
	fmt.Println(string(b))
	// Output:
	// {"type":"text","value":"3 orders found"}
}

// JSONOutput gives the model another JSON value than the result: here
// only the fields it needs.
func ExampleJSONOutput() {
	mo, err := tools.JSONOutput(map[string]any{"total": 42})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(mo)
	fmt.Println(string(b))
	// Output:
	// {"type":"json","value":{"total":42}}
}

// ErrorTextOutput and ErrorJSONOutput tell the model the call failed.
func ExampleErrorTextOutput() {
	mo, _ := tools.ErrorTextOutput("the order does not exist")
	b, _ := json.Marshal(mo)
	fmt.Println(string(b))
	mo, _ = tools.ErrorJSONOutput(map[string]any{"code": "not_found"})
	b, _ = json.Marshal(mo)
	fmt.Println(string(b))
	// Output:
	// {"type":"error-text","value":"the order does not exist"}
	// {"type":"error-json","value":{"code":"not_found"}}
}
