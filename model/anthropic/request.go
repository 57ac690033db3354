package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/gomastra/mastra/model"
)

// buildRequest maps a model.Request to the SDK's parameters, per-call
// options (settings the SDK has no field for, headers, retries) and
// warnings.
func (m *Model) buildRequest(req *model.Request) (sdk.MessageNewParams, []option.RequestOption, []model.Warning, error) {
	var (
		p        sdk.MessageNewParams
		opts     []option.RequestOption
		warnings []model.Warning
	)
	p.Model = sdk.Model(m.modelID)
	s := req.Settings
	anth := req.ProviderOptions["anthropic"]

	p.MaxTokens = DefaultMaxTokens
	if s.MaxOutputTokens != nil {
		p.MaxTokens = int64(*s.MaxOutputTokens)
	}
	thinking := false
	if th, ok := anth["thinking"].(map[string]any); ok && th["type"] == "enabled" {
		thinking = true
		budget := toInt(th["budgetTokens"])
		if budget <= 0 {
			return p, nil, nil, fmt.Errorf("anthropic: providerOptions.anthropic.thinking needs a positive budgetTokens")
		}
		opts = append(opts, option.WithJSONSet("thinking", map[string]any{"type": "enabled", "budget_tokens": budget}))
		p.MaxTokens += int64(budget)
	}
	setting := func(name, key string, v any) {
		if thinking {
			warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: name, Details: name + " is not supported when thinking is enabled"})
			return
		}
		opts = append(opts, option.WithJSONSet(key, v))
	}
	if s.Temperature != nil {
		setting("temperature", "temperature", *s.Temperature)
	}
	if s.TopP != nil {
		setting("topP", "top_p", *s.TopP)
	}
	if s.TopK != nil {
		setting("topK", "top_k", *s.TopK)
	}
	p.StopSequences = s.StopSequences
	if s.FrequencyPenalty != nil {
		warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: "frequencyPenalty"})
	}
	if s.PresencePenalty != nil {
		warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: "presencePenalty"})
	}
	if s.Seed != nil {
		warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: "seed"})
	}
	if req.ResponseFormat != nil && req.ResponseFormat.Type == "json" {
		warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: "responseFormat",
			Details: "JSON response format is not supported by this provider yet"})
	}
	if s.MaxRetries != nil {
		opts = append(opts, option.WithMaxRetries(max(0, *s.MaxRetries)))
	}
	for k, v := range req.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}

	sys, msgs, err := convertPrompt(req.Messages)
	if err != nil {
		return p, nil, nil, err
	}
	p.System, p.Messages = sys, msgs

	tools, tw, err := convertTools(req.Tools)
	if err != nil {
		return p, nil, nil, err
	}
	warnings = append(warnings, tw...)
	if len(tools) > 0 {
		p.Tools = tools
		disable, _ := anth["disableParallelToolUse"].(bool)
		var dp param.Opt[bool]
		if disable {
			dp = param.NewOpt(true)
		}
		switch req.ToolChoice.Type {
		case "":
			if disable {
				p.ToolChoice.OfAuto = &sdk.ToolChoiceAutoParam{DisableParallelToolUse: dp}
			}
		case "auto":
			p.ToolChoice.OfAuto = &sdk.ToolChoiceAutoParam{DisableParallelToolUse: dp}
		case "required":
			p.ToolChoice.OfAny = &sdk.ToolChoiceAnyParam{DisableParallelToolUse: dp}
		case "none":
			p.ToolChoice.OfNone = &sdk.ToolChoiceNoneParam{}
		case "tool":
			p.ToolChoice.OfTool = &sdk.ToolChoiceToolParam{Name: req.ToolChoice.ToolName, DisableParallelToolUse: dp}
		default:
			return p, nil, nil, fmt.Errorf("anthropic: unknown tool choice %q", req.ToolChoice.Type)
		}
	}
	return p, opts, warnings, nil
}

func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case float64:
		return int(n)
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}

// cacheControl reads providerOptions.anthropic.cacheControl (or
// cache_control): {type: "ephemeral", ttl?: "5m"|"1h"}.
func cacheControl(po map[string]any) sdk.CacheControlEphemeralParam {
	a, _ := po["anthropic"].(map[string]any)
	cc, ok := a["cacheControl"].(map[string]any)
	if !ok {
		cc, ok = a["cache_control"].(map[string]any)
	}
	var out sdk.CacheControlEphemeralParam
	if !ok {
		return out
	}
	out.Type = "ephemeral"
	if ttl, _ := cc["ttl"].(string); ttl != "" {
		out.TTL = sdk.CacheControlEphemeralTTL(ttl)
	}
	return out
}

func partCache(po model.ProviderOptions) sdk.CacheControlEphemeralParam {
	m := make(map[string]any, len(po))
	for k, v := range po {
		m[k] = v
	}
	return cacheControl(m)
}

func convertTools(defs []model.ToolDefinition) ([]sdk.ToolUnionParam, []model.Warning, error) {
	var (
		out      []sdk.ToolUnionParam
		warnings []model.Warning
	)
	for _, d := range defs {
		if d.Type == model.ToolTypeProviderDefined {
			if d.ID == "anthropic.web_search_20250305" {
				ws := &sdk.WebSearchTool20250305Param{}
				if n, ok := d.Args["maxUses"].(float64); ok {
					ws.MaxUses = param.NewOpt(int64(n))
				} else if n, ok := d.Args["maxUses"].(int); ok {
					ws.MaxUses = param.NewOpt(int64(n))
				}
				ws.AllowedDomains = stringList(d.Args["allowedDomains"])
				ws.BlockedDomains = stringList(d.Args["blockedDomains"])
				out = append(out, sdk.ToolUnionParam{OfWebSearchTool20250305: ws})
				continue
			}
			warnings = append(warnings, model.Warning{Type: "unsupported-tool", Details: "provider-defined tool " + d.ID + " is not supported"})
			continue
		}
		schema := []byte(`{"type":"object","properties":{}}`)
		if d.InputSchema != nil {
			b, err := json.Marshal(d.InputSchema)
			if err != nil {
				return nil, nil, fmt.Errorf("anthropic: tool %q: input schema: %w", d.Name, err)
			}
			schema = b
		}
		t := &sdk.ToolParam{
			Name:         d.Name,
			InputSchema:  param.Override[sdk.ToolInputSchemaParam](json.RawMessage(schema)),
			CacheControl: partCache(d.ProviderOptions),
		}
		if d.Description != "" {
			t.Description = param.NewOpt(d.Description)
		}
		if d.Strict != nil {
			t.Strict = param.NewOpt(*d.Strict)
		}
		if len(d.InputExamples) > 0 {
			t.InputExamples = d.InputExamples
		}
		out = append(out, sdk.ToolUnionParam{OfTool: t})
	}
	return out, warnings, nil
}

// convertPrompt maps the messages: system messages to the system blocks;
// consecutive user and tool messages to one user message, consecutive
// assistant messages to one assistant message (as the AI SDK groups them).
func convertPrompt(msgs []model.Message) ([]sdk.TextBlockParam, []sdk.MessageParam, error) {
	var (
		system []sdk.TextBlockParam
		out    []sdk.MessageParam
		// role of the last message in out: "user" or "assistant"
		last string
	)
	for i, msg := range msgs {
		if msg.Role == model.RoleSystem {
			if len(out) > 0 {
				return nil, nil, fmt.Errorf("anthropic: message %d: system messages must come before the conversation", i)
			}
			system = append(system, sdk.TextBlockParam{Text: msg.TextContent(), CacheControl: partCache(msg.ProviderOptions)})
			continue
		}
		var blocks []sdk.ContentBlockParamUnion
		var role string
		var err error
		switch msg.Role {
		case model.RoleUser:
			role = "user"
			blocks, err = userBlocks(msg)
		case model.RoleTool:
			role = "user"
			blocks, err = toolBlocks(msg)
		case model.RoleAssistant:
			role = "assistant"
			blocks, err = assistantBlocks(msg)
		default:
			err = fmt.Errorf("unknown role %q", msg.Role)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("anthropic: message %d: %w", i, err)
		}
		// Message-level cache control marks the message's last block.
		if cc := partCache(msg.ProviderOptions); cc.Type != "" && len(blocks) > 0 {
			if p := blocks[len(blocks)-1].GetCacheControl(); p != nil {
				*p = cc
			}
		}
		if role == last {
			prev := &out[len(out)-1]
			if role == "user" {
				prev.OfUser.Content = append(prev.OfUser.Content, blocks...)
			} else {
				prev.OfAssistant.Content = append(prev.OfAssistant.Content, blocks...)
			}
			continue
		}
		last = role
		if role == "user" {
			out = append(out, sdk.MessageParam{OfUser: &sdk.UserMessageParam{Content: blocks}})
		} else {
			out = append(out, sdk.MessageParam{OfAssistant: &sdk.AssistantMessageParam{Content: blocks}})
		}
	}
	return system, out, nil
}

func userBlocks(msg model.Message) ([]sdk.ContentBlockParamUnion, error) {
	var out []sdk.ContentBlockParamUnion
	for _, p := range msg.Content {
		cc := partCache(p.ProviderOptions)
		switch p.Type {
		case model.MessageText:
			out = append(out, sdk.ContentBlockParamUnion{OfText: &sdk.TextBlockParam{Text: p.Text, CacheControl: cc}})
		case model.MessageImage:
			img, err := imageBlock(p.Data, p.MediaType)
			if err != nil {
				return nil, err
			}
			img.CacheControl = cc
			out = append(out, sdk.ContentBlockParamUnion{OfImage: img})
		case model.MessageFile:
			switch {
			case strings.HasPrefix(p.MediaType, "image/"):
				img, err := imageBlock(p.Data, p.MediaType)
				if err != nil {
					return nil, err
				}
				img.CacheControl = cc
				out = append(out, sdk.ContentBlockParamUnion{OfImage: img})
			case p.MediaType == "application/pdf":
				doc, err := pdfBlock(p.Data, p.Filename)
				if err != nil {
					return nil, err
				}
				doc.CacheControl = cc
				out = append(out, sdk.ContentBlockParamUnion{OfDocument: doc})
			default:
				return nil, fmt.Errorf("unsupported file media type %q", p.MediaType)
			}
		default:
			return nil, fmt.Errorf("unsupported user part type %q", p.Type)
		}
	}
	return out, nil
}

// splitData returns (url, "", "") for a remote URL, or ("", base64,
// mediaType) for base64 data or a base64 data: URI.
func splitData(data, mediaType string) (url, b64, mt string, err error) {
	if strings.HasPrefix(data, "http://") || strings.HasPrefix(data, "https://") {
		return data, "", "", nil
	}
	if rest, ok := strings.CutPrefix(data, "data:"); ok {
		head, payload, found := strings.Cut(rest, ",")
		if !found || !strings.HasSuffix(head, ";base64") {
			return "", "", "", fmt.Errorf("unsupported data URI (want base64)")
		}
		if m := strings.TrimSuffix(head, ";base64"); m != "" {
			mediaType = m
		}
		return "", payload, mediaType, nil
	}
	return "", data, mediaType, nil
}

func imageBlock(data, mediaType string) (*sdk.ImageBlockParam, error) {
	url, b64, mt, err := splitData(data, mediaType)
	if err != nil {
		return nil, err
	}
	if url != "" {
		return &sdk.ImageBlockParam{Source: sdk.ImageBlockParamSourceUnion{OfURL: &sdk.URLImageSourceParam{URL: url}}}, nil
	}
	if mt == "" || mt == "image/*" {
		mt = "image/jpeg"
	}
	return &sdk.ImageBlockParam{Source: sdk.ImageBlockParamSourceUnion{OfBase64: &sdk.Base64ImageSourceParam{
		Data: b64, MediaType: sdk.Base64ImageSourceMediaType(mt),
	}}}, nil
}

func pdfBlock(data, filename string) (*sdk.DocumentBlockParam, error) {
	url, b64, _, err := splitData(data, "application/pdf")
	if err != nil {
		return nil, err
	}
	doc := &sdk.DocumentBlockParam{}
	if url != "" {
		doc.Source.OfURL = &sdk.URLPDFSourceParam{URL: url}
	} else {
		doc.Source.OfBase64 = &sdk.Base64PDFSourceParam{Data: b64}
	}
	if filename != "" {
		doc.Title = param.NewOpt(filename)
	}
	return doc, nil
}

func assistantBlocks(msg model.Message) ([]sdk.ContentBlockParamUnion, error) {
	var out []sdk.ContentBlockParamUnion
	for _, p := range msg.Content {
		cc := partCache(p.ProviderOptions)
		switch p.Type {
		case model.MessageText:
			out = append(out, sdk.ContentBlockParamUnion{OfText: &sdk.TextBlockParam{Text: p.Text, CacheControl: cc}})
		case model.MessageReasoning:
			// Thinking blocks can only be sent back with their signature
			// (or as redacted data); others are dropped, as the AI SDK does.
			a := p.ProviderOptions["anthropic"]
			if sig, _ := a["signature"].(string); sig != "" {
				out = append(out, sdk.ContentBlockParamUnion{OfThinking: &sdk.ThinkingBlockParam{Thinking: p.Text, Signature: sig}})
			} else if data, _ := a["redactedData"].(string); data != "" {
				out = append(out, sdk.ContentBlockParamUnion{OfRedactedThinking: &sdk.RedactedThinkingBlockParam{Data: data}})
			}
		case model.MessageToolCall:
			tc := p.ToolCall
			if tc == nil {
				return nil, fmt.Errorf("tool-call part without ToolCall")
			}
			if tc.ProviderExecuted {
				continue // server tools are not supported yet
			}
			input := json.RawMessage(tc.Input)
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			if !json.Valid(input) {
				return nil, fmt.Errorf("tool call %s: input is not valid JSON", tc.ToolCallID)
			}
			out = append(out, sdk.ContentBlockParamUnion{OfToolUse: &sdk.ToolUseBlockParam{
				ID: tc.ToolCallID, Name: tc.ToolName, Input: input, CacheControl: partCache(tc.ProviderOptions),
			}})
		case model.MessageFile, model.MessageToolResult:
			// Generated files and provider-executed results are not sent back.
		default:
			return nil, fmt.Errorf("unsupported assistant part type %q", p.Type)
		}
	}
	return out, nil
}

func toolBlocks(msg model.Message) ([]sdk.ContentBlockParamUnion, error) {
	var out []sdk.ContentBlockParamUnion
	for _, p := range msg.Content {
		if p.Type != model.MessageToolResult || p.ToolResult == nil {
			return nil, fmt.Errorf("tool message part of type %q", p.Type)
		}
		tr := p.ToolResult
		b := &sdk.ToolResultBlockParam{ToolUseID: tr.ToolCallID, CacheControl: partCache(tr.ProviderOptions)}
		text := func(s string) {
			b.Content = append(b.Content, sdk.ToolResultBlockParamContentUnion{OfText: &sdk.TextBlockParam{Text: s}})
		}
		o := tr.Output
		switch o.Type {
		case model.OutputText, model.OutputErrorText:
			s, _ := o.Value.(string)
			text(s)
		case model.OutputJSON, model.OutputErrorJSON:
			j, err := json.Marshal(o.Value)
			if err != nil {
				return nil, fmt.Errorf("tool result %s: %w", tr.ToolCallID, err)
			}
			text(string(j))
		case model.OutputExecutionDenied:
			r := o.Reason
			if r == "" {
				r = "Tool execution denied."
			}
			text(r)
		case model.OutputContent:
			parts, err := contentParts(o.Value)
			if err != nil {
				return nil, fmt.Errorf("tool result %s: %w", tr.ToolCallID, err)
			}
			for _, cp := range parts {
				switch cp.Type {
				case model.PartText:
					text(cp.Text)
				case model.PartImageData, model.PartMedia, model.PartImageURL, model.PartFileData:
					data, mt := cp.Data, cp.MediaType
					if cp.Type == model.PartImageURL {
						data = cp.URL
					}
					if cp.Type == model.PartFileData && mt == "application/pdf" {
						doc, err := pdfBlock(data, cp.Filename)
						if err != nil {
							return nil, err
						}
						b.Content = append(b.Content, sdk.ToolResultBlockParamContentUnion{OfDocument: doc})
						continue
					}
					if cp.Type != model.PartImageURL && mt != "" && !strings.HasPrefix(mt, "image/") {
						return nil, fmt.Errorf("tool result %s: unsupported media type %q", tr.ToolCallID, mt)
					}
					img, err := imageBlock(data, mt)
					if err != nil {
						return nil, err
					}
					b.Content = append(b.Content, sdk.ToolResultBlockParamContentUnion{OfImage: img})
				default:
					return nil, fmt.Errorf("tool result %s: unsupported content part %q", tr.ToolCallID, cp.Type)
				}
			}
		default:
			return nil, fmt.Errorf("tool result %s: unknown output type %q", tr.ToolCallID, o.Type)
		}
		if o.Type == model.OutputErrorText || o.Type == model.OutputErrorJSON {
			b.IsError = param.NewOpt(true)
		}
		out = append(out, sdk.ContentBlockParamUnion{OfToolResult: b})
	}
	return out, nil
}

// contentParts returns a "content" output's parts ([]ContentPart, or a
// decoded JSON array).
func contentParts(v any) ([]model.ContentPart, error) {
	if ps, ok := v.([]model.ContentPart); ok {
		return ps, nil
	}
	o, err := model.ParseToolResultOutput(map[string]any{"type": model.OutputContent, "value": v})
	if err != nil {
		return nil, err
	}
	ps, _ := o.Value.([]model.ContentPart)
	return ps, nil
}

// stringList reads a provider tool argument that is a list of strings
// ([]string, or []any of strings as decoded JSON); nil otherwise.
func stringList(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
