package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// Descriptions of the working memory tool, Mastra's.
const (
	markdownToolDescription = "Update the working memory with new information. Any data not included will be overwritten. Always pass data as string to the memory field. Never pass an object."
	jsonToolDescription     = "Update the working memory with new information. Data is merged with existing memory - only include fields you want to add or update. To preserve existing data, omit the field entirely. Arrays are replaced entirely when provided, so pass the complete array or omit it to keep the existing values."
	emptyTemplateRefusal    = "Attempted to replace existing working memory with empty template. Update skipped to prevent data loss."
)

// workingMemoryResult is what the tool answers the model.
type workingMemoryResult struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
}

// newWorkingMemoryTool is the agent's updateWorkingMemory tool. It
// writes the document of the calling run's thread or resource
// (tools.AgentInfo's ThreadID and ResourceID).
func (a *Agent) newWorkingMemoryTool(wm *WorkingMemory) (*tools.Tool, error) {
	cfg := tools.Config[map[string]any, workingMemoryResult]{ID: "update-working-memory"}
	if !wm.jsonMode() {
		in, err := schema.FromJSON([]byte(`{"type":"object","properties":{"memory":{"type":"string","description":"The Markdown formatted working memory content to store. This MUST be a string. Never pass an object."}},"required":["memory"],"additionalProperties":false}`))
		if err != nil {
			return nil, err
		}
		cfg.Description, cfg.InputSchema = markdownToolDescription, in
		cfg.Execute = func(ctx tools.Context, in map[string]any) (workingMemoryResult, error) {
			doc, _ := in["memory"].(string)
			return a.replaceWorkingMemory(ctx, wm, doc)
		}
		return tools.New(cfg), nil
	}
	in, err := newMemoryInput(wm.Schema)
	if err != nil {
		return nil, fmt.Errorf("working memory schema: %w", err)
	}
	strict := false
	cfg.Description, cfg.InputSchema, cfg.Strict = jsonToolDescription, in, &strict
	cfg.Execute = func(ctx tools.Context, in map[string]any) (workingMemoryResult, error) {
		return a.mergeWorkingMemory(ctx, in["memory"])
	}
	return tools.New(cfg), nil
}

// callerOf is the thread and resource of the run that calls the tool.
func callerOf(ctx tools.Context) (threadID, resourceID string) {
	if info := ctx.Agent(); info != nil {
		return info.ThreadID, info.ResourceID
	}
	return "", ""
}

// replaceWorkingMemory stores doc as the Markdown document, unless doc is
// the bare template and the stored document is not (Mastra's guard
// against wiping what the model forgot to copy).
func (a *Agent) replaceWorkingMemory(ctx tools.Context, wm *WorkingMemory, doc string) (workingMemoryResult, error) {
	thread, resource := callerOf(ctx)
	if tmpl := squashSpace(wm.template()); squashSpace(doc) == tmpl {
		// (only the bare template needs the stored document read)
		old, err := a.WorkingMemory(ctx, thread, resource)
		if err != nil {
			return workingMemoryResult{}, err
		}
		if old != "" && squashSpace(old) != tmpl {
			return workingMemoryResult{Message: emptyTemplateRefusal}, nil
		}
	}
	if err := a.SetWorkingMemory(ctx, thread, resource, doc); err != nil {
		return workingMemoryResult{}, err
	}
	return workingMemoryResult{Success: true}, nil
}

// squashSpace is s with its runs of white space made one space, trimmed.
func squashSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// mergeWorkingMemory merges update (the memory argument, validated)
// into the stored JSON document.
func (a *Agent) mergeWorkingMemory(ctx tools.Context, update any) (workingMemoryResult, error) {
	thread, resource := callerOf(ctx)
	if update == nil {
		return workingMemoryResult{Success: true, Message: "No memory data provided, existing memory unchanged."}, nil
	}
	if s, ok := update.(string); ok {
		if err := json.Unmarshal([]byte(s), &update); err != nil {
			return workingMemoryResult{}, memoryError(fmt.Sprintf("Failed to parse working memory input as JSON: %v. Raw input: %s...", err, jsonPrefix(s)))
		}
	}
	old, err := a.WorkingMemory(ctx, thread, resource)
	if err != nil {
		return workingMemoryResult{}, err
	}
	var existing map[string]any
	_ = json.Unmarshal([]byte(old), &existing) // not JSON (a Markdown document): start afresh
	upd, _ := update.(map[string]any)
	merged, err := json.Marshal(mergeDocument(existing, upd))
	if err != nil {
		return workingMemoryResult{}, err
	}
	if err := a.SetWorkingMemory(ctx, thread, resource, string(merged)); err != nil {
		return workingMemoryResult{}, err
	}
	return workingMemoryResult{Success: true}, nil
}

// jsonPrefix is the first 500 characters of raw input (JavaScript's,
// UTF-16 units), as Mastra quotes it in its parse error.
func jsonPrefix(s string) string {
	prefix, _ := jsjson.TruncateUTF16(s, 500)
	return prefix
}

// mergeDocument is existing with update merged in: objects merged key by
// key, a null deleting its key, arrays and other values replacing. It
// returns a new map and modifies neither.
func mergeDocument(existing, update map[string]any) map[string]any {
	out := make(map[string]any, len(existing)+len(update))
	for k, v := range existing {
		out[k] = v
	}
	for k, v := range update {
		switch v := v.(type) {
		case nil:
			delete(out, k)
		case map[string]any:
			prev, _ := out[k].(map[string]any)
			out[k] = mergeDocument(prev, v)
		default:
			out[k] = v
		}
	}
	return out
}

// memoryInput is the schema-mode tool's input schema: {memory: the
// document's schema}. Its validation first drops the nulls given for
// keys the document's schema does not require, as Mastra's does, so that
// a model padding optional keys with null is not refused.
type memoryInput struct {
	wrapper  *schema.Compiled
	document *jsonschema.Schema
}

func newMemoryInput(doc schema.Schema) (*memoryInput, error) {
	raw, err := json.Marshal(doc.JSONSchema())
	if err != nil {
		return nil, err
	}
	w, err := schema.FromJSON([]byte(`{"type":"object","description":"The JSON formatted working memory content to store.","properties":{"memory":` + string(raw) + `},"required":["memory"]}`))
	if err != nil {
		return nil, err
	}
	return &memoryInput{wrapper: w, document: doc.JSONSchema()}, nil
}

func (m *memoryInput) JSONSchema() *jsonschema.Schema { return m.wrapper.JSONSchema() }

func (m *memoryInput) Validate(v any) (any, []schema.Issue) {
	if obj, ok := v.(map[string]any); ok {
		if doc, ok := obj["memory"]; ok {
			v = map[string]any{"memory": stripOptionalNulls(doc, m.document)}
		}
	}
	return m.wrapper.Validate(v)
}

// stripOptionalNulls is v without the null values of keys s does not
// require, at every depth (array items by s's items).
func stripOptionalNulls(v any, s *jsonschema.Schema) any {
	switch v := v.(type) {
	case []any:
		var items *jsonschema.Schema
		if s != nil {
			items = s.Items
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = stripOptionalNulls(e, items)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			var prop *jsonschema.Schema
			if s != nil {
				prop = s.Properties[k]
			}
			if e == nil && (s == nil || !slices.Contains(s.Required, k)) {
				continue
			}
			out[k] = stripOptionalNulls(e, prop)
		}
		return out
	}
	return v
}
