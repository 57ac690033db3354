package transform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
)

// Target is who a transformed payload is for.
type Target string

// The two targets.
const (
	// TargetDisplay is browser-facing streams and UI message conversion.
	TargetDisplay Target = "display"
	// TargetTranscript is the user-visible persisted transcript and the
	// suspension/approval metadata stored with it.
	TargetTranscript Target = "transcript"
)

// allTargets lists the targets in the order ApplyAll computes them.
var allTargets = [...]Target{TargetDisplay, TargetTranscript}

// Phase is the point of a tool call a payload belongs to.
type Phase string

// The phases, with the chunk that produces each.
const (
	PhaseInputDelta      Phase = "input-delta"      // each tool-call-delta
	PhaseInputAvailable  Phase = "input-available"  // tool-call, and alongside every later phase
	PhaseOutputAvailable Phase = "output-available" // tool-result
	PhaseError           Phase = "error"            // tool-error
	PhaseApproval        Phase = "approval"         // tool-call-approval, tool-output-denied
	PhaseSuspend         Phase = "suspend"          // tool-call-suspended
	PhaseResume          Phase = "resume"           // declared; not emitted by Mastra's runtime
)

// Metadata keys, as Mastra writes them.
const (
	// MastraKey is the namespace key in chunk metadata and provider metadata.
	MastraKey = "mastra"
	// MetadataKey holds the Metadata map under MastraKey.
	MetadataKey = "toolPayloadTransform"
	// LegacyMetadataKey is the key older Mastra versions wrote (with
	// "projected" in place of "transformed"); Lookup still reads it.
	LegacyMetadataKey = "toolPayloadProjection"
)

// Context is what a transform function sees (Mastra's transform ctx). All
// payloads are the raw values; fields a phase does not have are left zero.
type Context struct {
	Target           Target         `json:"target"`
	Phase            Phase          `json:"phase"`
	ToolName         string         `json:"toolName"`
	ToolCallID       string         `json:"toolCallId"`
	Input            any            `json:"input,omitempty"`
	InputTextDelta   string         `json:"inputTextDelta,omitempty"`
	Output           any            `json:"output,omitempty"`
	Error            any            `json:"error,omitempty"`
	SuspendPayload   any            `json:"suspendPayload,omitempty"`
	ResumeData       any            `json:"resumeData,omitempty"`
	ProviderMetadata map[string]any `json:"providerMetadata,omitempty"`
	// Context is free-form caller context passed through untouched.
	Context any `json:"context,omitempty"`
}

// Func transforms one payload. ok == false means "no answer" (Mastra's
// undefined): the next candidate is tried. With ok == true, value is the
// transformed payload, nil meaning JSON null. A returned error or a panic
// counts as a throw: the search stops and the entry is marked failed.
type Func func(ctx context.Context, tc Context) (value any, ok bool, err error)

// Phases is a tool's transform config for one target: one function per
// config key. A nil function means the tool has none for that phase.
type Phases struct {
	InputDelta Func // input-delta
	Input      Func // input-available
	Output     Func // output-available
	Error      Func // error
	Approval   Func // approval
	Suspend    Func // suspend
	Resume     Func // resume
}

// For returns the function serving phase, or nil.
func (p *Phases) For(phase Phase) Func {
	if p == nil {
		return nil
	}
	switch phase {
	case PhaseInputDelta:
		return p.InputDelta
	case PhaseInputAvailable:
		return p.Input
	case PhaseOutputAvailable:
		return p.Output
	case PhaseError:
		return p.Error
	case PhaseApproval:
		return p.Approval
	case PhaseSuspend:
		return p.Suspend
	case PhaseResume:
		return p.Resume
	}
	return nil
}

// Config is a tool's `transform` field. A non-nil target config counts as
// "configured" for that target even when it has no function for a phase
// (that phase then gets the placeholder, or suppression for input-delta).
type Config struct {
	Display    *Phases
	Transcript *Phases
}

// For returns the config for target, or nil.
func (c *Config) For(target Target) *Phases {
	if c == nil {
		return nil
	}
	switch target {
	case TargetDisplay:
		return c.Display
	case TargetTranscript:
		return c.Transcript
	}
	return nil
}

// Policy is a run-, agent- or instance-wide transform policy, applied to
// every tool.
type Policy struct {
	// TransformToolPayload is called first for every phase of every tool
	// for the covered targets. A nil function makes the policy cover no
	// target (but it still takes precedence in SelectPolicy).
	TransformToolPayload Func
	// Targets limits the policy: nil means all targets; otherwise only the
	// listed ones (so an empty non-nil slice means none).
	Targets []Target
}

// Covers reports whether the policy applies to target: it has a function
// and Targets is nil or lists target.
func (p *Policy) Covers(target Target) bool {
	return p != nil && p.TransformToolPayload != nil && (p.Targets == nil || slices.Contains(p.Targets, target))
}

// SelectPolicy returns the policy a run uses: the first non-nil of the
// per-call, agent and instance policies (nil if all are nil). As in Mastra,
// a non-nil policy wins even when it has no function, so a per-call
// &Policy{} switches off the agent's and instance's policies for that call.
func SelectPolicy(call, agent, instance *Policy) *Policy {
	for _, p := range []*Policy{call, agent, instance} {
		if p != nil {
			return p
		}
	}
	return nil
}

// Result is one metadata entry, as attached at
// metadata.mastra.toolPayloadTransform[target][phase].
//
// It marshals to {"transformed"?, "suppress"?, "failed"?} in that order:
// "transformed" is present exactly when HasTransformed is true (with a nil
// Transformed it is null); "suppress" and "failed" only when true.
type Result struct {
	// Transformed is the payload consumers show instead of the raw one.
	Transformed any
	// HasTransformed tells "transformed": null (true, Transformed nil) from
	// no "transformed" key at all (false).
	HasTransformed bool
	// Suppress asks consumers to drop the payload (input deltas).
	Suppress bool
	// Failed marks an entry produced because a transform function failed.
	Failed bool
}

// Value returns Transformed and whether there is one.
func (r Result) Value() (any, bool) { return r.Transformed, r.HasTransformed }

// MarshalJSON implements json.Marshaler.
func (r Result) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	sep := ""
	if r.HasTransformed {
		v, err := json.Marshal(r.Transformed)
		if err != nil {
			return nil, fmt.Errorf("transform: marshal transformed payload: %w", err)
		}
		b.WriteString(`"transformed":`)
		b.Write(v)
		sep = ","
	}
	if r.Suppress {
		b.WriteString(sep + `"suppress":true`)
		sep = ","
	}
	if r.Failed {
		b.WriteString(sep + `"failed":true`)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON implements json.Unmarshaler. A legacy "projected" key is
// read as "transformed" when there is no "transformed" key; "suppress" and
// "failed" must be booleans or null (null reads as false).
func (r *Result) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	var out Result
	raw, ok := m["transformed"]
	if !ok {
		raw, ok = m["projected"]
	}
	if ok {
		out.HasTransformed = true
		if err := json.Unmarshal(raw, &out.Transformed); err != nil {
			return err
		}
	}
	for key, dst := range map[string]*bool{"suppress": &out.Suppress, "failed": &out.Failed} {
		if raw, ok := m[key]; ok {
			var v *bool
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("transform: %q: %w", key, err)
			}
			*dst = v != nil && *v
		}
	}
	*r = out
	return nil
}

// Placeholder returns the payload Mastra shows when a phase has no usable
// transform: {"message": "Tool <phase> payload unavailable"}.
func Placeholder(phase Phase) map[string]any {
	return map[string]any{"message": "Tool " + string(phase) + " payload unavailable"}
}

// fallback is the entry for "no answer" (steps 3 and 6).
func fallback(phase Phase) *Result {
	if phase == PhaseInputDelta {
		return &Result{Suppress: true}
	}
	return &Result{Transformed: Placeholder(phase), HasTransformed: true}
}

// Apply computes the metadata entry for tc.Target and tc.Phase (see the
// package documentation for the algorithm). It returns nil when neither the
// policy covers the target nor the tool has a config for it: no metadata,
// the raw payload is used.
//
// policy and tool may be nil. logger may be nil, in which case failures are
// not logged; otherwise a failing candidate logs the warning "Tool payload
// transform failed" with toolName, toolCallId, target, phase and error.
// A panicking candidate is recovered and treated like one returning an error.
func Apply(ctx context.Context, logger *slog.Logger, policy *Policy, tool *Config, tc Context) *Result {
	policyFn := Func(nil)
	if policy.Covers(tc.Target) {
		policyFn = policy.TransformToolPayload
	}
	toolCfg := tool.For(tc.Target)
	if policyFn == nil && toolCfg == nil {
		return nil
	}
	for _, fn := range []Func{policyFn, toolCfg.For(tc.Phase)} {
		if fn == nil {
			continue
		}
		v, ok, err := call(ctx, fn, tc)
		if err != nil {
			if logger != nil {
				logger.WarnContext(ctx, "Tool payload transform failed",
					slog.String("toolName", tc.ToolName),
					slog.String("toolCallId", tc.ToolCallID),
					slog.String("target", string(tc.Target)),
					slog.String("phase", string(tc.Phase)),
					slog.Any("error", err))
			}
			r := fallback(tc.Phase)
			r.Failed = true
			return r
		}
		if ok {
			return &Result{Transformed: v, HasTransformed: true}
		}
	}
	return fallback(tc.Phase)
}

// PanicError is the error a panicking transform function is reported with.
type PanicError struct {
	Value any // what was passed to panic
}

func (e *PanicError) Error() string { return fmt.Sprintf("transform function panicked: %v", e.Value) }

// call runs fn, turning a panic into a *PanicError.
func call(ctx context.Context, fn Func, tc Context) (v any, ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, ok, err = nil, false, &PanicError{Value: p}
		}
	}()
	v, ok, err = fn(ctx, tc)
	if err != nil {
		return nil, false, err
	}
	return v, ok, nil
}

// Metadata is the value stored at mastra.toolPayloadTransform: target →
// phase → entry.
type Metadata map[Target]map[Phase]Result

// ApplyAll runs Apply for TargetDisplay then TargetTranscript (tc.Target is
// set for each) and returns the entries as {target: {tc.Phase: entry}},
// omitting targets without an entry; nil when there is none.
func ApplyAll(ctx context.Context, logger *slog.Logger, policy *Policy, tool *Config, tc Context) Metadata {
	var md Metadata
	for _, target := range allTargets {
		tc.Target = target
		if r := Apply(ctx, logger, policy, tool, tc); r != nil {
			if md == nil {
				md = Metadata{}
			}
			md[target] = map[Phase]Result{tc.Phase: *r}
		}
	}
	return md
}

// Merge returns existing with next's entries laid over it, as Mastra merges
// metadata: nil existing gives next, nil next gives existing; otherwise the
// result has both a display and a transcript map (possibly empty), each the
// union of the two inputs' phases with next winning. Neither input is
// modified.
func Merge(existing, next Metadata) Metadata {
	if existing == nil {
		return next
	}
	if next == nil {
		return existing
	}
	out := Metadata{}
	for _, target := range allTargets {
		phases := map[Phase]Result{}
		for p, r := range existing[target] {
			phases[p] = r
		}
		for p, r := range next[target] {
			phases[p] = r
		}
		out[target] = phases
	}
	return out
}

// AttachMetadata returns meta with md merged in at
// meta["mastra"]["toolPayloadTransform"] (see Merge), keeping every other
// key of meta and of meta["mastra"]. It works for chunk metadata and for a
// tool invocation's provider metadata alike. With a nil md it returns meta
// itself; otherwise a new map (meta and its "mastra" map are not modified).
// An existing toolPayloadTransform value may be a Metadata or its decoded
// JSON form; an unreadable one is replaced.
func AttachMetadata(meta map[string]any, md Metadata) map[string]any {
	if md == nil {
		return meta
	}
	out := make(map[string]any, len(meta)+1)
	for k, v := range meta {
		out[k] = v
	}
	ns := map[string]any{}
	if old, ok := meta[MastraKey].(map[string]any); ok {
		for k, v := range old {
			ns[k] = v
		}
	}
	existing, _ := asMetadata(ns[MetadataKey])
	ns[MetadataKey] = Merge(existing, md)
	out[MastraKey] = ns
	return out
}

// MetadataFrom returns the Metadata stored in meta at
// mastra.toolPayloadTransform (nil if there is none). Use it to carry a
// chunk's entries over to provider metadata:
// AttachMetadata(providerMetadata, MetadataFrom(chunkMetadata)).
func MetadataFrom(meta map[string]any) Metadata {
	ns, ok := meta[MastraKey].(map[string]any)
	if !ok {
		return nil
	}
	md, _ := asMetadata(ns[MetadataKey])
	return md
}

// Lookup returns the entry for (target, phase) in chunk or provider
// metadata: mastra.toolPayloadTransform[target][phase], else the legacy
// mastra.toolPayloadProjection[target][phase] (whose "projected" reads as
// "transformed").
func Lookup(meta map[string]any, target Target, phase Phase) (Result, bool) {
	ns, ok := meta[MastraKey].(map[string]any)
	if !ok {
		return Result{}, false
	}
	for _, key := range []string{MetadataKey, LegacyMetadataKey} {
		if md, ok := asMetadata(ns[key]); ok {
			if r, ok := md[target][phase]; ok {
				return r, true
			}
		}
	}
	return Result{}, false
}

// asMetadata reads a Metadata value from a typed or decoded-JSON form.
func asMetadata(v any) (Metadata, bool) {
	switch t := v.(type) {
	case nil:
		return nil, false
	case Metadata:
		return t, true
	case map[Target]map[Phase]Result:
		return t, true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var md Metadata
	if err := json.Unmarshal(b, &md); err != nil {
		return nil, false
	}
	return md, true
}
