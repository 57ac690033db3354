package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
)

// emptyForm is the form of a suspension without a resume schema.
var emptyForm = json.RawMessage(`{"type":"object","properties":{}}`)

// resumeFormOf renders a tool's resume schema as the input-request form a
// client fills in, refusing (Mastra's
// MCP_SERVER_RESUME_SCHEMA_NOT_REPRESENTABLE) a schema the protocol cannot
// show: forms are a flat object whose properties are strings, numbers,
// integers, booleans or enums (single or multiple choice).
func resumeFormOf(name string, s schema.Schema) (json.RawMessage, error) {
	raw, err := compat.Marshal(s.JSONSchema())
	if err != nil {
		return nil, fmt.Errorf("mcpserver: tool %q: resume schema: %w", name, err)
	}
	form, err := formSchema(raw)
	if err == nil {
		err = checkForm(form)
	}
	if err != nil {
		owner := fmt.Sprintf("tool '%s'", name)
		issues, _ := json.Marshal([]map[string]string{{"message": err.Error()}})
		return nil, mcpError(IDResumeSchemaNotRepresentable,
			fmt.Sprintf("The resumeSchema of %s cannot be presented as an input request: it must be an object whose properties are strings, numbers, booleans or enums.", owner),
			map[string]any{"owner": owner, "issues": string(issues)}, nil)
	}
	if len(form.Keys) == 0 {
		return emptyForm, nil
	}
	return form.AppendJS(nil), nil
}

// suspensionForm is the form of one suspension: the tool's resume schema
// when it has one, else the schema the tool passed to Suspend (a JSON
// text), else an empty object form.
func suspensionForm(e *exposedTool, suspendSchema string) json.RawMessage {
	if e.resumeForm != nil {
		return e.resumeForm
	}
	if suspendSchema != "" {
		if form, err := formSchema([]byte(suspendSchema)); err == nil && len(form.Keys) > 0 {
			return form.AppendJS(nil)
		}
	}
	return emptyForm
}

// checkForm reports why a form schema is not a flat object of primitive
// properties, or nil.
func checkForm(form *wire.Object) error {
	if t, _ := form.Get("type"); t != "object" {
		return fmt.Errorf("the schema must have type \"object\"")
	}
	if req, ok := form.Get("required"); ok {
		list, isList := req.([]any)
		if !isList {
			return fmt.Errorf("required must be a list of names")
		}
		for _, r := range list {
			if _, isString := r.(string); !isString {
				return fmt.Errorf("required must be a list of names")
			}
		}
	}
	props, ok := form.Get("properties")
	if !ok {
		return nil
	}
	po, isObj := props.(*wire.Object)
	if !isObj {
		return fmt.Errorf("properties must be an object")
	}
	for i, k := range po.Keys {
		p, isObj := po.Vals[i].(*wire.Object)
		if !isObj || !primitiveProperty(p) {
			return fmt.Errorf("property %s is not a string, number, boolean or enum", jsjson.AppendString(nil, k, jsjson.Replace))
		}
	}
	return nil
}

// primitiveProperty tells whether p is one of the protocol's primitive
// form fields.
func primitiveProperty(p *wire.Object) bool {
	t, _ := p.Get("type")
	switch t {
	case "string", "number", "integer", "boolean":
		if oneOf, ok := p.Get("oneOf"); ok {
			return t == "string" && constChoices(oneOf)
		}
		return !slices.ContainsFunc(p.Keys, isStructuralKeyword)
	case "array":
		items, ok := p.Get("items")
		io, isObj := items.(*wire.Object)
		if !ok || !isObj {
			return false
		}
		if e, ok := io.Get("enum"); ok {
			_, isList := e.([]any)
			return isList
		}
		if anyOf, ok := io.Get("anyOf"); ok {
			return constChoices(anyOf)
		}
		return false
	}
	return false
}

// isStructuralKeyword reports keywords that nest schemas, which a form
// field may not use.
func isStructuralKeyword(k string) bool {
	switch k {
	case "properties", "items", "anyOf", "allOf", "oneOf", "not", "$ref", "additionalProperties", "patternProperties", "prefixItems":
		return true
	}
	return false
}

// constChoices tells whether v is a list of {const, title?} choices.
func constChoices(v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return false
	}
	for _, c := range list {
		co, isObj := c.(*wire.Object)
		if !isObj || !co.Has("const") {
			return false
		}
	}
	return true
}
