package google

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/gomastra/mastra/model"
)

// toolImageNote is the text the AI SDK adds after an image a tool
// returned.
const toolImageNote = "Tool executed successfully and returned this image as a response"

// buildRequest maps a model request to the SDK's contents and config, and
// returns the warnings for what it dropped.
func buildRequest(req *model.Request) ([]*genai.Content, *genai.GenerateContentConfig, []model.Warning, error) {
	var warnings []model.Warning
	contents, system, err := convertMessages(req.Messages)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := &genai.GenerateContentConfig{SystemInstruction: system}

	s := req.Settings
	if s.MaxOutputTokens != nil {
		cfg.MaxOutputTokens = int32(*s.MaxOutputTokens)
	}
	cfg.Temperature = f32(s.Temperature)
	cfg.TopP = f32(s.TopP)
	if s.TopK != nil {
		k := float32(*s.TopK)
		cfg.TopK = &k
	}
	cfg.PresencePenalty = f32(s.PresencePenalty)
	cfg.FrequencyPenalty = f32(s.FrequencyPenalty)
	cfg.StopSequences = s.StopSequences
	if s.Seed != nil {
		seed := int32(*s.Seed)
		cfg.Seed = &seed
	}

	if rf := req.ResponseFormat; rf != nil && rf.Type == "json" {
		cfg.ResponseMIMEType = "application/json"
		if rf.Schema != nil {
			js, err := schemaJSON(rf.Schema)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("google: response schema: %w", err)
			}
			cfg.ResponseJsonSchema = js
		}
	}

	tools, toolWarnings, err := convertTools(req.Tools)
	if err != nil {
		return nil, nil, nil, err
	}
	warnings = append(warnings, toolWarnings...)
	if tools != nil {
		cfg.Tools = []*genai.Tool{tools}
		cfg.ToolConfig = convertToolChoice(req.ToolChoice)
	}

	if len(req.Headers) > 0 {
		cfg.HTTPOptions = &genai.HTTPOptions{Headers: toHeader(req.Headers)}
	}
	if s.MaxRetries != nil {
		if cfg.HTTPOptions == nil {
			cfg.HTTPOptions = &genai.HTTPOptions{}
		}
		attempts := int32(*s.MaxRetries + 1)
		cfg.HTTPOptions.RetryOptions = &genai.HTTPRetryOptions{Attempts: &attempts}
	}
	return contents, cfg, warnings, nil
}

func f32(p *float64) *float32 {
	if p == nil {
		return nil
	}
	v := float32(*p)
	return &v
}

// schemaJSON returns a JSON schema as a decoded JSON value, without the
// "$schema" keyword Gemini does not take.
func schemaJSON(s any) (map[string]any, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "$schema")
	return m, nil
}

// convertMessages maps the prompt as the AI SDK's
// convertToGoogleGenerativeAIMessages does.
func convertMessages(msgs []model.Message) ([]*genai.Content, *genai.Content, error) {
	var (
		contents      []*genai.Content
		systemParts   []*genai.Part
		systemAllowed = true
	)
	for _, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			if !systemAllowed {
				return nil, nil, errors.New("google: system messages are only supported at the beginning of the conversation")
			}
			systemParts = append(systemParts, &genai.Part{Text: m.TextContent()})
		case model.RoleUser:
			systemAllowed = false
			var parts []*genai.Part
			for _, p := range m.Content {
				switch p.Type {
				case model.MessageText:
					parts = append(parts, &genai.Part{Text: p.Text})
				case model.MessageImage, model.MessageFile:
					fp, err := filePart(p)
					if err != nil {
						return nil, nil, err
					}
					parts = append(parts, fp)
				default:
					return nil, nil, fmt.Errorf("google: unsupported user message part %q", p.Type)
				}
			}
			contents = append(contents, &genai.Content{Role: genai.RoleUser, Parts: parts})
		case model.RoleAssistant:
			systemAllowed = false
			var parts []*genai.Part
			for _, p := range m.Content {
				switch p.Type {
				case model.MessageText:
					if p.Text == "" {
						continue
					}
					parts = append(parts, &genai.Part{Text: p.Text, ThoughtSignature: thoughtSignature(p.ProviderOptions)})
				case model.MessageReasoning:
					if p.Text == "" {
						continue
					}
					parts = append(parts, &genai.Part{Text: p.Text, Thought: true, ThoughtSignature: thoughtSignature(p.ProviderOptions)})
				case model.MessageFile, model.MessageImage:
					fp, err := filePart(p)
					if err != nil {
						return nil, nil, err
					}
					parts = append(parts, fp)
				case model.MessageToolCall:
					tc := p.ToolCall
					if tc == nil {
						return nil, nil, errors.New("google: tool-call part without ToolCall")
					}
					if tc.ProviderExecuted {
						continue
					}
					args := map[string]any{}
					if len(tc.Input) > 0 {
						if err := json.Unmarshal(tc.Input, &args); err != nil {
							return nil, nil, fmt.Errorf("google: tool call %s: input is not a JSON object: %w", tc.ToolCallID, err)
						}
					}
					parts = append(parts, &genai.Part{
						FunctionCall:     &genai.FunctionCall{Name: tc.ToolName, Args: args},
						ThoughtSignature: thoughtSignature(tc.ProviderOptions),
					})
				case model.MessageToolResult:
					// Provider-executed results are not sent back.
				default:
					return nil, nil, fmt.Errorf("google: unsupported assistant message part %q", p.Type)
				}
			}
			contents = append(contents, &genai.Content{Role: genai.RoleModel, Parts: parts})
		case model.RoleTool:
			systemAllowed = false
			var parts []*genai.Part
			for _, p := range m.Content {
				tr := p.ToolResult
				if p.Type != model.MessageToolResult || tr == nil {
					return nil, nil, fmt.Errorf("google: unsupported tool message part %q", p.Type)
				}
				ps, err := toolResultParts(tr)
				if err != nil {
					return nil, nil, err
				}
				parts = append(parts, ps...)
			}
			contents = append(contents, &genai.Content{Role: genai.RoleUser, Parts: parts})
		default:
			return nil, nil, fmt.Errorf("google: unsupported message role %q", m.Role)
		}
	}
	var system *genai.Content
	if len(systemParts) > 0 {
		system = &genai.Content{Parts: systemParts}
	}
	return contents, system, nil
}

// toolResultParts maps one tool result: a functionResponse whose response
// is {name, content}, content being the output's value; a "content"
// output gives one part per content part.
func toolResultParts(tr *model.ToolResultPart) ([]*genai.Part, error) {
	fr := func(content any) *genai.Part {
		return &genai.Part{FunctionResponse: &genai.FunctionResponse{
			Name:     tr.ToolName,
			Response: map[string]any{"name": tr.ToolName, "content": content},
		}}
	}
	out := tr.Output
	switch out.Type {
	case model.OutputContent:
		cps, ok := out.Value.([]model.ContentPart)
		if !ok {
			parsed, err := model.ParseToolResultOutput(out)
			if err != nil {
				return nil, fmt.Errorf("google: tool result %s: %w", tr.ToolCallID, err)
			}
			cps, _ = parsed.Value.([]model.ContentPart)
		}
		var parts []*genai.Part
		for _, cp := range cps {
			switch cp.Type {
			case model.PartText:
				parts = append(parts, fr(cp.Text))
			case model.PartMedia, model.PartImageData, model.PartFileData:
				data, mt, err := decodeData(cp.Data, cp.MediaType)
				if err != nil {
					return nil, fmt.Errorf("google: tool result %s: %w", tr.ToolCallID, err)
				}
				parts = append(parts,
					&genai.Part{InlineData: &genai.Blob{MIMEType: mt, Data: data}},
					&genai.Part{Text: toolImageNote})
			default:
				b, err := json.Marshal(cp)
				if err != nil {
					return nil, err
				}
				parts = append(parts, &genai.Part{Text: string(b)})
			}
		}
		return parts, nil
	case model.OutputExecutionDenied:
		reason := out.Reason
		if reason == "" {
			reason = "Tool execution denied."
		}
		return []*genai.Part{fr(reason)}, nil
	default:
		v, err := jsonValue(out.Value)
		if err != nil {
			return nil, fmt.Errorf("google: tool result %s: %w", tr.ToolCallID, err)
		}
		return []*genai.Part{fr(v)}, nil
	}
}

// jsonValue round-trips v through JSON so that Go values (structs) reach
// the request as the JSON their marshalling gives.
func jsonValue(v any) (any, error) {
	switch v.(type) {
	case nil, string, bool, float64, map[string]any, []any:
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// filePart maps an image or file part: a URL becomes fileData, base64 or
// a data: URI inlineData.
func filePart(p model.Part) (*genai.Part, error) {
	mt := p.MediaType
	if p.Type == model.MessageImage && (mt == "" || mt == "image/*") {
		mt = "image/jpeg"
	}
	if strings.HasPrefix(p.Data, "http://") || strings.HasPrefix(p.Data, "https://") || strings.HasPrefix(p.Data, "gs://") {
		return &genai.Part{FileData: &genai.FileData{MIMEType: mt, FileURI: p.Data}}, nil
	}
	data, mt, err := decodeData(p.Data, mt)
	if err != nil {
		return nil, err
	}
	return &genai.Part{InlineData: &genai.Blob{MIMEType: mt, Data: data}}, nil
}

// decodeData decodes base64 data or a base64 data: URI (whose media type
// is used when mediaType is empty).
func decodeData(s, mediaType string) ([]byte, string, error) {
	if rest, ok := strings.CutPrefix(s, "data:"); ok {
		meta, payload, found := strings.Cut(rest, ",")
		if !found || !strings.HasSuffix(meta, ";base64") {
			return nil, "", errors.New("google: only base64 data: URIs are supported")
		}
		if mediaType == "" || mediaType == "image/*" {
			mediaType = strings.TrimSuffix(meta, ";base64")
		}
		s = payload
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		if err != nil {
			return nil, "", fmt.Errorf("google: file data is not base64: %w", err)
		}
	}
	if mediaType == "" {
		mediaType = model.DefaultFileMediaType
	}
	return b, mediaType, nil
}

// thoughtSignature reads providerOptions.google.thoughtSignature (the
// base64 signature a previous response's part carried).
func thoughtSignature(po model.ProviderOptions) []byte {
	s, _ := po[ProviderName]["thoughtSignature"].(string)
	if s == "" {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil
	}
	return b
}

// convertTools maps function tools to one tool of function declarations,
// with Google Search when the request offers google.google_search (its
// results come back as grounding metadata, reported as sources); other
// provider-defined tools are dropped with a warning.
func convertTools(defs []model.ToolDefinition) (*genai.Tool, []model.Warning, error) {
	var (
		decls    []*genai.FunctionDeclaration
		warnings []model.Warning
		search   *genai.GoogleSearch
	)
	for _, d := range defs {
		if d.Type == model.ToolTypeProviderDefined {
			if d.ID == "google.google_search" {
				search = &genai.GoogleSearch{}
				continue
			}
			warnings = append(warnings, model.Warning{Type: "unsupported-tool", Details: "provider-defined tool " + d.ID + " is not supported"})
			continue
		}
		fd := &genai.FunctionDeclaration{Name: d.Name, Description: d.Description}
		if d.InputSchema != nil {
			js, err := schemaJSON(d.InputSchema)
			if err != nil {
				return nil, nil, fmt.Errorf("google: tool %s: input schema: %w", d.Name, err)
			}
			// As the AI SDK: an object schema without properties is no
			// parameters at all.
			props, _ := js["properties"].(map[string]any)
			if !(js["type"] == "object" && len(props) == 0) {
				fd.ParametersJsonSchema = js
			}
		}
		decls = append(decls, fd)
	}
	if len(decls) == 0 && search == nil {
		return nil, warnings, nil
	}
	return &genai.Tool{FunctionDeclarations: decls, GoogleSearch: search}, warnings, nil
}

func convertToolChoice(tc model.ToolChoice) *genai.ToolConfig {
	var fc *genai.FunctionCallingConfig
	switch tc.Type {
	case "":
		return nil
	case "auto":
		fc = &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAuto}
	case "none":
		fc = &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeNone}
	case "required":
		fc = &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAny}
	case "tool":
		fc = &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAny, AllowedFunctionNames: []string{tc.ToolName}}
	default:
		return nil
	}
	return &genai.ToolConfig{FunctionCallingConfig: fc}
}
