package agent

import (
	"encoding/json"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema/compat"
)

// workingMemoryInstruction is the system message that shows the model
// the working memory document data ("" when none is stored yet): the
// instruction to keep it with updateWorkingMemory, or, for a run that
// may not write it, the read-only one. The texts are Mastra's.
func (w *WorkingMemory) instruction(data string, readOnly bool) string {
	if readOnly {
		return readOnlyInstruction(data)
	}
	format, markdown := "JSON", !w.jsonMode()
	if markdown {
		format = "Markdown"
	}
	if data == "" {
		data = "null"
	}
	var b strings.Builder
	b.WriteString(`WORKING_MEMORY_SYSTEM_INSTRUCTION:
Store and update any conversation-relevant information by calling the updateWorkingMemory tool. If information might be referenced again - store it!

Guidelines:
1. Store anything that could be useful later in the conversation
2. Update proactively when information changes, no matter how small
3. Use ` + format + ` format for all data
4. Act naturally - don't mention this system to users. Even though you're storing this information that doesn't make it your primary focus. Do not ask them generally for "information about yourself"
`)
	if markdown {
		b.WriteString(`5. IMPORTANT: When calling updateWorkingMemory, the only valid parameter is the memory field. DO NOT pass an object.
6. IMPORTANT: ALWAYS pass the data you want to store in the memory field as a string. DO NOT pass an object.
7. IMPORTANT: Data must only be sent as a string no matter which format is used.`)
	}
	b.WriteString("\n\n\n")
	if markdown {
		b.WriteString("<working_memory_template>\n" + w.template() + "\n</working_memory_template>")
	}
	b.WriteString("\n\n")
	empty := w.emptyObject()
	if empty != "" {
		b.WriteString("When working with json data, the object format below represents the template:")
	}
	b.WriteString("\n" + empty + "\n")
	b.WriteString(`
<working_memory_data>
` + data + `
</working_memory_data>

Notes:
- Update memory whenever referenced information changes
- If you're unsure whether to store something, store it (eg if the user tells you information about themselves, call updateWorkingMemory immediately to update it)
- This system is here so that you can maintain the conversation when your context window is very short. Update your working memory because you may need it to maintain the conversation without the full conversation history
- Do not remove empty sections - you must include the empty sections along with the ones you're filling in
- REMEMBER: the way you update your working memory is by calling the updateWorkingMemory tool with the entire ` + format + ` content. The system will store it for you. The user will not see it.
- IMPORTANT: You MUST call updateWorkingMemory in every response to a prompt where you received relevant information.
- IMPORTANT: Preserve the ` + format + ` formatting structure above while updating the content.`)
	return b.String()
}

// readOnlyInstruction shows the document data as read-only context.
func readOnlyInstruction(data string) string {
	if data == "" {
		data = "No working memory data available."
	}
	return `WORKING_MEMORY_SYSTEM_INSTRUCTION (READ-ONLY):
The following is your working memory - persistent information about the user and conversation collected over previous interactions. This data is provided for context to help you maintain continuity.

<working_memory_data>
` + data + `
</working_memory_data>

Guidelines:
1. Use this information to provide personalized and contextually relevant responses
2. Act naturally - don't mention this system to users. This information should inform your responses without being explicitly referenced
3. This memory is read-only in the current session - you cannot update it

Notes:
- This system is here so that you can maintain the conversation when your context window is very short
- The user will not see the working memory data directly`
}

// emptyObject is, in schema mode, the JSON of the empty document the
// schema describes (every property at its default, else its type's
// zero: "", 0, false, [], a nested object's own empty object, else
// null); "" in Markdown mode or when the schema has no properties.
func (w *WorkingMemory) emptyObject() string {
	if !w.jsonMode() {
		return ""
	}
	obj := emptyFromSchema(w.Schema.JSONSchema())
	if len(obj) == 0 {
		return ""
	}
	raw, err := json.Marshal(orderedObject(obj))
	if err != nil {
		return ""
	}
	return string(raw)
}

// emptyField is one property of an empty document, in schema order.
type emptyField struct {
	key   string
	value any
}

// orderedObject is a JSON object whose keys keep their order.
type orderedObject []emptyField

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// emptyFromSchema is the empty object of an object schema s, its
// properties in the schema's order.
func emptyFromSchema(s *jsonschema.Schema) orderedObject {
	if s == nil || s.Type != "object" || len(s.Properties) == 0 {
		return nil
	}
	obj := orderedObject{}
	for _, key := range compat.PropertyKeys(s) {
		p := s.Properties[key]
		var v any
		switch {
		case p.Default != nil:
			_ = json.Unmarshal(p.Default, &v)
		case p.Type == "object" && len(p.Properties) > 0:
			v = emptyFromSchema(p)
		case p.Type == "object":
			v = struct{}{}
		case p.Type == "string":
			v = ""
		case p.Type == "array":
			v = []any{}
		case p.Type == "number" || p.Type == "integer":
			v = 0
		case p.Type == "boolean":
			v = false
		}
		obj = append(obj, emptyField{key, v})
	}
	return obj
}
