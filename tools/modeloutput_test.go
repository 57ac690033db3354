package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

type lookupIn struct {
	ID string `json:"id"`
}

type lookupOut struct {
	Name string `json:"name"`
}

// Each constructor is a ToModelOutput's whole answer, and gives the
// output shape Mastra's toModelOutput returns.
func TestModelOutputConstructors(t *testing.T) {
	for _, tt := range []struct {
		name string
		fn   func(context.Context, lookupOut) (*model.ToolResultOutput, error)
		want string
	}{
		{"text", func(_ context.Context, o lookupOut) (*model.ToolResultOutput, error) {
			return tools.TextOutput("found " + o.Name)
		},
			`{"type":"text","value":"found Ada"}`},
		{"json", func(_ context.Context, o lookupOut) (*model.ToolResultOutput, error) {
			return tools.JSONOutput(map[string]any{"who": o.Name})
		}, `{"type":"json","value":{"who":"Ada"}}`},
		{"content", func(_ context.Context, o lookupOut) (*model.ToolResultOutput, error) {
			return tools.ContentOutput(model.TextPart(o.Name), model.ImageDataPart([]byte{1, 2}, "image/png"))
		}, `{"type":"content","value":[{"type":"text","text":"Ada"},{"type":"media","data":"AQI=","mediaType":"image/png"}]}`},
		{"error-text", func(context.Context, lookupOut) (*model.ToolResultOutput, error) {
			return tools.ErrorTextOutput("not found")
		},
			`{"type":"error-text","value":"not found"}`},
		{"error-json", func(context.Context, lookupOut) (*model.ToolResultOutput, error) {
			return tools.ErrorJSONOutput(map[string]int{"code": 404})
		}, `{"type":"error-json","value":{"code":404}}`},
	} {
		tool := tools.New(tools.Config[lookupIn, lookupOut]{ID: "lookup", ToModelOutput: tt.fn,
			Execute: func(tools.Context, lookupIn) (lookupOut, error) { return lookupOut{Name: "Ada"}, nil }})
		mo, err := tool.ModelOutput(context.Background(), "lookup", lookupOut{Name: "Ada"}, nil)
		if err != nil || mo == nil {
			t.Fatalf("%s: %v %v", tt.name, mo, err)
		}
		if b, _ := json.Marshal(mo); string(b) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, b, tt.want)
		}
	}
}

func TestJSONOutputRefusesWhatIsNotJSON(t *testing.T) {
	if mo, err := tools.JSONOutput(make(chan int)); err == nil || mo != nil {
		t.Errorf("JSONOutput(chan): %v %v", mo, err)
	}
	if mo, err := tools.ErrorJSONOutput(func() {}); err == nil || mo != nil {
		t.Errorf("ErrorJSONOutput(func): %v %v", mo, err)
	}
}
