package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/gomastra/mastra/internal/flatjson"
	"github.com/gomastra/mastra/internal/jsonvalue"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools/transform"
)

// Config describes a typed tool: Mastra's createTool options in Go. ID and
// Description are required; everything else is optional.
//
// The input schema is inferred from In and the output schema from Out
// (json and jsonschema struct tags; see package schema) unless InputSchema
// or OutputSchema is set. An Out of interface type (any) has no output
// schema and its output is not validated.
type Config[In, Out any] struct {
	// ID identifies the tool in the registry, the HTTP API, MCP and
	// validation messages. It is not the model-facing name: in an agent
	// that is the key in tools.Set.
	ID string
	// Title is a display name, never sent to the model.
	Title string
	// Description is sent to the model.
	Description string

	// InputSchema overrides the schema inferred from In.
	InputSchema schema.Schema
	// OutputSchema overrides the schema inferred from Out.
	OutputSchema schema.Schema
	// SuspendSchema validates what Execute passes to Suspend and marks the
	// tool suspend-capable.
	SuspendSchema schema.Schema
	// ResumeSchema validates resume data; it is sent with suspension chunks.
	ResumeSchema schema.Schema
	// RequestContextSchema validates the request context before Execute,
	// which then sees the parsed view.
	RequestContextSchema schema.Schema

	// RequireApproval makes every call wait for a person's approval.
	RequireApproval bool
	// Retries is how often an agent run tries a call again when Execute
	// returns an error (as Mastra's step retries; default 0). A call that
	// fails validation, suspends or is cancelled is never tried again;
	// only the last attempt's error reaches the model.
	Retries int
	// NeedsApproval, when set, decides per call and is authoritative over
	// RequireApproval and any run-wide setting.
	NeedsApproval func(ctx context.Context, in In, rc *RequestContext) (bool, error)
	// Strict: true asks providers for strict tool input; false opts the
	// tool out of every provider schema-compat rewrite; nil is neither.
	Strict *bool
	// OutputValidation is OutputStrict (the default: an invalid output is
	// replaced by the ValidationError) or OutputWarn (logged, output kept).
	OutputValidation OutputValidation
	// ProviderOptions travel with the tool definition (e.g. Anthropic
	// cacheControl), keyed by provider.
	ProviderOptions map[string]map[string]any
	// InputExamples are forwarded to providers that support them.
	InputExamples []InputExample

	// ToModelOutput maps a successful result to what the model sees. A nil
	// result means "use the raw result".
	ToModelOutput func(ctx context.Context, out Out) (*model.ToolResultOutput, error)
	// Transform shapes payloads for display and transcripts (never for the
	// model).
	Transform *transform.Config

	// Lifecycle callbacks, called by the agent loop.
	OnInputStart     func(ctx context.Context, e InputStartEvent)
	OnInputDelta     func(ctx context.Context, e InputDeltaEvent)
	OnInputAvailable func(ctx context.Context, e InputAvailableEvent[In])
	OnOutput         func(ctx context.Context, e OutputEvent)

	// Background makes the tool eligible to run as a background task
	// (see BackgroundConfig); nil: it always runs inline.
	Background *BackgroundConfig

	// MCP is passed through when the tool is exposed by an MCP server.
	MCP *MCPOptions
	// MCPMetadata is set on tools an MCP client listed: their server and
	// its instructions (see MCPServerGuidance).
	MCPMetadata *MCPMetadata

	// Execute runs the tool. A tool without Execute is a client tool: the
	// model may call it, and the caller (a browser, a client) runs it.
	// A returned error is a tool error the model sees; return
	// ctx.Suspend(...)'s error to suspend. Panics are recovered.
	Execute func(ctx Context, in In) (Out, error)
}

// DynamicConfig is the Config of a tool whose schemas are JSON Schema
// values known only at run time (MCP tools, client tools): Execute receives
// the validated input as decoded JSON (map[string]any, []any, float64,
// string, bool, nil).
type DynamicConfig = Config[any, any]

// OutputValidation selects what happens when an output fails validation.
type OutputValidation string

const (
	// OutputStrict replaces the output with the ValidationError (default).
	OutputStrict OutputValidation = "strict"
	// OutputWarn logs a warning and keeps the real output.
	OutputWarn OutputValidation = "warn"
)

// InputExample is one example input forwarded to providers.
type InputExample struct {
	Input map[string]any `json:"input"`
}

// MCPOptions are Mastra's `mcp` tool options.
type MCPOptions struct {
	// ToolType is "agent" or "workflow" for tools standing for those.
	ToolType    string          `json:"toolType,omitempty"`
	Annotations *MCPAnnotations `json:"annotations,omitempty"`
	Meta        map[string]any  `json:"_meta,omitempty"`
}

// MCPAnnotations are MCP tool annotations. Unset hints take the MCP
// defaults (readOnly false, destructive true, idempotent false, openWorld
// true); Mastra does not fill them in and neither does this package.
type MCPAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Tool is the one runtime shape of every tool: typed, dynamic, MCP, client,
// agent and workflow tools all are a *Tool. It is immutable and safe for
// concurrent use.
type Tool struct {
	id, title, description string

	input, output, suspend, resume, requestContext schema.Schema
	// resumeJSON renders resume as Mastra sends it (SchemaJSON), once.
	resumeJSON func() string

	requireApproval  bool
	retries          int
	needsApproval    func(ctx context.Context, input any, rc *RequestContext) (bool, error)
	strict           *bool
	outputValidation OutputValidation
	providerOptions  map[string]map[string]any
	inputExamples    []InputExample
	toModelOutput    func(ctx context.Context, out any) (*model.ToolResultOutput, error)
	transform        *transform.Config
	mcp              *MCPOptions
	mcpMetadata      *MCPMetadata
	toolType         string
	spanName         string
	background       *BackgroundConfig
	providerTool     ProviderToolResolver

	onInputStart     func(ctx context.Context, e InputStartEvent)
	onInputDelta     func(ctx context.Context, e InputDeltaEvent)
	onInputAvailable func(ctx context.Context, e InputAvailableEvent[any])
	onOutput         func(ctx context.Context, e OutputEvent)

	modelSchemas modelSchemas

	// run decodes the input, calls Execute and encodes the output; nil for
	// client tools.
	run runFunc
	// decodeIn turns a decoded JSON value into the Go input (boxed), for
	// NeedsApproval and OnInputAvailable.
	decodeIn func(v any) (any, error)
}

// runFunc executes a typed tool. With fast set, raw is known valid and is
// decoded directly; otherwise validated holds the pipeline's output.
type runFunc func(cc *callContext, raw []byte, fast bool, validated any) (out any, outJSON []byte, err error)

// New builds a tool from cfg. It panics if cfg is invalid (no ID, a type
// whose schema cannot be inferred); use [Build] to get an error instead.
func New[In, Out any](cfg Config[In, Out]) *Tool {
	t, err := Build(cfg)
	if err != nil {
		panic(err)
	}
	return t
}

// NewDynamic builds a tool from JSON Schema values: [New] for
// [DynamicConfig], returning an error instead of panicking.
func NewDynamic(cfg DynamicConfig) (*Tool, error) { return Build(cfg) }

// Build is [New] returning an error.
func Build[In, Out any](cfg Config[In, Out]) (*Tool, error) {
	if cfg.ID == "" {
		return nil, fmt.Errorf("tools: a tool needs an ID")
	}
	t := &Tool{
		id: cfg.ID, title: cfg.Title, description: cfg.Description,
		input: cfg.InputSchema, output: cfg.OutputSchema,
		suspend: cfg.SuspendSchema, resume: cfg.ResumeSchema, requestContext: cfg.RequestContextSchema,
		requireApproval:  cfg.RequireApproval,
		retries:          max(cfg.Retries, 0),
		strict:           cfg.Strict,
		outputValidation: cfg.OutputValidation,
		providerOptions:  cfg.ProviderOptions,
		inputExamples:    cfg.InputExamples,
		transform:        cfg.Transform,
		mcp:              cfg.MCP,
		mcpMetadata:      cfg.MCPMetadata,
		background:       cfg.Background.clone(),
		toolType:         "tool",
		spanName:         "execute_tool " + cfg.ID,
		onInputStart:     cfg.OnInputStart,
		onInputDelta:     cfg.OnInputDelta,
	}
	t.resumeJSON = sync.OnceValue(func() string {
		text, _ := SchemaJSON(t.resume)
		return text
	})
	if t.outputValidation == "" {
		t.outputValidation = OutputStrict
	}
	if t.outputValidation != OutputStrict && t.outputValidation != OutputWarn {
		return nil, fmt.Errorf("tools: %s: OutputValidation must be %q or %q, not %q", cfg.ID, OutputStrict, OutputWarn, t.outputValidation)
	}
	if err := t.background.check(); err != nil {
		return nil, fmt.Errorf("tools: %s: Background: %w", cfg.ID, err)
	}
	inType, outType := reflect.TypeFor[In](), reflect.TypeFor[Out]()
	if t.input == nil {
		s, err := inferSchema(inType)
		if err != nil {
			return nil, fmt.Errorf("tools: %s: input schema: %w", cfg.ID, err)
		}
		t.input = s
	}
	if t.output == nil && outType.Kind() != reflect.Interface {
		s, err := inferSchema(outType)
		if err != nil {
			return nil, fmt.Errorf("tools: %s: output schema: %w", cfg.ID, err)
		}
		t.output = s
	}
	dynamicIn := inType.Kind() == reflect.Interface
	t.decodeIn = func(v any) (any, error) { return decodeValue[In](v, dynamicIn) }
	if cfg.NeedsApproval != nil {
		fn := cfg.NeedsApproval
		t.needsApproval = func(ctx context.Context, input any, rc *RequestContext) (bool, error) {
			in, err := decodeValue[In](input, dynamicIn)
			if err != nil {
				return false, err
			}
			return fn(ctx, in, rc)
		}
	}
	if cfg.OnInputAvailable != nil {
		fn := cfg.OnInputAvailable
		t.onInputAvailable = func(ctx context.Context, e InputAvailableEvent[any]) {
			in, err := decodeValue[In](e.Input, dynamicIn)
			if err != nil {
				return
			}
			fn(ctx, InputAvailableEvent[In]{Input: in, ToolCallID: e.ToolCallID, Messages: e.Messages})
		}
	}
	t.onOutput = cfg.OnOutput
	if cfg.ToModelOutput != nil {
		fn := cfg.ToModelOutput
		t.toModelOutput = func(ctx context.Context, out any) (*model.ToolResultOutput, error) {
			o, ok := out.(Out)
			if !ok {
				var err error
				if o, err = decodeValue[Out](out, outType.Kind() == reflect.Interface); err != nil {
					return nil, err
				}
			}
			return fn(ctx, o)
		}
	}
	if cfg.Execute != nil {
		t.run = typedRun(cfg.Execute, dynamicIn)
	}
	return t, nil
}

func inferSchema(t reflect.Type) (schema.Schema, error) {
	if t.Kind() == reflect.Interface {
		return nil, nil
	}
	return schema.ForType(t)
}

// typedRun returns the executor of a typed tool: decode, Execute, encode.
// Flat input and output structs are decoded and encoded by
// internal/flatjson when it can (it agrees with encoding/json byte for
// byte and refuses everything else).
func typedRun[In, Out any](exec func(Context, In) (Out, error), dynamicIn bool) runFunc {
	inCodec := flatjson.For(reflect.TypeFor[In]())
	outCodec := flatjson.For(reflect.TypeFor[Out]())
	return func(cc *callContext, raw []byte, fast bool, validated any) (any, []byte, error) {
		var in In
		var err error
		switch {
		case fast && inCodec != nil && inCodec.Decode(raw, unsafe.Pointer(&in)):
		case fast:
			in = *new(In)
			err = json.Unmarshal(raw, &in)
		default:
			// validated is this call's own decoded value.
			in, err = decodeValue[In](integralNumbers(validated), dynamicIn)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("tools: %s: decoding input: %w", cc.tool.id, err)
		}
		out, err := exec(cc, in)
		if err != nil {
			return nil, nil, err
		}
		if outCodec != nil {
			if b, ok := outCodec.AppendJSON(make([]byte, 0, 64), unsafe.Pointer(&out)); ok {
				return out, b, nil
			}
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, nil, fmt.Errorf("tools: %s: encoding output: %w", cc.tool.id, err)
		}
		return out, b, nil
	}
}

// decodeValue converts a decoded JSON value to T. For interface types it
// returns the value itself with json.Number turned into float64.
func decodeValue[T any](v any, dynamic bool) (T, error) {
	var out T
	if dynamic {
		if x, ok := plainNumbers(v).(T); ok {
			return x, nil
		}
		if v == nil {
			return out, nil
		}
	}
	if t, ok := v.(T); ok {
		return t, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(b, &out)
	return out, err
}

// integralNumbers rewrites json.Number values that are whole numbers
// written with a fraction or exponent ("1.0", "1e2") as plain integers, so
// that a value JSON Schema (and JavaScript) calls an integer decodes into
// a Go int. It works in place on a freshly decoded value.
func integralNumbers(v any) any {
	return jsonvalue.MapInPlace(v, func(s any) any {
		n, ok := s.(json.Number)
		if !ok || !strings.ContainsAny(string(n), ".eE") {
			return s
		}
		if f, err := n.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
		return s
	})
}

// plainNumbers replaces json.Number values by float64, in place in the
// freshly decoded value.
func plainNumbers(v any) any {
	return jsonvalue.MapInPlace(v, func(s any) any {
		if n, ok := s.(json.Number); ok {
			f, _ := n.Float64()
			return f
		}
		return s
	})
}

// ID returns the tool's id.
func (t *Tool) ID() string { return t.id }

// Title returns the display title ("" when none).
func (t *Tool) Title() string { return t.title }

// Description returns the description sent to the model.
func (t *Tool) Description() string { return t.description }

// InputSchema returns the input schema (nil: anything goes).
func (t *Tool) InputSchema() schema.Schema { return t.input }

// OutputSchema returns the output schema, nil when outputs are not
// validated.
func (t *Tool) OutputSchema() schema.Schema { return t.output }

// SuspendSchema returns the suspend schema or nil.
func (t *Tool) SuspendSchema() schema.Schema { return t.suspend }

// ResumeSchema returns the resume schema or nil.
func (t *Tool) ResumeSchema() schema.Schema { return t.resume }

// RequestContextSchema returns the request-context schema or nil.
func (t *Tool) RequestContextSchema() schema.Schema { return t.requestContext }

// Retries is how often a failed call is tried again (Config.Retries).
func (t *Tool) Retries() int { return t.retries }

// RequireApproval reports the static approval flag.
func (t *Tool) RequireApproval() bool { return t.requireApproval }

// HasApprovalFunc reports whether the tool decides approval per call.
func (t *Tool) HasApprovalFunc() bool { return t.needsApproval != nil }

// HasSuspendSchema reports whether the tool is suspend-capable.
func (t *Tool) HasSuspendSchema() bool { return t.suspend != nil }

// Strict returns the strict flag (nil: unset).
func (t *Tool) Strict() *bool { return t.strict }

// OutputValidation returns the output validation mode.
func (t *Tool) OutputValidation() OutputValidation { return t.outputValidation }

// ProviderOptions returns the provider options (do not modify).
func (t *Tool) ProviderOptions() map[string]map[string]any { return t.providerOptions }

// InputExamples returns the input examples (do not modify).
func (t *Tool) InputExamples() []InputExample { return t.inputExamples }

// Transform returns the display/transcript transform config or nil.
func (t *Tool) Transform() *transform.Config { return t.transform }

// MCP returns the MCP options or nil.
func (t *Tool) MCP() *MCPOptions { return t.mcp }

// MCPMetadata is what an MCP client set of the tool's server, nil for
// other tools.
func (t *Tool) MCPMetadata() *MCPMetadata { return t.mcpMetadata }

// IsClientTool reports whether the tool has no Execute.
func (t *Tool) IsClientTool() bool { return t.run == nil }

// HasToModelOutput reports whether the tool maps its results for the model.
func (t *Tool) HasToModelOutput() bool { return t.toModelOutput != nil }
