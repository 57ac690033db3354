package chat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3/shared"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// body is a Chat Completions request body. The model encodes it itself,
// once, with encoding/json (tool schemas marshalled once and embedded as
// they are), and hands the JSON to the SDK (option.WithRequestBody), which
// sends it: the same JSON the SDK's ChatCompletionNewParams would give,
// without their reflective encoding, a schema's round trip through a map,
// or the "stream" member patched in afterwards.
type body struct {
	Model               string            `json:"model"`
	Messages            []message         `json:"messages,omitempty"`
	MaxTokens           *int64            `json:"max_tokens,omitempty"`
	Temperature         *float64          `json:"temperature,omitempty"`
	TopP                *float64          `json:"top_p,omitempty"`
	FrequencyPenalty    *float64          `json:"frequency_penalty,omitempty"`
	PresencePenalty     *float64          `json:"presence_penalty,omitempty"`
	Stop                []string          `json:"stop,omitempty"`
	Seed                *int64            `json:"seed,omitempty"`
	ResponseFormat      *responseFormat   `json:"response_format,omitempty"`
	Tools               []tool            `json:"tools,omitempty"`
	ToolChoice          any               `json:"tool_choice,omitempty"`
	ParallelToolCalls   *bool             `json:"parallel_tool_calls,omitempty"`
	User                *string           `json:"user,omitempty"`
	ReasoningEffort     string            `json:"reasoning_effort,omitempty"`
	MaxCompletionTokens *int64            `json:"max_completion_tokens,omitempty"`
	Store               *bool             `json:"store,omitempty"`
	Metadata            map[string]string `json:"metadata,omitzero"`
	ServiceTier         string            `json:"service_tier,omitempty"`
	Verbosity           string            `json:"verbosity,omitempty"`
	PromptCacheKey      *string           `json:"prompt_cache_key,omitempty"`
	SafetyIdentifier    *string           `json:"safety_identifier,omitempty"`
	LogitBias           map[string]int64  `json:"logit_bias,omitzero"`
	Stream              bool              `json:"stream"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// message is a message of the prompt: Content is a string, or a user
// message's []any of parts.
type message struct {
	Role      string     `json:"role"`
	Content   any        `json:"content"`
	ToolCalls []toolCall `json:"tool_calls,omitempty"`
	// ToolCallID is a tool message's (and points into the request).
	ToolCallID *string `json:"tool_call_id,omitempty"`
}

type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type (
	textPart struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	imagePart struct {
		Type     string `json:"type"`
		ImageURL struct {
			URL    string `json:"url"`
			Detail string `json:"detail,omitempty"`
		} `json:"image_url"`
	}
	audioPart struct {
		Type       string `json:"type"`
		InputAudio struct {
			Data   string `json:"data"`
			Format string `json:"format"`
		} `json:"input_audio"`
	}
	filePart struct {
		Type string `json:"type"`
		File struct {
			FileID   string `json:"file_id,omitempty"`
			Filename string `json:"filename,omitempty"`
			FileData string `json:"file_data,omitempty"`
		} `json:"file"`
	}
)

type tool struct {
	Type     string   `json:"type"`
	Function function `json:"function"`
}

type function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

type responseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	Strict      *bool           `json:"strict,omitempty"`
}

type namedToolChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// emptyObjectSchema is the parameters of a tool without a schema.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// params maps a request to a Chat Completions request body, with the
// warnings the AI SDK reports for what it drops.
func (m *Model) params(req *model.Request) ([]byte, []model.Warning, error) {
	var warnings []model.Warning
	p := body{Model: m.base.ModelID(), Stream: true}
	p.StreamOptions.IncludeUsage = true

	msgs, err := chatMessages(req.Messages)
	if err != nil {
		return nil, nil, err
	}
	p.Messages = msgs

	s := req.Settings
	if s.MaxOutputTokens != nil {
		p.MaxTokens = ptr(int64(*s.MaxOutputTokens))
	}
	p.Temperature, p.TopP = s.Temperature, s.TopP
	if s.TopK != nil {
		warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: "topK"})
	}
	p.FrequencyPenalty, p.PresencePenalty = s.FrequencyPenalty, s.PresencePenalty
	if len(s.StopSequences) > 0 {
		p.Stop = s.StopSequences
	}
	if s.Seed != nil {
		p.Seed = ptr(int64(*s.Seed))
	}

	opts := m.base.ProviderOptions(req.ProviderOptions)

	if rf := req.ResponseFormat; rf != nil && rf.Type == "json" {
		if rf.Schema != nil {
			raw, err := json.Marshal(rf.Schema)
			if err != nil {
				return nil, nil, fmt.Errorf("openai: response format schema: %w", err)
			}
			name := rf.Name
			if name == "" {
				name = "response"
			}
			js := &jsonSchema{Name: name, Description: rf.Description, Schema: raw}
			if b, ok := opts["strictJsonSchema"].(bool); ok {
				js.Strict = &b
			}
			p.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: js}
		} else {
			p.ResponseFormat = &responseFormat{Type: "json_object"}
		}
	}

	tools, choice, tw, err := chatTools(req.Tools, req.ToolChoice)
	if err != nil {
		return nil, nil, err
	}
	warnings = append(warnings, tw...)
	p.Tools, p.ToolChoice = tools, choice

	applyChatProviderOptions(&p, opts)
	b, err := json.Marshal(&p)
	if err != nil {
		return nil, nil, fmt.Errorf("openai: request: %w", err)
	}
	return b, warnings, nil
}

func ptr[T any](v T) *T { return &v }

// applyChatProviderOptions passes the AI SDK's OpenAI chat provider
// options through where the API has a field for them.
func applyChatProviderOptions(p *body, o map[string]any) {
	if b, ok := o["parallelToolCalls"].(bool); ok {
		p.ParallelToolCalls = &b
	}
	if s, ok := o["user"].(string); ok {
		p.User = &s
	}
	if s, ok := o["reasoningEffort"].(string); ok {
		p.ReasoningEffort = s
	}
	if n, ok := number(o["maxCompletionTokens"]); ok {
		p.MaxCompletionTokens = ptr(int64(n))
	}
	if b, ok := o["store"].(bool); ok {
		p.Store = &b
	}
	if md, ok := o["metadata"].(map[string]any); ok {
		p.Metadata = map[string]string{}
		for k, v := range md {
			if s, ok := v.(string); ok {
				p.Metadata[k] = s
			}
		}
	}
	if s, ok := o["serviceTier"].(string); ok {
		p.ServiceTier = s
	}
	if s, ok := o["textVerbosity"].(string); ok {
		p.Verbosity = s
	}
	if s, ok := o["promptCacheKey"].(string); ok {
		p.PromptCacheKey = &s
	}
	if s, ok := o["safetyIdentifier"].(string); ok {
		p.SafetyIdentifier = &s
	}
	if lb, ok := o["logitBias"].(map[string]any); ok {
		p.LogitBias = map[string]int64{}
		for k, v := range lb {
			if n, ok := number(v); ok {
				p.LogitBias[k] = int64(n)
			}
		}
	}
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// chatTools maps function tools; provider-defined tools are not supported
// by Chat Completions and reported as warnings, as the AI SDK does.
func chatTools(defs []model.ToolDefinition, tc model.ToolChoice) ([]tool, any, []model.Warning, error) {
	var (
		tools    []tool
		warnings []model.Warning
	)
	for _, d := range defs {
		if d.Type != "" && d.Type != model.ToolTypeFunction {
			warnings = append(warnings, model.Warning{Type: "unsupported-tool", Details: d.Name})
			continue
		}
		if tools == nil {
			tools = make([]tool, 0, len(defs))
		}
		fn := function{Name: d.Name, Description: d.Description, Parameters: emptyObjectSchema, Strict: d.Strict}
		if d.InputSchema != nil {
			params, err := core.SchemaJSON[shared.FunctionParameters](d.InputSchema)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("openai: tool %q input schema: %w", d.Name, err)
			}
			fn.Parameters = params
		}
		tools = append(tools, tool{Type: "function", Function: fn})
	}
	if len(tools) == 0 {
		return nil, nil, warnings, nil
	}
	var choice any
	switch tc.Type {
	case "":
	case "auto", "none", "required":
		choice = tc.Type
	case "tool":
		c := namedToolChoice{Type: "function"}
		c.Function.Name = tc.ToolName
		choice = c
	default:
		return nil, nil, nil, fmt.Errorf("openai: unsupported tool choice %q", tc.Type)
	}
	return tools, choice, warnings, nil
}

// chatMessages converts a prompt as the AI SDK's
// convertToOpenAIChatMessages does.
func chatMessages(msgs []model.Message) ([]message, error) {
	out := make([]message, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			out = append(out, message{Role: "system", Content: m.TextContent()})
		case model.RoleUser:
			if len(m.Content) == 1 && m.Content[0].Type == model.MessageText {
				out = append(out, message{Role: "user", Content: m.Content[0].Text})
				continue
			}
			parts := make([]any, 0, len(m.Content))
			for j, part := range m.Content {
				cp, err := userPart(part)
				if err != nil {
					return nil, fmt.Errorf("openai: message %d part %d: %w", i, j, err)
				}
				parts = append(parts, cp)
			}
			out = append(out, message{Role: "user", Content: parts})
		case model.RoleAssistant:
			var text strings.Builder
			var calls []toolCall
			for _, part := range m.Content {
				switch part.Type {
				case model.MessageText:
					text.WriteString(part.Text)
				case model.MessageToolCall:
					if part.ToolCall == nil {
						return nil, fmt.Errorf("openai: message %d: tool-call part without ToolCall", i)
					}
					if part.ToolCall.ProviderExecuted {
						continue // the provider's own tools have no chat form
					}
					calls = append(calls, toolCall{ID: part.ToolCall.ToolCallID, Type: "function",
						Function: functionCall{Name: part.ToolCall.ToolName, Arguments: core.JSONText(part.ToolCall.Input)}})
				}
			}
			out = append(out, message{Role: "assistant", Content: text.String(), ToolCalls: calls})
		case model.RoleTool:
			for _, part := range m.Content {
				if part.Type != model.MessageToolResult || part.ToolResult == nil {
					continue
				}
				content, err := core.ToolResultText(part.ToolResult.Output)
				if err != nil {
					return nil, fmt.Errorf("openai: message %d: tool result %s: %w", i, part.ToolResult.ToolCallID, err)
				}
				out = append(out, message{Role: "tool", Content: content, ToolCallID: &part.ToolResult.ToolCallID})
			}
		default:
			return nil, fmt.Errorf("openai: message %d: unsupported role %q", i, m.Role)
		}
	}
	return out, nil
}

// userPart maps a user message part: text, images (URL or base64, with
// providerOptions.openai.imageDetail), wav/mp3 audio and PDF files.
func userPart(p model.Part) (any, error) {
	switch p.Type {
	case model.MessageText:
		return textPart{Type: "text", Text: p.Text}, nil
	case model.MessageImage:
		return imageContent(p), nil
	case model.MessageFile:
		mt := p.MediaType
		switch {
		case strings.HasPrefix(mt, "image/"):
			return imageContent(p), nil
		case mt == "audio/wav" || mt == "audio/mp3" || mt == "audio/mpeg":
			if core.IsURL(p.Data) {
				return nil, fmt.Errorf("audio file parts with URLs are not supported")
			}
			a := audioPart{Type: "input_audio"}
			a.InputAudio.Data, a.InputAudio.Format = p.Data, "mp3"
			if mt == "audio/wav" {
				a.InputAudio.Format = "wav"
			}
			return a, nil
		case mt == "application/pdf":
			if strings.HasPrefix(p.Data, "http://") || strings.HasPrefix(p.Data, "https://") {
				return nil, fmt.Errorf("PDF file parts with URLs are not supported")
			}
			f := filePart{Type: "file"}
			if strings.HasPrefix(p.Data, "file-") {
				f.File.FileID = p.Data
			} else {
				name := p.Filename
				if name == "" {
					name = "part.pdf"
				}
				f.File.Filename = name
				f.File.FileData = core.DataURL(p.Data, mt)
			}
			return f, nil
		}
		return nil, fmt.Errorf("file part media type %q is not supported", mt)
	}
	return nil, fmt.Errorf("user message part type %q is not supported", p.Type)
}

func imageContent(p model.Part) imagePart {
	mt := p.MediaType
	if mt == "" || mt == "image/*" {
		mt = "image/jpeg"
	}
	img := imagePart{Type: "image_url"}
	img.ImageURL.URL = core.DataURL(p.Data, mt)
	if d, ok := p.ProviderOptions["openai"]["imageDetail"].(string); ok {
		img.ImageURL.Detail = d
	}
	return img
}
