package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/gomastra/mastra/model"
)

// chatParams maps a request to Chat Completions parameters, with the
// warnings the AI SDK reports for what it drops.
func (m *Model) chatParams(req *model.Request) (openai.ChatCompletionNewParams, []model.Warning, error) {
	var warnings []model.Warning
	p := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(m.modelID),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}

	msgs, err := chatMessages(req.Messages)
	if err != nil {
		return p, nil, err
	}
	p.Messages = msgs

	s := req.Settings
	if s.MaxOutputTokens != nil {
		p.MaxTokens = openai.Int(int64(*s.MaxOutputTokens))
	}
	if s.Temperature != nil {
		p.Temperature = openai.Float(*s.Temperature)
	}
	if s.TopP != nil {
		p.TopP = openai.Float(*s.TopP)
	}
	if s.TopK != nil {
		warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: "topK"})
	}
	if s.FrequencyPenalty != nil {
		p.FrequencyPenalty = openai.Float(*s.FrequencyPenalty)
	}
	if s.PresencePenalty != nil {
		p.PresencePenalty = openai.Float(*s.PresencePenalty)
	}
	if len(s.StopSequences) > 0 {
		p.Stop = openai.ChatCompletionNewParamsStopUnion{OfStringArray: s.StopSequences}
	}
	if s.Seed != nil {
		p.Seed = openai.Int(int64(*s.Seed))
	}

	opts := m.providerOptions(req.ProviderOptions)

	if rf := req.ResponseFormat; rf != nil && rf.Type == "json" {
		if rf.Schema != nil {
			raw, err := json.Marshal(rf.Schema)
			if err != nil {
				return p, nil, fmt.Errorf("openai: response format schema: %w", err)
			}
			name := rf.Name
			if name == "" {
				name = "response"
			}
			js := shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: json.RawMessage(raw)}
			if rf.Description != "" {
				js.Description = openai.String(rf.Description)
			}
			if b, ok := opts["strictJsonSchema"].(bool); ok {
				js.Strict = openai.Bool(b)
			}
			p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: js},
			}
		} else {
			p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONObject: &shared.ResponseFormatJSONObjectParam{},
			}
		}
	}

	tools, choice, tw, err := chatTools(req.Tools, req.ToolChoice)
	if err != nil {
		return p, nil, err
	}
	warnings = append(warnings, tw...)
	p.Tools, p.ToolChoice = tools, choice

	applyChatProviderOptions(&p, opts)
	return p, warnings, nil
}

// providerOptions merges the options under the model's option keys.
func (m *Model) providerOptions(po model.ProviderOptions) map[string]any {
	out := map[string]any{}
	for _, k := range m.optionKeys() {
		for kk, v := range po[k] {
			out[kk] = v
		}
	}
	return out
}

// applyChatProviderOptions passes the AI SDK's OpenAI chat provider
// options through where the SDK has a field for them.
func applyChatProviderOptions(p *openai.ChatCompletionNewParams, o map[string]any) {
	if b, ok := o["parallelToolCalls"].(bool); ok {
		p.ParallelToolCalls = openai.Bool(b)
	}
	if s, ok := o["user"].(string); ok {
		p.User = openai.String(s)
	}
	if s, ok := o["reasoningEffort"].(string); ok {
		p.ReasoningEffort = shared.ReasoningEffort(s)
	}
	if n, ok := number(o["maxCompletionTokens"]); ok {
		p.MaxCompletionTokens = openai.Int(int64(n))
	}
	if b, ok := o["store"].(bool); ok {
		p.Store = openai.Bool(b)
	}
	if md, ok := o["metadata"].(map[string]any); ok {
		p.Metadata = shared.Metadata{}
		for k, v := range md {
			if s, ok := v.(string); ok {
				p.Metadata[k] = s
			}
		}
	}
	if s, ok := o["serviceTier"].(string); ok {
		p.ServiceTier = openai.ChatCompletionNewParamsServiceTier(s)
	}
	if s, ok := o["textVerbosity"].(string); ok {
		p.Verbosity = openai.ChatCompletionNewParamsVerbosity(s)
	}
	if s, ok := o["promptCacheKey"].(string); ok {
		p.PromptCacheKey = openai.String(s)
	}
	if s, ok := o["safetyIdentifier"].(string); ok {
		p.SafetyIdentifier = openai.String(s)
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
func chatTools(defs []model.ToolDefinition, tc model.ToolChoice) ([]openai.ChatCompletionToolUnionParam, openai.ChatCompletionToolChoiceOptionUnionParam, []model.Warning, error) {
	var (
		tools    []openai.ChatCompletionToolUnionParam
		choice   openai.ChatCompletionToolChoiceOptionUnionParam
		warnings []model.Warning
	)
	for _, d := range defs {
		if d.Type != "" && d.Type != model.ToolTypeFunction {
			warnings = append(warnings, model.Warning{Type: "unsupported-tool", Details: d.Name})
			continue
		}
		fn := shared.FunctionDefinitionParam{Name: d.Name}
		if d.Description != "" {
			fn.Description = openai.String(d.Description)
		}
		params := shared.FunctionParameters{"type": "object", "properties": map[string]any{}}
		if d.InputSchema != nil {
			raw, err := json.Marshal(d.InputSchema)
			if err != nil {
				return nil, choice, nil, fmt.Errorf("openai: tool %q input schema: %w", d.Name, err)
			}
			params = shared.FunctionParameters{}
			if err := json.Unmarshal(raw, &params); err != nil {
				return nil, choice, nil, fmt.Errorf("openai: tool %q input schema: %w", d.Name, err)
			}
		}
		fn.Parameters = params
		if d.Strict != nil {
			fn.Strict = openai.Bool(*d.Strict)
		}
		tools = append(tools, openai.ChatCompletionFunctionTool(fn))
	}
	if len(tools) == 0 {
		return nil, choice, warnings, nil
	}
	switch tc.Type {
	case "":
	case "auto", "none", "required":
		choice.OfAuto = openai.String(tc.Type)
	case "tool":
		choice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: tc.ToolName})
	default:
		return nil, choice, nil, fmt.Errorf("openai: unsupported tool choice %q", tc.Type)
	}
	return tools, choice, warnings, nil
}

// chatMessages converts a prompt as the AI SDK's
// convertToOpenAIChatMessages does.
func chatMessages(msgs []model.Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	var out []openai.ChatCompletionMessageParamUnion
	for i, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			out = append(out, openai.SystemMessage(m.TextContent()))
		case model.RoleUser:
			if len(m.Content) == 1 && m.Content[0].Type == model.MessageText {
				out = append(out, openai.UserMessage(m.Content[0].Text))
				continue
			}
			parts := make([]openai.ChatCompletionContentPartUnionParam, 0, len(m.Content))
			for j, part := range m.Content {
				cp, err := userPart(part)
				if err != nil {
					return nil, fmt.Errorf("openai: message %d part %d: %w", i, j, err)
				}
				parts = append(parts, cp)
			}
			out = append(out, openai.UserMessage(parts))
		case model.RoleAssistant:
			var text strings.Builder
			var calls []openai.ChatCompletionMessageToolCallUnionParam
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
					calls = append(calls, openai.ChatCompletionMessageToolCallUnionParam{
						OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
							ID: part.ToolCall.ToolCallID,
							Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
								Name: part.ToolCall.ToolName, Arguments: jsonText(part.ToolCall.Input),
							},
						},
					})
				}
			}
			a := &openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}
			a.Content.OfString = openai.String(text.String())
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: a})
		case model.RoleTool:
			for _, part := range m.Content {
				if part.Type != model.MessageToolResult || part.ToolResult == nil {
					continue
				}
				content, err := toolResultText(part.ToolResult.Output)
				if err != nil {
					return nil, fmt.Errorf("openai: message %d: tool result %s: %w", i, part.ToolResult.ToolCallID, err)
				}
				out = append(out, openai.ToolMessage(content, part.ToolResult.ToolCallID))
			}
		default:
			return nil, fmt.Errorf("openai: message %d: unsupported role %q", i, m.Role)
		}
	}
	return out, nil
}

// jsonText compacts a tool call's input JSON ("{}" when empty), as
// JSON.stringify of the parsed input gives.
func jsonText(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// toolResultText renders a tool result output as the AI SDK's OpenAI chat
// provider does: text as is, json/content as JSON text (Chat Completions
// tool messages hold text only), a denial as its reason.
func toolResultText(o model.ToolResultOutput) (string, error) {
	switch o.Type {
	case model.OutputText, model.OutputErrorText:
		s, _ := o.Value.(string)
		return s, nil
	case model.OutputExecutionDenied:
		if o.Reason != "" {
			return o.Reason, nil
		}
		return "Tool execution denied.", nil
	case model.OutputContent:
		v := o.Value
		if v == nil {
			v = []model.ContentPart{}
		}
		b, err := json.Marshal(v)
		return string(b), err
	case model.OutputJSON, model.OutputErrorJSON:
		b, err := json.Marshal(o.Value)
		return string(b), err
	}
	return "", fmt.Errorf("unknown output type %q", o.Type)
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "data:")
}

func dataURL(data, mediaType string) string {
	if isURL(data) {
		return data
	}
	return "data:" + mediaType + ";base64," + data
}

// userPart maps a user message part: text, images (URL or base64, with
// providerOptions.openai.imageDetail), wav/mp3 audio and PDF files.
func userPart(p model.Part) (openai.ChatCompletionContentPartUnionParam, error) {
	switch p.Type {
	case model.MessageText:
		return openai.TextContentPart(p.Text), nil
	case model.MessageImage:
		return imagePart(p), nil
	case model.MessageFile:
		mt := p.MediaType
		switch {
		case strings.HasPrefix(mt, "image/"):
			return imagePart(p), nil
		case mt == "audio/wav" || mt == "audio/mp3" || mt == "audio/mpeg":
			if isURL(p.Data) {
				return openai.ChatCompletionContentPartUnionParam{}, fmt.Errorf("audio file parts with URLs are not supported")
			}
			format := "mp3"
			if mt == "audio/wav" {
				format = "wav"
			}
			return openai.InputAudioContentPart(openai.ChatCompletionContentPartInputAudioInputAudioParam{Data: p.Data, Format: format}), nil
		case mt == "application/pdf":
			if strings.HasPrefix(p.Data, "http://") || strings.HasPrefix(p.Data, "https://") {
				return openai.ChatCompletionContentPartUnionParam{}, fmt.Errorf("PDF file parts with URLs are not supported")
			}
			f := openai.ChatCompletionContentPartFileFileParam{}
			if strings.HasPrefix(p.Data, "file-") {
				f.FileID = openai.String(p.Data)
			} else {
				name := p.Filename
				if name == "" {
					name = "part.pdf"
				}
				f.Filename = openai.String(name)
				f.FileData = openai.String(dataURL(p.Data, mt))
			}
			return openai.FileContentPart(f), nil
		}
		return openai.ChatCompletionContentPartUnionParam{}, fmt.Errorf("file part media type %q is not supported", mt)
	}
	return openai.ChatCompletionContentPartUnionParam{}, fmt.Errorf("user message part type %q is not supported", p.Type)
}

func imagePart(p model.Part) openai.ChatCompletionContentPartUnionParam {
	mt := p.MediaType
	if mt == "" || mt == "image/*" {
		mt = "image/jpeg"
	}
	img := openai.ChatCompletionContentPartImageImageURLParam{URL: dataURL(p.Data, mt)}
	if d, ok := p.ProviderOptions["openai"]["imageDetail"].(string); ok {
		img.Detail = d
	}
	return openai.ImageContentPart(img)
}
