package transform_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/tools/transform"
)

// recorder builds transform functions that record their calls.
type recorder struct {
	mu    sync.Mutex
	calls []string
	seen  []transform.Context
}

func (r *recorder) record(name string, tc transform.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, name)
	r.seen = append(r.seen, tc)
}

func (r *recorder) answer(name string, v any) transform.Func {
	return func(_ context.Context, tc transform.Context) (any, bool, error) {
		r.record(name, tc)
		return v, true, nil
	}
}

func (r *recorder) undefined(name string) transform.Func {
	return func(_ context.Context, tc transform.Context) (any, bool, error) {
		r.record(name, tc)
		return nil, false, nil
	}
}

func (r *recorder) throws(name string) transform.Func {
	return func(_ context.Context, tc transform.Context) (any, bool, error) {
		r.record(name, tc)
		return "ignored", true, errors.New("transform failed")
	}
}

func (r *recorder) panics(name string) transform.Func {
	return func(_ context.Context, tc transform.Context) (any, bool, error) {
		r.record(name, tc)
		panic("kaboom")
	}
}

func placeholder(phase string) map[string]any {
	return map[string]any{"message": "Tool " + phase + " payload unavailable"}
}

func transformed(v any) *transform.Result {
	return &transform.Result{Transformed: v, HasTransformed: true}
}

func TestApply(t *testing.T) {
	type setup struct {
		policy *transform.Policy
		tool   *transform.Config
	}
	tests := []struct {
		name      string
		setup     func(r *recorder) setup
		target    transform.Target
		phase     transform.Phase
		want      *transform.Result
		wantCalls []string
		wantWarn  bool
	}{
		// Step 1: nothing configured for the target.
		{
			name:   "no policy, no tool config",
			setup:  func(*recorder) setup { return setup{} },
			target: transform.TargetDisplay, phase: transform.PhaseOutputAvailable,
			want: nil,
		},
		{
			name: "tool configured for the other target only",
			setup: func(r *recorder) setup {
				return setup{tool: &transform.Config{Display: &transform.Phases{Output: r.answer("tool", 1)}}}
			},
			target: transform.TargetTranscript, phase: transform.PhaseOutputAvailable,
			want: nil,
		},
		{
			name: "policy scoped to display, transcript asked, no tool config",
			setup: func(r *recorder) setup {
				return setup{policy: &transform.Policy{TransformToolPayload: r.answer("policy", 1), Targets: []transform.Target{transform.TargetDisplay}}}
			},
			target: transform.TargetTranscript, phase: transform.PhaseInputAvailable,
			want: nil,
		},
		{
			name: "policy with empty non-nil targets covers nothing",
			setup: func(r *recorder) setup {
				return setup{policy: &transform.Policy{TransformToolPayload: r.answer("policy", 1), Targets: []transform.Target{}}}
			},
			target: transform.TargetDisplay, phase: transform.PhaseInputAvailable,
			want: nil,
		},
		{
			name:   "policy without a function covers nothing",
			setup:  func(*recorder) setup { return setup{policy: &transform.Policy{}} },
			target: transform.TargetDisplay, phase: transform.PhaseInputAvailable,
			want: nil,
		},
		// Step 3: configured, but no function for the phase.
		{
			name:   "target configured, no function for phase: placeholder",
			setup:  func(*recorder) setup { return setup{tool: &transform.Config{Display: &transform.Phases{}}} },
			target: transform.TargetDisplay, phase: transform.PhaseOutputAvailable,
			want: transformed(placeholder("output-available")),
		},
		{
			name: "input-delta without a delta function: suppress",
			setup: func(r *recorder) setup {
				return setup{tool: &transform.Config{Display: &transform.Phases{Input: r.answer("input", 1)}}}
			},
			target: transform.TargetDisplay, phase: transform.PhaseInputDelta,
			want: &transform.Result{Suppress: true},
		},
		{
			name:   "placeholder names the phase id",
			setup:  func(*recorder) setup { return setup{tool: &transform.Config{Transcript: &transform.Phases{}}} },
			target: transform.TargetTranscript, phase: transform.PhaseApproval,
			want: transformed(placeholder("approval")),
		},
		{
			name:   "unknown phase gets a placeholder too",
			setup:  func(*recorder) setup { return setup{tool: &transform.Config{Display: &transform.Phases{}}} },
			target: transform.TargetDisplay, phase: "custom-phase",
			want: transformed(placeholder("custom-phase")),
		},
		// Step 4: first answer wins, policy first.
		{
			name: "policy answers, tool not called",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{TransformToolPayload: r.answer("policy", "P")},
					tool:   &transform.Config{Display: &transform.Phases{Output: r.answer("tool", "T")}},
				}
			},
			target: transform.TargetDisplay, phase: transform.PhaseOutputAvailable,
			want: transformed("P"), wantCalls: []string{"policy"},
		},
		{
			name: "policy undefined falls through to tool",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{TransformToolPayload: r.undefined("policy")},
					tool:   &transform.Config{Display: &transform.Phases{Output: r.answer("tool", map[string]any{"name": "Acme"})}},
				}
			},
			target: transform.TargetDisplay, phase: transform.PhaseOutputAvailable,
			want: transformed(map[string]any{"name": "Acme"}), wantCalls: []string{"policy", "tool"},
		},
		{
			name: "nil answer is transformed: null",
			setup: func(r *recorder) setup {
				return setup{policy: &transform.Policy{TransformToolPayload: r.answer("policy", nil)}}
			},
			target: transform.TargetTranscript, phase: transform.PhaseError,
			want: &transform.Result{HasTransformed: true}, wantCalls: []string{"policy"},
		},
		{
			name: "tool only, per phase",
			setup: func(r *recorder) setup {
				return setup{tool: &transform.Config{Transcript: &transform.Phases{
					InputDelta: r.answer("inputDelta", "d"), Input: r.answer("input", "i"), Output: r.answer("output", "o"),
					Error: r.answer("error", "e"), Approval: r.answer("approval", "a"), Suspend: r.answer("suspend", "s"),
					Resume: r.answer("resume", "r"),
				}}}
			},
			target: transform.TargetTranscript, phase: transform.PhaseSuspend,
			want: transformed("s"), wantCalls: []string{"suspend"},
		},
		{
			name: "resume phase served by Resume",
			setup: func(r *recorder) setup {
				return setup{tool: &transform.Config{Display: &transform.Phases{Resume: r.answer("resume", "r")}}}
			},
			target: transform.TargetDisplay, phase: transform.PhaseResume,
			want: transformed("r"), wantCalls: []string{"resume"},
		},
		// Step 6: nobody answered.
		{
			name: "all undefined: placeholder",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{TransformToolPayload: r.undefined("policy")},
					tool:   &transform.Config{Display: &transform.Phases{Input: r.undefined("tool")}},
				}
			},
			target: transform.TargetDisplay, phase: transform.PhaseInputAvailable,
			want: transformed(placeholder("input-available")), wantCalls: []string{"policy", "tool"},
		},
		{
			name: "all undefined on input-delta: suppress",
			setup: func(r *recorder) setup {
				return setup{tool: &transform.Config{Display: &transform.Phases{InputDelta: r.undefined("tool")}}}
			},
			target: transform.TargetDisplay, phase: transform.PhaseInputDelta,
			want: &transform.Result{Suppress: true}, wantCalls: []string{"tool"},
		},
		{
			name: "scoped policy returning undefined fails closed",
			setup: func(r *recorder) setup {
				return setup{policy: &transform.Policy{TransformToolPayload: r.undefined("policy"), Targets: []transform.Target{transform.TargetDisplay}}}
			},
			target: transform.TargetDisplay, phase: transform.PhaseInputAvailable,
			want: transformed(placeholder("input-available")), wantCalls: []string{"policy"},
		},
		// Step 5: a throw stops the search, no raw fallback.
		{
			name: "policy throws: failed placeholder, tool not called",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{TransformToolPayload: r.throws("policy")},
					tool:   &transform.Config{Display: &transform.Phases{Output: r.answer("tool", "T")}},
				}
			},
			target: transform.TargetDisplay, phase: transform.PhaseOutputAvailable,
			want:      &transform.Result{Transformed: placeholder("output-available"), HasTransformed: true, Failed: true},
			wantCalls: []string{"policy"}, wantWarn: true,
		},
		{
			name: "tool throws after policy undefined",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{TransformToolPayload: r.undefined("policy")},
					tool:   &transform.Config{Transcript: &transform.Phases{Error: r.throws("tool")}},
				}
			},
			target: transform.TargetTranscript, phase: transform.PhaseError,
			want:      &transform.Result{Transformed: placeholder("error"), HasTransformed: true, Failed: true},
			wantCalls: []string{"policy", "tool"}, wantWarn: true,
		},
		{
			name: "throw on input-delta: suppress and failed",
			setup: func(r *recorder) setup {
				return setup{tool: &transform.Config{Display: &transform.Phases{InputDelta: r.throws("tool")}}}
			},
			target: transform.TargetDisplay, phase: transform.PhaseInputDelta,
			want: &transform.Result{Suppress: true, Failed: true}, wantCalls: []string{"tool"}, wantWarn: true,
		},
		{
			name: "panic is recovered and counts as a throw",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{TransformToolPayload: r.panics("policy")},
					tool:   &transform.Config{Display: &transform.Phases{Output: r.answer("tool", "T")}},
				}
			},
			target: transform.TargetDisplay, phase: transform.PhaseOutputAvailable,
			want:      &transform.Result{Transformed: placeholder("output-available"), HasTransformed: true, Failed: true},
			wantCalls: []string{"policy"}, wantWarn: true,
		},
		{
			name: "panic on input-delta",
			setup: func(r *recorder) setup {
				return setup{policy: &transform.Policy{TransformToolPayload: r.panics("policy")}}
			},
			target: transform.TargetTranscript, phase: transform.PhaseInputDelta,
			want: &transform.Result{Suppress: true, Failed: true}, wantCalls: []string{"policy"}, wantWarn: true,
		},
		// Targets filter and policy/tool interplay.
		{
			name: "policy scoped to display does not run for transcript; tool does",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{TransformToolPayload: r.answer("policy", "P"), Targets: []transform.Target{transform.TargetDisplay}},
					tool:   &transform.Config{Transcript: &transform.Phases{Approval: r.answer("tool", "T")}},
				}
			},
			target: transform.TargetTranscript, phase: transform.PhaseApproval,
			want: transformed("T"), wantCalls: []string{"tool"},
		},
		{
			name: "policy with both targets listed",
			setup: func(r *recorder) setup {
				return setup{policy: &transform.Policy{TransformToolPayload: r.answer("policy", "P"), Targets: []transform.Target{transform.TargetTranscript, transform.TargetDisplay}}}
			},
			target: transform.TargetTranscript, phase: transform.PhaseSuspend,
			want: transformed("P"), wantCalls: []string{"policy"},
		},
		{
			name: "policy without function, tool configured: tool only",
			setup: func(r *recorder) setup {
				return setup{
					policy: &transform.Policy{Targets: []transform.Target{transform.TargetDisplay}},
					tool:   &transform.Config{Display: &transform.Phases{Input: r.answer("tool", "T")}},
				}
			},
			target: transform.TargetDisplay, phase: transform.PhaseInputAvailable,
			want: transformed("T"), wantCalls: []string{"tool"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			s := tt.setup(r)
			var logs bytes.Buffer
			logger := slog.New(slog.NewJSONHandler(&logs, nil))
			tc := transform.Context{
				Target: tt.target, Phase: tt.phase, ToolName: "lookupCustomer", ToolCallID: "call-1",
				Input: map[string]any{"customerId": "cus_123", "secret": "raw"},
			}
			got := transform.Apply(context.Background(), logger, s.policy, s.tool, tc)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Apply (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCalls, r.calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			for _, seen := range r.seen {
				if diff := cmp.Diff(tc, seen); diff != "" {
					t.Errorf("candidate saw a different context (-want +got):\n%s", diff)
				}
			}
			warned := strings.Contains(logs.String(), "Tool payload transform failed")
			if warned != tt.wantWarn {
				t.Errorf("warned = %v, want %v; logs: %s", warned, tt.wantWarn, logs.String())
			}
		})
	}
}

func TestApplyWarningAttributes(t *testing.T) {
	for _, tt := range []struct {
		name    string
		fn      transform.Func
		wantErr string
	}{
		{"error", func(context.Context, transform.Context) (any, bool, error) {
			return nil, false, errors.New("bad secret")
		}, "bad secret"},
		{"panic", func(context.Context, transform.Context) (any, bool, error) { panic(fmt.Errorf("nil map")) }, "transform function panicked: nil map"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			logger := slog.New(slog.NewJSONHandler(&logs, nil))
			transform.Apply(context.Background(), logger, &transform.Policy{TransformToolPayload: tt.fn}, nil,
				transform.Context{Target: transform.TargetDisplay, Phase: transform.PhaseOutputAvailable, ToolName: "t", ToolCallID: "c"})
			var rec map[string]any
			if err := json.Unmarshal(logs.Bytes(), &rec); err != nil {
				t.Fatalf("log record %q: %v", logs.String(), err)
			}
			want := map[string]any{"level": "WARN", "msg": "Tool payload transform failed", "toolName": "t", "toolCallId": "c",
				"target": "display", "phase": "output-available", "error": tt.wantErr}
			delete(rec, "time")
			if diff := cmp.Diff(want, rec); diff != "" {
				t.Errorf("log record (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApplyNilLoggerAndPanicError(t *testing.T) {
	fn := func(context.Context, transform.Context) (any, bool, error) { panic(42) }
	r := transform.Apply(context.Background(), nil, &transform.Policy{TransformToolPayload: fn}, nil,
		transform.Context{Target: transform.TargetDisplay, Phase: transform.PhaseError})
	want := &transform.Result{Transformed: placeholder("error"), HasTransformed: true, Failed: true}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("Apply with nil logger (-want +got):\n%s", diff)
	}
	var err error = &transform.PanicError{Value: 42}
	if err.Error() != "transform function panicked: 42" {
		t.Errorf("PanicError text = %q", err.Error())
	}
}

func TestApplyPassesContext(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "v")
	var got any
	fn := func(ctx context.Context, _ transform.Context) (any, bool, error) {
		got = ctx.Value(key{})
		return nil, false, nil
	}
	transform.Apply(ctx, nil, &transform.Policy{TransformToolPayload: fn}, nil, transform.Context{Target: transform.TargetDisplay})
	if got != "v" {
		t.Errorf("function got ctx value %v, want v", got)
	}
}

func TestResultJSON(t *testing.T) {
	tests := []struct {
		name string
		in   transform.Result
		want string
	}{
		{"transformed", transform.Result{Transformed: map[string]any{"customerId": "cus_123"}, HasTransformed: true}, `{"transformed":{"customerId":"cus_123"}}`},
		{"transformed null", transform.Result{HasTransformed: true}, `{"transformed":null}`},
		{"transformed false", transform.Result{Transformed: false, HasTransformed: true}, `{"transformed":false}`},
		{"no transformed key", transform.Result{}, `{}`},
		{"Transformed without HasTransformed is not written", transform.Result{Transformed: "x"}, `{}`},
		{"suppress", transform.Result{Suppress: true}, `{"suppress":true}`},
		{"suppress failed", transform.Result{Suppress: true, Failed: true}, `{"suppress":true,"failed":true}`},
		{"placeholder", transform.Result{Transformed: transform.Placeholder(transform.PhaseOutputAvailable), HasTransformed: true},
			`{"transformed":{"message":"Tool output-available payload unavailable"}}`},
		{"failed placeholder", transform.Result{Transformed: transform.Placeholder(transform.PhaseError), HasTransformed: true, Failed: true},
			`{"transformed":{"message":"Tool error payload unavailable"},"failed":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
			var back transform.Result
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			var again []byte
			if again, err = json.Marshal(back); err != nil {
				t.Fatal(err)
			}
			if string(again) != tt.want {
				t.Errorf("round trip: got %s, want %s", again, tt.want)
			}
		})
	}
	if _, err := json.Marshal(transform.Result{Transformed: func() {}, HasTransformed: true}); err == nil {
		t.Error("marshalling an unmarshalable transformed payload succeeded")
	}
}

func TestResultUnmarshal(t *testing.T) {
	tests := []struct {
		in   string
		want transform.Result
	}{
		{`{}`, transform.Result{}},
		{`{"transformed":null}`, transform.Result{HasTransformed: true}},
		{`{"transformed":{"a":1},"failed":true}`, transform.Result{Transformed: map[string]any{"a": 1.0}, HasTransformed: true, Failed: true}},
		{`{"projected":{"a":1}}`, transform.Result{Transformed: map[string]any{"a": 1.0}, HasTransformed: true}},
		{`{"transformed":1,"projected":2}`, transform.Result{Transformed: 1.0, HasTransformed: true}},
		{`{"suppress":true}`, transform.Result{Suppress: true}},
		{`{"suppress":null,"failed":false}`, transform.Result{}},
	}
	for _, tt := range tests {
		var got transform.Result
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
			t.Errorf("Unmarshal(%s): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Unmarshal(%s) (-want +got):\n%s", tt.in, diff)
		}
	}
	for _, bad := range []string{`{"failed":"yes"}`, `[]`, `{"transformed":}`} {
		var got transform.Result
		if err := json.Unmarshal([]byte(bad), &got); err == nil {
			t.Errorf("Unmarshal(%s) succeeded, want an error", bad)
		}
	}
}

func TestApplyAll(t *testing.T) {
	out := map[string]any{"displayName": "Acme", "apiKey": "secret"}
	tc := transform.Context{Phase: transform.PhaseOutputAvailable, ToolName: "lookupCustomer", ToolCallID: "call-1", Output: out}
	var targets []transform.Target
	policy := &transform.Policy{TransformToolPayload: func(_ context.Context, tc transform.Context) (any, bool, error) {
		targets = append(targets, tc.Target)
		if tc.Target == transform.TargetDisplay {
			return map[string]any{"displayName": tc.Output.(map[string]any)["displayName"]}, true, nil
		}
		return nil, false, nil
	}}

	md := transform.ApplyAll(context.Background(), nil, policy, nil, tc)
	if diff := cmp.Diff([]transform.Target{"display", "transcript"}, targets); diff != "" {
		t.Errorf("targets called (-want +got):\n%s", diff)
	}
	b, _ := json.Marshal(md)
	want := `{"display":{"output-available":{"transformed":{"displayName":"Acme"}}},"transcript":{"output-available":{"transformed":{"message":"Tool output-available payload unavailable"}}}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if _, ok := out["apiKey"]; !ok {
		t.Error("raw output was modified")
	}

	if md := transform.ApplyAll(context.Background(), nil, nil, nil, tc); md != nil {
		t.Errorf("ApplyAll without config = %v, want nil", md)
	}

	scoped := &transform.Policy{TransformToolPayload: policy.TransformToolPayload, Targets: []transform.Target{transform.TargetDisplay}}
	md = transform.ApplyAll(context.Background(), nil, scoped, nil, tc)
	if _, ok := md[transform.TargetTranscript]; ok || len(md) != 1 {
		t.Errorf("ApplyAll with a display-only policy = %v, want only display", md)
	}
}

func TestAttachMetadata(t *testing.T) {
	md := transform.Metadata{transform.TargetDisplay: {transform.PhaseOutputAvailable: {Transformed: "x", HasTransformed: true}}}

	meta := map[string]any{"a": 1}
	if got := transform.AttachMetadata(meta, nil); fmt.Sprintf("%p", got) != fmt.Sprintf("%p", meta) {
		t.Error("AttachMetadata with nil metadata did not return the input map")
	}

	got := transform.AttachMetadata(nil, md)
	b, _ := json.Marshal(got)
	if want := `{"mastra":{"toolPayloadTransform":{"display":{"output-available":{"transformed":"x"}}}}}`; string(b) != want {
		t.Errorf("onto nil:\n got  %s\n want %s", b, want)
	}

	// Other keys kept, inputs untouched, existing entries merged (Mastra
	// then writes both target maps).
	existingMastra := map[string]any{
		"modelOutput": map[string]any{"type": "text", "value": "m"},
		"toolPayloadTransform": transform.Metadata{
			transform.TargetDisplay: {
				transform.PhaseInputAvailable:  {Transformed: "in", HasTransformed: true},
				transform.PhaseOutputAvailable: {Transformed: "old", HasTransformed: true},
			},
		},
	}
	meta = map[string]any{"other": true, "mastra": existingMastra}
	got = transform.AttachMetadata(meta, md)
	b, _ = json.Marshal(got)
	want := `{"mastra":{"modelOutput":{"type":"text","value":"m"},"toolPayloadTransform":{"display":{"input-available":{"transformed":"in"},"output-available":{"transformed":"x"}},"transcript":{}}},"other":true}`
	if string(b) != want {
		t.Errorf("merge:\n got  %s\n want %s", b, want)
	}
	if _, ok := existingMastra["toolPayloadTransform"].(transform.Metadata)[transform.TargetTranscript]; ok {
		t.Error("existing metadata was modified")
	}
	if existingMastra["toolPayloadTransform"].(transform.Metadata)[transform.TargetDisplay][transform.PhaseOutputAvailable].Transformed != "old" {
		t.Error("existing metadata entry was overwritten in place")
	}

	// Existing metadata in decoded-JSON form (e.g. loaded from storage).
	var decoded map[string]any
	if err := json.Unmarshal([]byte(`{"mastra":{"toolPayloadTransform":{"transcript":{"error":{"transformed":null,"failed":true}}}}}`), &decoded); err != nil {
		t.Fatal(err)
	}
	got = transform.AttachMetadata(decoded, md)
	b, _ = json.Marshal(got)
	want = `{"mastra":{"toolPayloadTransform":{"display":{"output-available":{"transformed":"x"}},"transcript":{"error":{"transformed":null,"failed":true}}}}}`
	if string(b) != want {
		t.Errorf("merge decoded:\n got  %s\n want %s", b, want)
	}
}

func TestMerge(t *testing.T) {
	a := transform.Metadata{transform.TargetDisplay: {transform.PhaseInputAvailable: {Suppress: true}}}
	if got := transform.Merge(nil, a); !cmp.Equal(got, a) {
		t.Errorf("Merge(nil, a) = %v", got)
	}
	if got := transform.Merge(a, nil); !cmp.Equal(got, a) {
		t.Errorf("Merge(a, nil) = %v", got)
	}
}

func TestLookupAndMetadataFrom(t *testing.T) {
	chunkMeta := transform.AttachMetadata(nil, transform.Metadata{
		transform.TargetDisplay: {transform.PhaseInputAvailable: {Transformed: map[string]any{"customerId": "cus_123"}, HasTransformed: true}},
	})
	r, ok := transform.Lookup(chunkMeta, transform.TargetDisplay, transform.PhaseInputAvailable)
	if !ok || !cmp.Equal(r, transform.Result{Transformed: map[string]any{"customerId": "cus_123"}, HasTransformed: true}) {
		t.Errorf("Lookup = %+v, %v", r, ok)
	}
	if _, ok := transform.Lookup(chunkMeta, transform.TargetTranscript, transform.PhaseInputAvailable); ok {
		t.Error("Lookup found a transcript entry that does not exist")
	}

	// Carry over to provider metadata.
	pm := transform.AttachMetadata(map[string]any{"openai": map[string]any{"id": "x"}}, transform.MetadataFrom(chunkMeta))
	if _, ok := transform.Lookup(pm, transform.TargetDisplay, transform.PhaseInputAvailable); !ok {
		t.Error("entry not carried to provider metadata")
	}
	if md := transform.MetadataFrom(map[string]any{"mastra": "x"}); md != nil {
		t.Errorf("MetadataFrom(non-map) = %v", md)
	}
	if md := transform.MetadataFrom(nil); md != nil {
		t.Errorf("MetadataFrom(nil) = %v", md)
	}

	// Legacy key, decoded JSON.
	var legacy map[string]any
	_ = json.Unmarshal([]byte(`{"mastra":{"toolPayloadProjection":{"display":{"input-available":{"projected":{"customerId":"cus_123"}}}}}}`), &legacy)
	r, ok = transform.Lookup(legacy, transform.TargetDisplay, transform.PhaseInputAvailable)
	if !ok || !cmp.Equal(r, transform.Result{Transformed: map[string]any{"customerId": "cus_123"}, HasTransformed: true}) {
		t.Errorf("legacy Lookup = %+v, %v", r, ok)
	}
	if _, ok := transform.Lookup(nil, transform.TargetDisplay, transform.PhaseInputAvailable); ok {
		t.Error("Lookup(nil) found something")
	}
}

func TestSelectPolicy(t *testing.T) {
	call, agent, instance := &transform.Policy{}, &transform.Policy{}, &transform.Policy{}
	tests := []struct {
		name                  string
		call, agent, instance *transform.Policy
		want                  *transform.Policy
	}{
		{"call wins", call, agent, instance, call},
		{"agent next", nil, agent, instance, agent},
		{"instance last", nil, nil, instance, instance},
		{"none", nil, nil, nil, nil},
	}
	for _, tt := range tests {
		if got := transform.SelectPolicy(tt.call, tt.agent, tt.instance); got != tt.want {
			t.Errorf("%s: got %p, want %p", tt.name, got, tt.want)
		}
	}
}

func TestPolicyCovers(t *testing.T) {
	fn := func(context.Context, transform.Context) (any, bool, error) { return nil, false, nil }
	tests := []struct {
		name   string
		p      *transform.Policy
		target transform.Target
		want   bool
	}{
		{"nil policy", nil, transform.TargetDisplay, false},
		{"no function", &transform.Policy{}, transform.TargetDisplay, false},
		{"nil targets = all", &transform.Policy{TransformToolPayload: fn}, transform.TargetTranscript, true},
		{"empty targets = none", &transform.Policy{TransformToolPayload: fn, Targets: []transform.Target{}}, transform.TargetDisplay, false},
		{"listed", &transform.Policy{TransformToolPayload: fn, Targets: []transform.Target{"transcript"}}, transform.TargetTranscript, true},
		{"not listed", &transform.Policy{TransformToolPayload: fn, Targets: []transform.Target{"transcript"}}, transform.TargetDisplay, false},
	}
	for _, tt := range tests {
		if got := tt.p.Covers(tt.target); got != tt.want {
			t.Errorf("%s: Covers = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPhasesFor(t *testing.T) {
	r := &recorder{}
	p := &transform.Phases{
		InputDelta: r.answer("inputDelta", nil), Input: r.answer("input", nil), Output: r.answer("output", nil),
		Error: r.answer("error", nil), Approval: r.answer("approval", nil), Suspend: r.answer("suspend", nil), Resume: r.answer("resume", nil),
	}
	for _, phase := range []transform.Phase{"input-delta", "input-available", "output-available", "error", "approval", "suspend", "resume"} {
		fn := p.For(phase)
		if fn == nil {
			t.Fatalf("For(%s) = nil", phase)
		}
		_, _, _ = fn(context.Background(), transform.Context{})
	}
	want := []string{"inputDelta", "input", "output", "error", "approval", "suspend", "resume"}
	if diff := cmp.Diff(want, r.calls); diff != "" {
		t.Errorf("phase → key mapping (-want +got):\n%s", diff)
	}
	if (*transform.Phases)(nil).For(transform.PhaseError) != nil || p.For("nope") != nil {
		t.Error("For on nil config or unknown phase returned a function")
	}
	if (*transform.Config)(nil).For(transform.TargetDisplay) != nil || (&transform.Config{Display: p}).For("other") != nil {
		t.Error("Config.For on nil config or unknown target returned a config")
	}
}

func TestApplyConcurrent(t *testing.T) {
	policy := &transform.Policy{TransformToolPayload: func(_ context.Context, tc transform.Context) (any, bool, error) {
		if tc.ToolCallID == "panic" {
			panic("boom")
		}
		return tc.ToolCallID, true, nil
	}}
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprint(i)
			if i%4 == 0 {
				id = "panic"
			}
			md := transform.ApplyAll(context.Background(), slog.New(slog.DiscardHandler), policy, nil,
				transform.Context{Phase: transform.PhaseInputAvailable, ToolCallID: id})
			r := md[transform.TargetDisplay][transform.PhaseInputAvailable]
			if id == "panic" {
				if !r.Failed {
					t.Errorf("call %d: want failed, got %+v", i, r)
				}
			} else if r.Transformed != id {
				t.Errorf("call %d: transformed = %v", i, r.Transformed)
			}
		}()
	}
	wg.Wait()
}
