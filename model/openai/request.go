package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// body is a Responses API request body. The model encodes it itself,
// once, with encoding/json (schemas marshalled once and embedded as they
// are), and hands the JSON to the SDK (option.WithRequestBody), which
// sends it: the same JSON the SDK's ResponseNewParams would give, without
// their reflective encoding, a schema's round trip through a map, or the
// "stream" member patched in afterwards.
type body struct {
	Model              string      `json:"model"`
	Input              []any       `json:"input,omitempty"`
	MaxOutputTokens    *int64      `json:"max_output_tokens,omitempty"`
	Temperature        *float64    `json:"temperature,omitempty"`
	TopP               *float64    `json:"top_p,omitempty"`
	Text               *textConfig `json:"text,omitempty"`
	Tools              []any       `json:"tools,omitempty"`
	ToolChoice         any         `json:"tool_choice,omitempty"`
	ParallelToolCalls  *bool       `json:"parallel_tool_calls,omitempty"`
	User               *string     `json:"user,omitempty"`
	Store              *bool       `json:"store,omitempty"`
	PreviousResponseID *string     `json:"previous_response_id,omitempty"`
	Instructions       *string     `json:"instructions,omitempty"`
	Reasoning          *reasoning  `json:"reasoning,omitempty"`
	Stream             bool        `json:"stream"`
}

// Input items: a message (Content is a string, or a []any of parts, nil
// for none), a function call and a function call's output (Output is a
// string or a []any of items).
type (
	inputMessage struct {
		Role    string `json:"role"`
		Content any    `json:"content,omitempty"`
	}
	functionCallItem struct {
		Type      string `json:"type"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	functionCallOutput struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Output any    `json:"output"`
	}
)

// Content parts of input messages and function call outputs.
type (
	inputText struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	inputImage struct {
		Type     string `json:"type"`
		Detail   string `json:"detail,omitempty"`
		FileID   string `json:"file_id,omitempty"`
		ImageURL string `json:"image_url,omitempty"`
	}
	inputFile struct {
		Type     string `json:"type"`
		FileID   string `json:"file_id,omitempty"`
		FileURL  string `json:"file_url,omitempty"`
		Filename string `json:"filename,omitempty"`
		FileData string `json:"file_data,omitempty"`
	}
	outputImage struct {
		Type     string `json:"type"`
		ImageURL string `json:"image_url"`
	}
	outputFile struct {
		Type     string `json:"type"`
		FileData string `json:"file_data"`
		Filename string `json:"filename,omitempty"`
	}
)

type (
	functionTool struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
		Strict      *bool           `json:"strict,omitempty"`
	}
	typeOnly struct {
		Type string `json:"type"`
	}
	functionToolChoice struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
)

type textConfig struct {
	Format any `json:"format"`
}

type jsonSchemaFormat struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

type reasoning struct {
	Effort  string `json:"effort,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// emptyObjectSchema is the parameters of a tool without a schema.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// params maps a request to a Responses API request body, with the
// warnings the AI SDK reports for what it drops.
func (m *Model) params(req *model.Request) ([]byte, []model.Warning, error) {
	var warnings []model.Warning
	p := body{Model: m.base.ModelID(), Stream: true}
	input, err := responsesInput(req.Messages)
	if err != nil {
		return nil, nil, err
	}
	p.Input = input

	s := req.Settings
	if s.MaxOutputTokens != nil {
		p.MaxOutputTokens = ptr(int64(*s.MaxOutputTokens))
	}
	p.Temperature, p.TopP = s.Temperature, s.TopP
	// The settings the API lacks, by name.
	for _, u := range [...]struct {
		name string
		set  bool
	}{
		{"frequencyPenalty", s.FrequencyPenalty != nil}, {"presencePenalty", s.PresencePenalty != nil},
		{"seed", s.Seed != nil}, {"stopSequences", len(s.StopSequences) > 0}, {"topK", s.TopK != nil},
	} {
		if u.set {
			warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: u.name})
		}
	}

	opts := m.base.ProviderOptions(req.ProviderOptions)
	if rf := req.ResponseFormat; rf != nil && rf.Type == "json" {
		if rf.Schema != nil {
			schema, err := core.SchemaJSON[map[string]any](rf.Schema)
			if err != nil {
				return nil, nil, fmt.Errorf("openai: response format schema: %w", err)
			}
			name := rf.Name
			if name == "" {
				name = "response"
			}
			js := &jsonSchemaFormat{Type: "json_schema", Name: name, Description: rf.Description, Schema: schema}
			if b, ok := opts["strictJsonSchema"].(bool); ok {
				js.Strict = &b
			}
			p.Text = &textConfig{Format: js}
		} else {
			p.Text = &textConfig{Format: typeOnly{Type: "json_object"}}
		}
	}

	var tools []any
	for _, d := range req.Tools {
		switch {
		case d.Type == "" || d.Type == model.ToolTypeFunction:
			ft := functionTool{Type: "function", Name: d.Name, Description: d.Description, Parameters: emptyObjectSchema, Strict: d.Strict}
			if d.InputSchema != nil {
				params, err := core.SchemaJSON[map[string]any](d.InputSchema)
				if err != nil {
					return nil, nil, fmt.Errorf("openai: tool %q input schema: %w", d.Name, err)
				}
				ft.Parameters = params
			}
			tools = append(tools, ft)
		case isWebSearchTool(d.ID):
			tools = append(tools, typeOnly{Type: "web_search"})
		default:
			warnings = append(warnings, model.Warning{Type: "unsupported-tool", Details: d.Name})
		}
	}
	if len(tools) > 0 {
		p.Tools = tools
		switch tc := req.ToolChoice; tc.Type {
		case "":
		case "auto", "none", "required":
			p.ToolChoice = tc.Type
		case "tool":
			p.ToolChoice = functionToolChoice{Type: "function", Name: tc.ToolName}
		default:
			return nil, nil, fmt.Errorf("openai: unsupported tool choice %q", tc.Type)
		}
	}

	if b, ok := opts["parallelToolCalls"].(bool); ok {
		p.ParallelToolCalls = &b
	}
	if v, ok := opts["user"].(string); ok {
		p.User = &v
	}
	if b, ok := opts["store"].(bool); ok {
		p.Store = &b
	}
	if v, ok := opts["previousResponseId"].(string); ok {
		p.PreviousResponseID = &v
	}
	if v, ok := opts["instructions"].(string); ok {
		p.Instructions = &v
	}
	var r reasoning
	r.Effort, _ = opts["reasoningEffort"].(string)
	r.Summary, _ = opts["reasoningSummary"].(string)
	if r != (reasoning{}) {
		p.Reasoning = &r
	}
	b, err := json.Marshal(&p)
	if err != nil {
		return nil, nil, fmt.Errorf("openai: request: %w", err)
	}
	return b, warnings, nil
}

func ptr[T any](v T) *T { return &v }

// responsesInput converts a prompt to Responses input items.
func responsesInput(msgs []model.Message) ([]any, error) {
	out := make([]any, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			out = append(out, inputMessage{Role: "system", Content: m.TextContent()})
		case model.RoleUser:
			var content []any
			for j, part := range m.Content {
				switch {
				case part.Type == model.MessageText:
					content = append(content, inputText{Type: "input_text", Text: part.Text})
				case part.Type == model.MessageImage || (part.Type == model.MessageFile && strings.HasPrefix(part.MediaType, "image/")):
					mt := part.MediaType
					if mt == "" || mt == "image/*" {
						mt = "image/jpeg"
					}
					img := inputImage{Type: "input_image", Detail: "auto"}
					if d, ok := part.ProviderOptions["openai"]["imageDetail"].(string); ok {
						img.Detail = d
					}
					if strings.HasPrefix(part.Data, "file-") {
						img.FileID = part.Data
					} else {
						img.ImageURL = core.DataURL(part.Data, mt)
					}
					content = append(content, img)
				case part.Type == model.MessageFile:
					f := inputFile{Type: "input_file"}
					switch {
					case strings.HasPrefix(part.Data, "file-"):
						f.FileID = part.Data
					case strings.HasPrefix(part.Data, "http://") || strings.HasPrefix(part.Data, "https://"):
						f.FileURL = part.Data
					default:
						name := part.Filename
						if name == "" {
							name = fmt.Sprintf("part-%d", j)
						}
						f.Filename = name
						f.FileData = core.DataURL(part.Data, part.MediaType)
					}
					content = append(content, f)
				default:
					return nil, fmt.Errorf("openai: message %d part %d: user message part type %q is not supported", i, j, part.Type)
				}
			}
			msg := inputMessage{Role: "user"}
			if content != nil {
				msg.Content = content
			}
			out = append(out, msg)
		case model.RoleAssistant:
			for _, part := range m.Content {
				switch part.Type {
				case model.MessageText:
					out = append(out, inputMessage{Role: "assistant", Content: part.Text})
				case model.MessageToolCall:
					if part.ToolCall == nil || part.ToolCall.ProviderExecuted {
						continue
					}
					out = append(out, functionCallItem{Type: "function_call", CallID: part.ToolCall.ToolCallID,
						Name: part.ToolCall.ToolName, Arguments: core.JSONText(part.ToolCall.Input)})
				}
			}
		case model.RoleTool:
			for _, part := range m.Content {
				if part.Type != model.MessageToolResult || part.ToolResult == nil {
					continue
				}
				tr := part.ToolResult
				item := functionCallOutput{Type: "function_call_output", CallID: tr.ToolCallID}
				if tr.Output.Type == model.OutputContent {
					item.Output = functionOutputItems(tr.Output)
				} else {
					text, err := core.ToolResultText(tr.Output)
					if err != nil {
						return nil, fmt.Errorf("openai: message %d: tool result %s: %w", i, tr.ToolCallID, err)
					}
					item.Output = text
				}
				out = append(out, item)
			}
		default:
			return nil, fmt.Errorf("openai: message %d: unsupported role %q", i, m.Role)
		}
	}
	return out, nil
}

// functionOutputItems renders a "content" tool result as Responses
// function_call_output items: text as input_text, images as input_image,
// files as input_file; other parts as their JSON text.
func functionOutputItems(o model.ToolResultOutput) []any {
	parts, _ := o.Value.([]model.ContentPart)
	items := make([]any, 0, len(parts))
	for _, p := range parts {
		switch {
		case p.Type == model.PartText:
			items = append(items, inputText{Type: "input_text", Text: p.Text})
		case p.Type == model.PartImageURL:
			items = append(items, outputImage{Type: "input_image", ImageURL: p.URL})
		case p.Type == model.PartImageData || (p.Type == model.PartMedia && strings.HasPrefix(p.MediaType, "image/")):
			mt := p.MediaType
			if mt == "" {
				mt = model.DefaultImageMediaType
			}
			items = append(items, outputImage{Type: "input_image", ImageURL: core.DataURL(p.Data, mt)})
		case p.Type == model.PartFileData || p.Type == model.PartMedia:
			items = append(items, outputFile{Type: "input_file", FileData: core.DataURL(p.Data, p.MediaType), Filename: p.Filename})
		default:
			b, _ := json.Marshal(p)
			items = append(items, inputText{Type: "input_text", Text: string(b)})
		}
	}
	return items
}
