package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

type AddInput struct {
	A int `json:"a" jsonschema:"the first addend"`
	B int `json:"b" jsonschema:"the second addend"`
}

type AddOutput struct {
	Sum int `json:"sum"`
}

// The guide's simplest tool: schemas come from the Go types.
func ExampleNew() {
	add := tools.New(tools.Config[AddInput, AddOutput]{
		ID:          "add",
		Description: "Add two integers",
		Execute: func(ctx tools.Context, in AddInput) (AddOutput, error) {
			return AddOutput{Sum: in.A + in.B}, nil
		},
	})
	res, err := add.Execute(context.Background(), json.RawMessage(`{"a":1,"b":2}`), nil)
	if err != nil {
		panic(err)
	}
	out, _ := res.JSON()
	fmt.Println(string(out))
	// Output: {"sum":3}
}

// Invalid input is not an error: it is a result the model reads and can
// correct, worded exactly as Mastra words it.
func ExampleTool_Execute_validationError() {
	add := tools.New(tools.Config[AddInput, AddOutput]{
		ID: "add", Description: "Add two integers",
		Execute: func(ctx tools.Context, in AddInput) (AddOutput, error) { return AddOutput{Sum: in.A + in.B}, nil },
	})
	res, _ := add.Execute(context.Background(), json.RawMessage(`{"a":"x","b":3}`), nil)
	fmt.Println(res.ValidationError().Message)
	// Output:
	// Tool input validation failed for add. Please fix the following errors and try again:
	// - a: Invalid input: expected number, received string
	//
	// Provided arguments: {
	//   "a": "x",
	//   "b": 3
	// }
}

// A dynamic tool takes JSON Schema values, as MCP and client tools do; its
// Execute sees decoded JSON.
func ExampleNewDynamic() {
	in, _ := schema.FromJSON([]byte(`{"type":"object","properties":{"city":{"type":"string","minLength":2}},"required":["city"]}`))
	lookup, err := tools.NewDynamic(tools.DynamicConfig{
		ID:          "lookup",
		Description: "Look a city up",
		InputSchema: in,
		Execute: func(ctx tools.Context, input any) (any, error) {
			city := input.(map[string]any)["city"].(string)
			return map[string]any{"city": strings.ToUpper(city)}, nil
		},
	})
	if err != nil {
		panic(err)
	}
	res, _ := lookup.Execute(context.Background(), json.RawMessage(`{"city":"Paris"}`), nil)
	out, _ := res.JSON()
	fmt.Println(string(out))
	res, _ = lookup.Execute(context.Background(), json.RawMessage(`{"city":"P"}`), nil)
	fmt.Println(res.ValidationError().Errors.Field("city").Errors[0])
	// Output:
	// {"city":"PARIS"}
	// Too small: expected string to have >=2 characters
}

type RefundInput struct {
	OrderID string `json:"orderId"`
	Amount  int    `json:"amount"`
}

type RefundOutput struct {
	Refunded bool   `json:"refunded"`
	Note     string `json:"note,omitempty"`
}

type ManagerQuestion struct {
	Question string `json:"question"`
}

type ManagerAnswer struct {
	Approved bool `json:"approved"`
}

type Caller struct {
	UserID string `json:"userId"`
}

// Every createTool field that has meaning in Go, in one tool.
func ExampleConfig() {
	strict := true
	refund := tools.New(tools.Config[RefundInput, RefundOutput]{
		ID:          "refund",
		Title:       "Refund an order",
		Description: "Refund part or all of an order",
		// Schemas beyond input and output.
		SuspendSchema:        schema.MustFor[ManagerQuestion](),
		ResumeSchema:         schema.MustFor[ManagerAnswer](),
		RequestContextSchema: schema.MustFor[Caller](),
		// Approval: a static flag, or a function that decides per call.
		RequireApproval: false,
		NeedsApproval: func(ctx context.Context, in RefundInput, rc *tools.RequestContext) (bool, error) {
			return in.Amount > 1000, nil
		},
		Strict:           &strict,
		OutputValidation: tools.OutputWarn,
		ProviderOptions:  map[string]map[string]any{"anthropic": {"cacheControl": map[string]any{"type": "ephemeral"}}},
		InputExamples:    []tools.InputExample{{Input: map[string]any{"orderId": "o-1", "amount": 10}}},
		// What the model sees, and what people see.
		ToModelOutput: func(ctx context.Context, out RefundOutput) (*model.ToolResultOutput, error) {
			return tools.TextOutput(fmt.Sprintf("refunded: %v", out.Refunded))
		},
		Transform: &transform.Config{Display: &transform.Phases{
			Output: func(ctx context.Context, tc transform.Context) (any, bool, error) {
				return map[string]any{"summary": "refund processed"}, true, nil
			},
		}},
		// Lifecycle callbacks, called by the agent loop.
		OnInputStart:     func(ctx context.Context, e tools.InputStartEvent) {},
		OnInputDelta:     func(ctx context.Context, e tools.InputDeltaEvent) {},
		OnInputAvailable: func(ctx context.Context, e tools.InputAvailableEvent[RefundInput]) {},
		OnOutput:         func(ctx context.Context, e tools.OutputEvent) {},
		MCP:              &tools.MCPOptions{Annotations: &tools.MCPAnnotations{Title: "Refund", DestructiveHint: &strict}},
		Execute: func(ctx tools.Context, in RefundInput) (RefundOutput, error) {
			caller, _ := ctx.RequestContext().Get("userId")
			answer, resumed, err := tools.ResumeDataAs[ManagerAnswer](ctx)
			if err != nil {
				return RefundOutput{}, err
			}
			if !resumed && in.Amount > 100 {
				// Wait for a manager; the run resumes with a ManagerAnswer.
				return RefundOutput{}, ctx.Suspend(ManagerQuestion{Question: fmt.Sprintf("refund %d for %v?", in.Amount, caller)})
			}
			if resumed && !answer.Approved {
				return RefundOutput{Note: "declined"}, nil
			}
			return RefundOutput{Refunded: true}, nil
		},
	})

	ctx := context.Background()
	rc := tools.NewRequestContext(map[string]any{"userId": "u-42"})
	args := json.RawMessage(`{"orderId":"o-1","amount":500}`)
	res, _ := refund.Execute(ctx, args, &tools.Invocation{ToolCallID: "call-1", RequestContext: rc})
	fmt.Println("suspended:", res.Suspended(), string(res.Suspension.Payload))

	res, _ = refund.Execute(ctx, args, &tools.Invocation{
		ToolCallID: "call-1", RequestContext: rc, ResumeData: json.RawMessage(`{"approved":true}`),
	})
	out, _ := res.JSON()
	fmt.Println("resumed:", string(out))

	mo, _ := refund.ModelOutput(ctx, "refundTool", res.Output, nil)
	fmt.Println("model sees:", mo.Value)
	needs, _ := refund.NeedsApproval(ctx, map[string]any{"orderId": "o-2", "amount": 5000}, rc)
	fmt.Println("needs approval:", needs)
	// Output:
	// suspended: true {"question":"refund 500 for u-42?"}
	// resumed: {"refunded":true}
	// model sees: refunded: true
	// needs approval: true
}

// Tools stream progress through the context's writer; inside an agent run
// each Write is a tool-output chunk.
func ExampleContext_writer() {
	slow := tools.New(tools.Config[struct{}, AddOutput]{
		ID: "slow",
		Execute: func(ctx tools.Context, _ struct{}) (AddOutput, error) {
			for i := 1; i <= 2; i++ {
				if err := ctx.Writer().Write(map[string]int{"step": i}); err != nil {
					return AddOutput{}, err
				}
			}
			return AddOutput{Sum: 2}, nil
		},
	})
	w := tools.WriterFunc{OnWrite: func(data any) error {
		b, _ := json.Marshal(data)
		fmt.Println("tool-output:", string(b))
		return nil
	}}
	_, _ = slow.Execute(context.Background(), nil, &tools.Invocation{Writer: w})
	// Output:
	// tool-output: {"step":1}
	// tool-output: {"step":2}
}

// A typed request-context key.
func ExampleKey() {
	userID := tools.Key[string]{Name: "userId"}
	rc := tools.NewRequestContext(nil)
	_ = userID.Set(rc, "u-1")
	v, ok := userID.Get(rc)
	fmt.Println(v, ok)
	// Output: u-1 true
}

// The guidance an agent sends for the MCP tools it offers: the
// instructions of the servers that forward them.
func ExampleMCPServerGuidance() {
	search := tools.New(tools.DynamicConfig{ID: "docs_search", Description: "Search the docs",
		MCPMetadata: &tools.MCPMetadata{ServerName: "docs", ServerInstructions: " Cite the page you used. ", ForwardInstructions: true}})
	fmt.Println(tools.MCPServerGuidance([]*tools.Tool{search}))
	// Output:
	// ## Guidance from MCP server "docs"
	//
	// Cite the page you used.
}

// MCPGuidance works from the servers' metadata alone; a server that does
// not forward its instructions adds nothing.
func ExampleMCPGuidance() {
	fmt.Println(tools.MCPGuidance(
		&tools.MCPMetadata{ServerName: "wiki", ServerInstructions: "Prefer recent pages.", ForwardInstructions: true},
		&tools.MCPMetadata{ServerName: "quiet", ServerInstructions: "Not forwarded."},
		&tools.MCPMetadata{ServerName: "docs", ServerInstructions: "Cite the page you used.", ForwardInstructions: true},
	))
	// Output:
	// ## Guidance from MCP server "docs"
	//
	// Cite the page you used.
	//
	// ## Guidance from MCP server "wiki"
	//
	// Prefer recent pages.
}

// IssueList words issues as a tool's validation error lists them.
func ExampleIssueList() {
	fmt.Println(tools.IssueList([]schema.Issue{
		{Path: []string{"city"}, Message: "Invalid input: expected string, received number"},
		{Message: "Unrecognized key: \"x\""},
	}))
	// Output:
	// - city: Invalid input: expected string, received number
	// - root: Unrecognized key: "x"
}
