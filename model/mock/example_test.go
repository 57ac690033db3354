package mock_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// A model that calls a tool, then answers.
func ExampleNew() {
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "weatherTool", Args: `{"location":"Paris"}`, ChunkSize: 8}}},
		mock.Step{Text: "It is sunny in Paris."},
	)
	for range 2 {
		r, err := model.Collect(context.Background(), m, &model.Request{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s %d %q\n", r.FinishReason, len(r.ToolCalls), r.Text)
	}
	// Output:
	// tool-calls 1 ""
	// stop 0 "It is sunny in Paris."
}

// Texts sharing words are similar: a deterministic embedder for
// semantic recall tests.
func ExampleNewEmbedder() {
	e := mock.NewEmbedder(0)
	res, err := model.EmbedMany(context.Background(), e, []string{
		"My favourite food is grilled sardines",
		"The weather in Paris was rainy",
	}, nil)
	if err != nil {
		panic(err)
	}
	query := e.Vector("Which food do I like?")
	for i, v := range res.Vectors {
		fmt.Printf("%d %.2f\n", i, model.CosineSimilarity(query, v))
	}
	// Output:
	// 0 0.18
	// 1 0.00
}
