package transform_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/tools/transform"
)

// A tool hides its API key from the browser: the display target gets a
// trimmed output, and phases without a function get Mastra's placeholder.
func ExampleApply() {
	tool := &transform.Config{
		Display: &transform.Phases{
			Output: func(_ context.Context, tc transform.Context) (any, bool, error) {
				out := tc.Output.(map[string]any)
				return map[string]any{"displayName": out["displayName"]}, true, nil
			},
		},
	}
	tc := transform.Context{
		Target:     transform.TargetDisplay,
		Phase:      transform.PhaseOutputAvailable,
		ToolName:   "lookupCustomer",
		ToolCallID: "call-1",
		Output:     map[string]any{"displayName": "Acme", "apiKey": "sk-secret"},
	}
	for _, phase := range []transform.Phase{transform.PhaseOutputAvailable, transform.PhaseInputAvailable, transform.PhaseInputDelta} {
		tc.Phase = phase
		r := transform.Apply(context.Background(), nil, nil, tool, tc)
		b, _ := json.Marshal(r)
		fmt.Printf("%s: %s\n", phase, b)
	}

	// The transcript target is not configured: no metadata, raw payload.
	tc.Target = transform.TargetTranscript
	fmt.Println(transform.Apply(context.Background(), nil, nil, tool, tc) == nil)
	// Output:
	// output-available: {"transformed":{"displayName":"Acme"}}
	// input-available: {"transformed":{"message":"Tool input-available payload unavailable"}}
	// input-delta: {"suppress":true}
	// true
}

// A policy runs for every tool before the tool's own functions; a policy
// that answers nothing (ok == false) lets the tool's function decide.
func ExampleApply_policy() {
	policy := &transform.Policy{
		TransformToolPayload: func(_ context.Context, tc transform.Context) (any, bool, error) {
			if tc.ToolName == "readSecrets" {
				return map[string]any{"redacted": true}, true, nil
			}
			return nil, false, nil // undefined: fall through
		},
		Targets: []transform.Target{transform.TargetDisplay},
	}
	tool := &transform.Config{Display: &transform.Phases{
		Input: func(_ context.Context, tc transform.Context) (any, bool, error) {
			return tc.Input, true, nil
		},
	}}
	for _, name := range []string{"readSecrets", "getWeather"} {
		r := transform.Apply(context.Background(), nil, policy, tool, transform.Context{
			Target: transform.TargetDisplay, Phase: transform.PhaseInputAvailable,
			ToolName: name, Input: map[string]any{"city": "Paris"},
		})
		b, _ := json.Marshal(r)
		fmt.Printf("%s: %s\n", name, b)
	}
	// Output:
	// readSecrets: {"transformed":{"redacted":true}}
	// getWeather: {"transformed":{"city":"Paris"}}
}

// A failing transform never falls back to the raw payload.
func ExampleApply_failure() {
	policy := &transform.Policy{TransformToolPayload: func(context.Context, transform.Context) (any, bool, error) {
		return nil, false, fmt.Errorf("redaction service down")
	}}
	r := transform.Apply(context.Background(), nil, policy, nil, transform.Context{
		Target: transform.TargetTranscript, Phase: transform.PhaseError, Error: "db password is hunter2",
	})
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	// Output: {"transformed":{"message":"Tool error payload unavailable"},"failed":true}
}

func ExampleApplyAll() {
	policy := &transform.Policy{TransformToolPayload: func(_ context.Context, tc transform.Context) (any, bool, error) {
		if tc.Target == transform.TargetDisplay {
			return map[string]any{"city": tc.Input.(map[string]any)["city"]}, true, nil
		}
		return nil, false, nil
	}}
	md := transform.ApplyAll(context.Background(), nil, policy, nil, transform.Context{
		Phase: transform.PhaseInputAvailable, ToolName: "getWeather", ToolCallID: "call-1",
		Input: map[string]any{"city": "Paris", "apiKey": "k"},
	})
	b, _ := json.MarshalIndent(md, "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "display": {
	//     "input-available": {
	//       "transformed": {
	//         "city": "Paris"
	//       }
	//     }
	//   },
	//   "transcript": {
	//     "input-available": {
	//       "transformed": {
	//         "message": "Tool input-available payload unavailable"
	//       }
	//     }
	//   }
	// }
}

func ExampleAttachMetadata() {
	chunkMetadata := map[string]any{"mastra": map[string]any{"modelOutput": map[string]any{"type": "text", "value": "ok"}}}
	md := transform.Metadata{
		transform.TargetDisplay: {transform.PhaseOutputAvailable: {Transformed: "shown", HasTransformed: true}},
	}
	b, _ := json.Marshal(transform.AttachMetadata(chunkMetadata, md))
	fmt.Println(string(b))

	r, ok := transform.Lookup(transform.AttachMetadata(chunkMetadata, md), transform.TargetDisplay, transform.PhaseOutputAvailable)
	fmt.Println(r.Transformed, ok)
	// Output:
	// {"mastra":{"modelOutput":{"type":"text","value":"ok"},"toolPayloadTransform":{"display":{"output-available":{"transformed":"shown"}}}}}
	// shown true
}

func ExampleSelectPolicy() {
	instance := &transform.Policy{TransformToolPayload: func(context.Context, transform.Context) (any, bool, error) {
		return "instance", true, nil
	}}
	// A per-call policy without a function switches the instance policy off.
	off := &transform.Policy{}
	fmt.Println(transform.SelectPolicy(nil, nil, instance) == instance)
	fmt.Println(transform.Apply(context.Background(), nil, transform.SelectPolicy(off, nil, instance), nil,
		transform.Context{Target: transform.TargetDisplay, Phase: transform.PhaseInputAvailable}) == nil)
	// Output:
	// true
	// true
}

func ExampleResult_MarshalJSON() {
	for _, r := range []transform.Result{
		{Transformed: nil, HasTransformed: true}, // transform returned nil: "transformed": null
		{},                                       // no "transformed" key
		{Suppress: true, Failed: true},
	} {
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
	}
	// Output:
	// {"transformed":null}
	// {}
	// {"suppress":true,"failed":true}
}
