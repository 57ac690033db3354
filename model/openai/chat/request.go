package chat

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// params maps a request to Chat Completions parameters, with the warnings
// the AI SDK reports for what it drops.
func (m *Model) params(req *model.Request) (sdk.ChatCompletionNewParams, []model.Warning, error) {
	var warnings []model.Warning
	p := sdk.ChatCompletionNewParams{
		Model:         shared.ChatModel(m.base.ModelID()),
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)},
	}

	msgs, err := chatMessages(req.Messages)
	if err != nil {
		return p, nil, err
	}
	p.Messages = msgs

	s := req.Settings
	if s.MaxOutputTokens != nil {
		p.MaxTokens = sdk.Int(int64(*s.MaxOutputTokens))
	}
	if s.Temperature != nil {
		p.Temperature = sdk.Float(*s.Temperature)
	}
	if s.TopP != nil {
		p.TopP = sdk.Float(*s.TopP)
	}
	if s.TopK != nil {
		warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: "topK"})
	}
	if s.FrequencyPenalty != nil {
		p.FrequencyPenalty = sdk.Float(*s.FrequencyPenalty)
	}
	if s.PresencePenalty != nil {
		p.PresencePenalty = sdk.Float(*s.PresencePenalty)
	}
	if len(s.StopSequences) > 0 {
		p.Stop = sdk.ChatCompletionNewParamsStopUnion{OfStringArray: s.StopSequences}
	}
	if s.Seed != nil {
		p.Seed = sdk.Int(int64(*s.Seed))
	}

	opts := m.base.ProviderOptions(req.ProviderOptions)

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
				js.Description = sdk.String(rf.Description)
			}
			if b, ok := opts["strictJsonSchema"].(bool); ok {
				js.Strict = sdk.Bool(b)
			}
			p.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: js},
			}
		} else {
			p.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{
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

// applyChatProviderOptions passes the AI SDK's OpenAI chat provider
// options through where the SDK has a field for them.
func applyChatProviderOptions(p *sdk.ChatCompletionNewParams, o map[string]any) {
	if b, ok := o["parallelToolCalls"].(bool); ok {
		p.ParallelToolCalls = sdk.Bool(b)
	}
	if s, ok := o["user"].(string); ok {
		p.User = sdk.String(s)
	}
	if s, ok := o["reasoningEffort"].(string); ok {
		p.ReasoningEffort = shared.ReasoningEffort(s)
	}
	if n, ok := number(o["maxCompletionTokens"]); ok {
		p.MaxCompletionTokens = sdk.Int(int64(n))
	}
	if b, ok := o["store"].(bool); ok {
		p.Store = sdk.Bool(b)
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
		p.ServiceTier = sdk.ChatCompletionNewParamsServiceTier(s)
	}
	if s, ok := o["textVerbosity"].(string); ok {
		p.Verbosity = sdk.ChatCompletionNewParamsVerbosity(s)
	}
	if s, ok := o["promptCacheKey"].(string); ok {
		p.PromptCacheKey = sdk.String(s)
	}
	if s, ok := o["safetyIdentifier"].(string); ok {
		p.SafetyIdentifier = sdk.String(s)
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
func chatTools(defs []model.ToolDefinition, tc model.ToolChoice) ([]sdk.ChatCompletionToolUnionParam, sdk.ChatCompletionToolChoiceOptionUnionParam, []model.Warning, error) {
	var (
		tools    []sdk.ChatCompletionToolUnionParam
		choice   sdk.ChatCompletionToolChoiceOptionUnionParam
		warnings []model.Warning
	)
	for _, d := range defs {
		if d.Type != "" && d.Type != model.ToolTypeFunction {
			warnings = append(warnings, model.Warning{Type: "unsupported-tool", Details: d.Name})
			continue
		}
		fn := shared.FunctionDefinitionParam{Name: d.Name}
		if d.Description != "" {
			fn.Description = sdk.String(d.Description)
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
			fn.Strict = sdk.Bool(*d.Strict)
		}
		tools = append(tools, sdk.ChatCompletionFunctionTool(fn))
	}
	if len(tools) == 0 {
		return nil, choice, warnings, nil
	}
	switch tc.Type {
	case "":
	case "auto", "none", "required":
		choice.OfAuto = sdk.String(tc.Type)
	case "tool":
		choice = sdk.ToolChoiceOptionFunctionToolChoice(sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: tc.ToolName})
	default:
		return nil, choice, nil, fmt.Errorf("openai: unsupported tool choice %q", tc.Type)
	}
	return tools, choice, warnings, nil
}

// chatMessages converts a prompt as the AI SDK's
// convertToOpenAIChatMessages does.
func chatMessages(msgs []model.Message) ([]sdk.ChatCompletionMessageParamUnion, error) {
	var out []sdk.ChatCompletionMessageParamUnion
	for i, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			out = append(out, sdk.SystemMessage(m.TextContent()))
		case model.RoleUser:
			if len(m.Content) == 1 && m.Content[0].Type == model.MessageText {
				out = append(out, sdk.UserMessage(m.Content[0].Text))
				continue
			}
			parts := make([]sdk.ChatCompletionContentPartUnionParam, 0, len(m.Content))
			for j, part := range m.Content {
				cp, err := userPart(part)
				if err != nil {
					return nil, fmt.Errorf("openai: message %d part %d: %w", i, j, err)
				}
				parts = append(parts, cp)
			}
			out = append(out, sdk.UserMessage(parts))
		case model.RoleAssistant:
			var text strings.Builder
			var calls []sdk.ChatCompletionMessageToolCallUnionParam
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
					calls = append(calls, sdk.ChatCompletionMessageToolCallUnionParam{
						OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
							ID: part.ToolCall.ToolCallID,
							Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{
								Name: part.ToolCall.ToolName, Arguments: core.JSONText(part.ToolCall.Input),
							},
						},
					})
				}
			}
			a := &sdk.ChatCompletionAssistantMessageParam{ToolCalls: calls}
			a.Content.OfString = sdk.String(text.String())
			out = append(out, sdk.ChatCompletionMessageParamUnion{OfAssistant: a})
		case model.RoleTool:
			for _, part := range m.Content {
				if part.Type != model.MessageToolResult || part.ToolResult == nil {
					continue
				}
				content, err := core.ToolResultText(part.ToolResult.Output)
				if err != nil {
					return nil, fmt.Errorf("openai: message %d: tool result %s: %w", i, part.ToolResult.ToolCallID, err)
				}
				out = append(out, sdk.ToolMessage(content, part.ToolResult.ToolCallID))
			}
		default:
			return nil, fmt.Errorf("openai: message %d: unsupported role %q", i, m.Role)
		}
	}
	return out, nil
}

// userPart maps a user message part: text, images (URL or base64, with
// providerOptions.openai.imageDetail), wav/mp3 audio and PDF files.
func userPart(p model.Part) (sdk.ChatCompletionContentPartUnionParam, error) {
	switch p.Type {
	case model.MessageText:
		return sdk.TextContentPart(p.Text), nil
	case model.MessageImage:
		return imagePart(p), nil
	case model.MessageFile:
		mt := p.MediaType
		switch {
		case strings.HasPrefix(mt, "image/"):
			return imagePart(p), nil
		case mt == "audio/wav" || mt == "audio/mp3" || mt == "audio/mpeg":
			if core.IsURL(p.Data) {
				return sdk.ChatCompletionContentPartUnionParam{}, fmt.Errorf("audio file parts with URLs are not supported")
			}
			format := "mp3"
			if mt == "audio/wav" {
				format = "wav"
			}
			return sdk.InputAudioContentPart(sdk.ChatCompletionContentPartInputAudioInputAudioParam{Data: p.Data, Format: format}), nil
		case mt == "application/pdf":
			if strings.HasPrefix(p.Data, "http://") || strings.HasPrefix(p.Data, "https://") {
				return sdk.ChatCompletionContentPartUnionParam{}, fmt.Errorf("PDF file parts with URLs are not supported")
			}
			f := sdk.ChatCompletionContentPartFileFileParam{}
			if strings.HasPrefix(p.Data, "file-") {
				f.FileID = sdk.String(p.Data)
			} else {
				name := p.Filename
				if name == "" {
					name = "part.pdf"
				}
				f.Filename = sdk.String(name)
				f.FileData = sdk.String(core.DataURL(p.Data, mt))
			}
			return sdk.FileContentPart(f), nil
		}
		return sdk.ChatCompletionContentPartUnionParam{}, fmt.Errorf("file part media type %q is not supported", mt)
	}
	return sdk.ChatCompletionContentPartUnionParam{}, fmt.Errorf("user message part type %q is not supported", p.Type)
}

func imagePart(p model.Part) sdk.ChatCompletionContentPartUnionParam {
	mt := p.MediaType
	if mt == "" || mt == "image/*" {
		mt = "image/jpeg"
	}
	img := sdk.ChatCompletionContentPartImageImageURLParam{URL: core.DataURL(p.Data, mt)}
	if d, ok := p.ProviderOptions["openai"]["imageDetail"].(string); ok {
		img.Detail = d
	}
	return sdk.ImageContentPart(img)
}
