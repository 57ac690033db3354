package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

type benchAddIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type benchAddOut struct {
	Sum int `json:"sum"`
}

// benchAddTool is the guide's add-style tool: {a, b} ints to {sum}.
var benchAddTool = New(Config[benchAddIn, benchAddOut]{
	ID:          "add",
	Description: "Add two integers",
	Execute: func(_ Context, in benchAddIn) (benchAddOut, error) {
		return benchAddOut{Sum: in.A + in.B}, nil
	},
})

var benchArgs = []byte(`{"a":1,"b":2}`)

// BenchmarkToolExecute measures one call from raw JSON arguments through
// input validation, Execute and output validation to the result's JSON.
func BenchmarkToolExecute(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := benchAddTool.Execute(ctx, benchArgs, nil)
		if err != nil {
			b.Fatal(err)
		}
		out, err := res.JSON()
		if err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSONBaseline is the bare encoding/json work of the same call:
// decode the arguments into the input struct and encode the output.
func BenchmarkJSONBaseline(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var in benchAddIn
		if err := json.Unmarshal(benchArgs, &in); err != nil {
			b.Fatal(err)
		}
		out, err := json.Marshal(benchAddOut{Sum: in.A + in.B})
		if err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolExecuteInvalid measures the slow path: an invalid input
// producing Mastra's ValidationError.
func BenchmarkToolExecuteInvalid(b *testing.B) {
	ctx := context.Background()
	args := []byte(`{"a":"x","b":2}`)
	b.ReportAllocs()
	for b.Loop() {
		res, err := benchAddTool.Execute(ctx, args, nil)
		if err != nil || res.ValidationError() == nil {
			b.Fatal(err)
		}
	}
}

type benchListIn struct {
	List []float64 `json:"list"`
}

// benchListTool takes a list of numbers.
var benchListTool = New(Config[benchListIn, int]{
	ID:          "sum-list",
	Description: "Counts a list",
	Execute:     func(_ Context, in benchListIn) (int, error) { return len(in.List), nil },
})

// BenchmarkToolExecuteHugeInvalid measures the invalid path for 1 MB of
// arguments whose every element is wrong: a list of 250 000 strings where
// numbers are wanted, to Mastra's ValidationError and its JSON.
func BenchmarkToolExecuteHugeInvalid(b *testing.B) {
	ctx := context.Background()
	args := []byte(`{"list":[` + strings.Repeat(`"x",`, 250_000-1) + `"x"]}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		res, err := benchListTool.Execute(ctx, args, nil)
		if err != nil || res.ValidationError() == nil {
			b.Fatal(err)
		}
		if out, err := json.Marshal(res.Output); err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}
}
