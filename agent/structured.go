package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/stream/partialjson"
	"github.com/gomastra/mastra/tools"
)

// StructuredOutput asks a run for an answer that is a JSON value matching
// Schema, together with tools (Mastra's structuredOutput option). The
// object arrives as "object" chunks while the answer streams, then one
// "object-result" chunk, and in Output.Object.
//
// Without Model, the agent's own model is asked for JSON: through the
// provider's response format on every step (with the tools in the same
// call), or, with JSONPromptInjection, through the prompt for models that
// cannot combine the two. With Model, the agent answers in prose and a
// second model call turns the run (tool calls, results and text) into the
// object.
type StructuredOutput struct {
	// Schema is what the answer must match. An array schema is asked for
	// as {"elements": [...]}, as Mastra does, and unwrapped.
	Schema schema.Schema
	// Model, when set, structures the agent's answer in a separate call.
	Model model.LanguageModel
	// Instructions replace the structuring model's system prompt (with
	// Model) or the injected schema text (with JSONPromptInjection).
	Instructions string
	// JSONPromptInjection, when set, puts the schema in the prompt
	// instead of the response format: InjectSystem appends it to the
	// system message, InjectInline to the latest user message.
	JSONPromptInjection PromptInjection
	// ErrorStrategy says what an answer that does not match does:
	// StrictErrors (the default) fails the run, WarnErrors logs it and
	// leaves Object nil, FallbackErrors makes FallbackValue the object.
	ErrorStrategy ErrorStrategy
	FallbackValue any
}

// PromptInjection is where JSONPromptInjection puts the schema.
type PromptInjection string

// Prompt injection modes (Mastra's jsonPromptInjection: true/'system' and
// 'inline').
const (
	InjectSystem PromptInjection = "system"
	InjectInline PromptInjection = "inline"
)

// ErrorStrategy is Mastra's structuredOutput.errorStrategy.
type ErrorStrategy string

// Error strategies.
const (
	StrictErrors   ErrorStrategy = "strict"
	WarnErrors     ErrorStrategy = "warn"
	FallbackErrors ErrorStrategy = "fallback"
)

// WithStructuredOutput asks the run for a structured answer.
func WithStructuredOutput(so StructuredOutput) Option {
	return func(o *runOptions) { o.structured = &so }
}

// GenerateObject runs a and decodes the structured answer into a T, whose
// schema is inferred from the type (schema.For). so may carry the other
// structured-output settings; its Schema is replaced. The error is the
// run's (see Generate) or a decoding error.
func GenerateObject[T any](ctx context.Context, a *Agent, input any, so StructuredOutput, opts ...Option) (T, *Output, error) {
	var zero T
	s, err := schema.For[T]()
	if err != nil {
		return zero, nil, err
	}
	so.Schema = s
	out, err := a.Generate(ctx, input, append(opts, WithStructuredOutput(so))...)
	if err != nil {
		return zero, out, err
	}
	if out.Object == nil {
		return zero, out, fmt.Errorf("agent %s: the run produced no object", a.cfg.ID)
	}
	raw, err := json.Marshal(out.Object)
	if err != nil {
		return zero, out, err
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return zero, out, fmt.Errorf("agent %s: decoding the object: %w", a.cfg.ID, err)
	}
	return v, out, nil
}

// structuring is a run's structured-output state.
type structuring struct {
	so *StructuredOutput
	// modelSchema is the JSON Schema the model is given (draft-07,
	// additionalProperties false, arrays wrapped); wrapped says arrays are.
	modelSchema *jsonschema.Schema
	schemaJSON  []byte
	wrapped     bool
}

func newStructuring(so *StructuredOutput) (*structuring, error) {
	if so.Schema == nil || so.Schema.JSONSchema() == nil {
		return nil, fmt.Errorf("agent: structured output needs a schema")
	}
	s := compat.Draft07(so.Schema.JSONSchema())
	wrapped := schema.TypeOf(so.Schema) == "array"
	if wrapped {
		items := s
		items.Schema = ""
		s = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"elements": items}, Required: []string{"elements"}, Schema: compat.Draft07URI}
	}
	closed := s.Type == "object" && s.AdditionalProperties == nil
	if closed {
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	}
	raw, err := schemaText(s, closed)
	if err != nil {
		return nil, err
	}
	return &structuring{so: so, modelSchema: s, schemaJSON: raw, wrapped: wrapped}, nil
}

// schemaText renders the model's schema for prompts with "$schema" (and
// the additionalProperties: false structured output added) last, where
// Mastra's text has them.
func schemaText(s *jsonschema.Schema, closed bool) ([]byte, error) {
	body := *s
	body.Schema = ""
	if closed {
		body.AdditionalProperties = nil
	}
	raw, err := compat.Marshal(&body)
	if err != nil || len(raw) < 2 || raw[0] != '{' {
		return raw, err
	}
	tail := `"$schema":"` + s.Schema + `"`
	if closed {
		tail += `,"additionalProperties":false`
	}
	sep := ","
	if len(raw) == 2 {
		sep = ""
	}
	return append(append(raw[:len(raw)-1:len(raw)-1], sep+tail...), '}'), nil
}

// direct reports whether the agent's own model produces the object.
func (st *structuring) direct() bool { return st.so.Model == nil }

// responseFormat is what each step asks the provider for (nil when the
// schema goes through the prompt or a structuring model).
func (st *structuring) responseFormat() *model.ResponseFormat {
	if !st.direct() || st.so.JSONPromptInjection != "" {
		return nil
	}
	return &model.ResponseFormat{Type: "json", Schema: st.modelSchema}
}

// system returns the agent's instructions with what structured output
// adds to them: the injected schema, or the note that another model will
// structure the answer.
func (st *structuring) system(instructions string) string {
	var add string
	switch {
	case !st.direct():
		add = "Your response will be processed by another agent to extract structured data. Please ensure your response contains comprehensive information for all the following fields that will be extracted:\n\n" +
			string(st.schemaJSON) + "\n\n\nYou don't need to format your response as JSON unless the user asks you to. Just ensure your natural language response includes relevant information for each field in the schema above."
	case st.so.JSONPromptInjection == InjectSystem:
		add = st.so.Instructions
		if strings.TrimSpace(add) == "" {
			add = "JSON schema:\n" + string(st.schemaJSON) + "\nYou MUST answer with a JSON object that matches the JSON schema above."
		}
	default:
		return instructions
	}
	if instructions == "" {
		return add
	}
	return instructions + "\n\n" + add
}

// inline adds the schema to the latest user message (InjectInline).
func (st *structuring) inline(msgs []model.Message) []model.Message {
	if !st.direct() || st.so.JSONPromptInjection != InjectInline {
		return msgs
	}
	text := "Return your response as JSON matching this schema:\n\n" + string(st.schemaJSON) + "\n\nReturn only valid JSON. Do not include markdown or explanatory text."
	out := append([]model.Message(nil), msgs...)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Role == model.RoleUser {
			out[i].Content = append(append([]model.Part(nil), out[i].Content...), model.Text(text))
			return out
		}
	}
	return append(out, model.UserText(text))
}

// checked is what checking an answer gave: the object, or the error in
// Mastra's form.
type checked struct {
	object any
	err    *RunError
}

// check parses and validates a final answer's text.
func (st *structuring) check(text string, reason model.FinishReason) checked {
	if reason == model.FinishLength || reason == model.FinishContentFilter {
		return checked{err: &RunError{
			Message: fmt.Sprintf("Structured output was truncated because the model finished with reason %q.", reason),
			ID:      mastraerror.IDStructuredOutputTruncated, Details: map[string]any{"finishReason": reason, "value": text},
		}}
	}
	if text == "" {
		return checked{err: &RunError{Message: "No object generated: could not parse the response."}}
	}
	raw := preprocessJSONText(text)
	v, _ := partialjson.Parse(raw)
	validated, issues := st.so.Schema.Validate(st.unwrap(v))
	if len(issues) > 0 {
		diag := raw
		if v != nil {
			if b, err := json.Marshal(v); err == nil {
				diag = string(b)
			}
		}
		return checked{err: &RunError{
			Message: "Structured output validation failed: " + tools.IssueList(issues),
			ID:      mastraerror.IDStructuredOutputSchemaValidationFailed, Details: map[string]any{"value": diag},
		}}
	}
	return checked{object: validated}
}

// unwrap takes an array answer out of its {"elements": ...} wrapper.
func (st *structuring) unwrap(v any) any {
	if !st.wrapped {
		return v
	}
	if m, ok := v.(map[string]any); ok {
		if e, ok := m["elements"]; ok {
			return e
		}
	}
	return v
}

// preprocessJSONText finds the JSON in a model's answer as Mastra does:
// the text after a "<|message|>" marker, without a leading ```json fence,
// else the last balanced {...} when the text does not start with { or [;
// raw newlines and tabs inside strings are escaped.
func preprocessJSONText(text string) string {
	if i := strings.LastIndex(text, "<|message|>"); i >= 0 {
		text = text[i+len("<|message|>"):]
	}
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "```") {
		if nl := strings.IndexByte(t, '\n'); nl >= 0 {
			t = t[nl+1:]
		} else {
			t = strings.TrimPrefix(t, "```json")
		}
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "```"))
	}
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		if obj := lastBalancedObject(t); obj != "" {
			t = obj
		}
	}
	return escapeControlInStrings(t)
}

// lastBalancedObject returns the last top-level {...} of s ("" if none),
// skipping braces inside strings (quotes outside objects are prose).
func lastBalancedObject(s string) string {
	last := ""
	depth, start := 0, -1
	var str stringState
	for i := 0; i < len(s); i++ {
		c := s[i]
		if depth > 0 && str.step(c) {
			continue
		}
		switch {
		case c == '{':
			if depth == 0 {
				start = i
			}
			depth++
		case c == '}' && depth > 0:
			depth--
			if depth == 0 {
				last = s[start : i+1]
			}
		}
	}
	return last
}

// escapeControlInStrings escapes raw newlines, carriage returns and tabs
// inside JSON strings, which models sometimes emit.
func escapeControlInStrings(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	var b strings.Builder
	var str stringState
	for i := 0; i < len(s); i++ {
		c := s[i]
		if str.step(c) {
			switch c {
			case '\n':
				b.WriteString(`\n`)
				continue
			case '\r':
				b.WriteString(`\r`)
				continue
			case '\t':
				b.WriteString(`\t`)
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// stringState follows JSON strings through a byte scan.
type stringState struct{ in, escaped bool }

// step takes the next byte and reports whether it belongs to a string:
// its quotes, escapes and contents.
func (st *stringState) step(c byte) bool {
	switch {
	case !st.in:
		st.in = c == '"'
		return st.in
	case st.escaped:
		st.escaped = false
	case c == '\\':
		st.escaped = true
	case c == '"':
		st.in = false
	}
	return true
}

// structuringPrompt is the structuring model's input: the run's reasoning,
// tool calls, tool results and text as Mastra's structured-output
// processor writes them.
func (r *run) structuringPrompt() string {
	var reasoning, text strings.Builder
	var calls, results []string
	for _, s := range r.report.steps {
		reasoning.WriteString(s.ReasoningText)
		text.WriteString(s.Text)
		for _, c := range s.ToolCalls {
			if p, ok := c.Payload.(stream.ToolCallPayload); ok {
				calls = append(calls, "## "+p.ToolName+"\n### Input: "+string(argsOrEmpty(p.Args))+"\n### Output: ")
			}
		}
		for _, c := range s.ToolResults {
			if p, ok := c.Payload.(stream.ToolResultPayload); ok {
				results = append(results, p.ToolName+": "+indentJSON(p.Result))
			}
		}
	}
	var sections []string
	if reasoning.Len() > 0 {
		sections = append(sections, "# Assistant Reasoning\n"+reasoning.String())
	}
	if len(calls) > 0 {
		sections = append(sections, "# Tool Calls\n"+strings.Join(calls, "\n"))
	}
	if len(results) > 0 {
		sections = append(sections, "# Tool Results\n"+strings.Join(results, "\n"))
	}
	if text.Len() > 0 {
		sections = append(sections, "# Assistant Response\n"+text.String())
	}
	return "Extract and structure the key information from the following text according to the specified schema. Keep the original meaning and details. Rely on the provided text and conversation history.\n\n" + strings.Join(sections, "\n\n")
}

// structurerInstructions is the structuring model's system prompt.
func (st *structuring) structurerInstructions() string {
	if st.so.Instructions != "" {
		return st.so.Instructions
	}
	return "You are a data structuring specialist. Your job is to convert unstructured text into a specific JSON format.\n\n" +
		"TASK: Convert the provided unstructured text into valid JSON that matches the following schema:\n" + indentJSON(json.RawMessage(st.schemaJSON)) + "\n\n" +
		"REQUIREMENTS:\n- Return ONLY valid JSON, no additional text or explanation\n- Extract relevant information from the input text\n- If information is missing, use reasonable defaults or null values\n- Maintain data types as specified in the schema\n- Be consistent and accurate in your conversions\n\n" +
		"The input text may be in any format (sentences, bullet points, paragraphs, etc.). Extract the relevant data and structure it according to the schema."
}

// indentJSON renders v as JavaScript's JSON.stringify(v, null, 2) does
// (strings as they are, null for nothing).
func indentJSON(v any) string {
	if v == nil {
		return "null"
	}
	if s, ok := v.(string); ok {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// partialObject parses a streaming JSON answer and reports each new
// partial object (Mastra's "object" chunks): a leading ``` fence line is
// skipped, and only objects that parse (as they are or repaired) and
// differ from the last one reported count.
type partialObject struct {
	p       partialjson.Parser
	pending strings.Builder
	started bool
	last    []byte
}

func (po *partialObject) add(delta string) (map[string]any, bool) {
	if !po.started {
		po.pending.WriteString(delta)
		t := strings.TrimLeft(po.pending.String(), " \t\r\n")
		if t == "" {
			return nil, false
		}
		if strings.HasPrefix(t, "`") {
			nl := strings.IndexByte(t, '\n')
			if nl < 0 {
				return nil, false
			}
			t = t[nl+1:]
		}
		po.started, delta = true, t
	}
	po.p.Append(delta)
	b, st := po.p.Repaired()
	if (st != partialjson.SuccessfulParse && st != partialjson.RepairedParse) || bytes.Equal(b, po.last) {
		return nil, false
	}
	v, _ := po.p.Value()
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	po.last = append(po.last[:0], b...)
	return m, true
}

// objectsOf turns deltas of an answer into "object" chunks of runID
// (with meta), one for each new partial object the answer completes.
func (r *run) objectsOf(runID string, meta map[string]any) func(delta string) (stream.Chunk, bool) {
	var po partialObject
	return func(delta string) (stream.Chunk, bool) {
		m, ok := po.add(delta)
		if !ok {
			return stream.Chunk{}, false
		}
		var v any = m
		if r.st.wrapped {
			e, ok := m["elements"]
			if !ok {
				return stream.Chunk{}, false
			}
			v = e
		}
		return stream.Chunk{Type: stream.TypeObject, RunID: runID, From: stream.FromAgent, Object: v, Metadata: meta}, true
	}
}

// structure turns the final answer into the object (after the last
// step's chunks, before its step-finish) and returns the step's finish
// reason: unchanged, "error" when a strict direct answer fails, or
// "tripwire" when a strict structuring model's does.
func (r *run) structure(out sink, text string, reason model.FinishReason) model.FinishReason {
	if r.st.direct() {
		return r.settle(out, r.st.check(text, reason), reason, r.opts.runID, nil)
	}
	meta := map[string]any{"from": "structured-output"}
	runID := r.engine.NewID()
	req := &model.Request{
		Messages:       []model.Message{model.System(r.st.structurerInstructions()), model.UserText(r.structuringPrompt())},
		ResponseFormat: &model.ResponseFormat{Type: "json", Schema: r.st.modelSchema},
	}
	objects := r.objectsOf(runID, meta)
	var answer strings.Builder
	structReason := model.FinishUnknown
	for p, err := range r.engine.CallModel(r.ctx, r.st.so.Model, req) {
		if err == nil && p.Type == model.PartError {
			err = p.Err
			if err == nil {
				err = fmt.Errorf("structuring model stream error")
			}
		}
		if err != nil {
			return r.settle(out, checked{err: &RunError{Message: err.Error(), Cause: err}}, reason, runID, meta)
		}
		switch p.Type {
		case model.PartTextDelta:
			answer.WriteString(p.Delta)
			if c, ok := objects(p.Delta); ok && !out(c) {
				return reason
			}
		case model.PartFinish:
			structReason = p.FinishReason
		}
	}
	return r.settle(out, r.st.check(answer.String(), structReason), reason, runID, meta)
}

// settle applies the error strategy to a checked answer.
func (r *run) settle(out sink, oc checked, reason model.FinishReason, runID string, meta map[string]any) model.FinishReason {
	if oc.err == nil {
		r.objectResult(out, oc.object, runID, meta, nil)
		return reason
	}
	oc.err.Domain, oc.err.Category = mastraerror.DomainAgent, mastraerror.CategorySystem
	switch r.st.so.ErrorStrategy {
	case WarnErrors:
		r.agent.cfg.Logger.Warn(oc.err.Message, "agent", r.agent.cfg.ID, "runId", r.opts.runID)
		return reason
	case FallbackErrors:
		r.result.usedFallback = true
		r.objectResult(out, r.st.so.FallbackValue, runID, meta, map[string]any{"fallback": true})
		return reason
	}
	if r.st.direct() {
		r.result.err = oc.err
		r.emit(out, stream.TypeError, stream.ErrorPayload{Error: oc.err})
		return model.FinishError
	}
	r.result.tripwire = &Tripwire{
		Reason: "[StructuredOutputProcessor] Structuring failed: " + oc.err.Message, Retry: true,
		Metadata: map[string]any{"error": oc.err}, ProcessorID: "structured-output",
	}
	return model.FinishTripwire
}

// objectResult reports the run's object: its object-result chunk, with
// meta and extra as metadata.
func (r *run) objectResult(out sink, obj any, runID string, meta, extra map[string]any) {
	md := map[string]any{}
	for k, v := range extra {
		md[k] = v
	}
	for k, v := range meta {
		md[k] = v
	}
	if len(md) == 0 {
		md = nil
	}
	r.result.object, r.report.stepObject = obj, true
	out(stream.Chunk{Type: stream.TypeObjectResult, RunID: runID, From: stream.FromAgent, Object: obj, Metadata: md})
}
