package openai

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// functionCall is a function call whose arguments are streaming.
type functionCall struct{ id, name string }

// state turns Responses API events into stream parts as the AI SDK's
// OpenAIResponsesLanguageModel.doStream does.
type state struct {
	metaKey      string
	responseID   string
	calls        map[int64]*functionCall // function calls by output index
	hasCall      bool
	finishReason model.FinishReason
	rawFinish    string
	usage        model.Usage
	// webSearchName is the model-facing name of the request's web search
	// tool, the toolName of its provider-executed calls.
	webSearchName string
	sources       int
}

func newState(metaKey, webSearchName string) *state {
	return &state{metaKey: metaKey, finishReason: model.FinishUnknown, calls: map[int64]*functionCall{}, webSearchName: webSearchName}
}

// finish yields the finish part.
func (s *state) finish(yield core.Yield) {
	md := map[string]any{}
	if s.responseID != "" {
		md["responseId"] = s.responseID
	}
	yield(model.StreamPart{
		Type: model.PartFinish, FinishReason: s.finishReason, RawFinishReason: s.rawFinish,
		Usage: s.usage, ProviderMetadata: model.ProviderMetadata{s.metaKey: md},
	}, nil)
}

// webSearchToolName is the name of the request's provider-defined web
// search tool ("web_search" when it has none).
func webSearchToolName(defs []model.ToolDefinition) string {
	for _, d := range defs {
		if d.Type == model.ToolTypeProviderDefined && isWebSearchTool(d.ID) && d.Name != "" {
			return d.Name
		}
	}
	return "web_search"
}

// isWebSearchTool tells the provider-defined tool ids the Responses API
// serves as {"type":"web_search"} (xAI's Responses API takes the same).
func isWebSearchTool(id string) bool {
	return id == "openai.web_search" || id == "openai.web_search_preview" || id == "xai.web_search"
}

// event handles one event; false means stop (the consumer stopped or an
// error part ended the stream).
func (s *state) event(e responses.ResponseStreamEventUnion, yield core.Yield) bool {
	switch e.Type {
	case "response.created":
		r := e.Response
		s.responseID = r.ID
		md := &model.ResponseMetadata{ID: r.ID, ModelID: string(r.Model)}
		if r.CreatedAt != 0 {
			md.Timestamp = time.Unix(int64(r.CreatedAt), 0).UTC()
		}
		return yield(model.StreamPart{Type: model.PartResponseMetadata, Response: md}, nil)
	case "response.output_item.added":
		switch it := e.Item; it.Type {
		case "function_call":
			call := &functionCall{id: it.CallID, name: it.Name}
			s.calls[e.OutputIndex] = call
			return yield(model.StreamPart{Type: model.PartToolInputStart, ID: call.id, ToolName: call.name}, nil)
		case "message":
			return yield(model.StreamPart{Type: model.PartTextStart, ID: it.ID, ProviderMetadata: s.item(it.ID)}, nil)
		case "reasoning":
			return yield(model.StreamPart{Type: model.PartReasoningStart, ID: it.ID + ":0", ProviderMetadata: s.item(it.ID)}, nil)
		case "web_search_call":
			// The provider's own search, as the AI SDK reports it: a
			// provider-executed call with no input, its result when done.
			return yield(model.StreamPart{Type: model.PartToolInputStart, ID: it.ID, ToolName: s.webSearchName, ProviderExecuted: true}, nil) &&
				yield(model.StreamPart{Type: model.PartToolInputEnd, ID: it.ID}, nil) &&
				yield(model.StreamPart{Type: model.PartToolCall, ToolCallID: it.ID, ToolName: s.webSearchName, Input: "{}", ProviderExecuted: true}, nil)
		}
	case "response.output_text.annotation.added":
		if a := e.Annotation; a.Type == "url_citation" {
			s.sources++
			return yield(model.StreamPart{Type: model.PartSource, Source: &model.Source{SourceType: "url", ID: fmt.Sprintf("%s-source-%d", s.responseID, s.sources), URL: a.URL, Title: a.Title}}, nil)
		}
	case "response.function_call_arguments.delta":
		if call := s.calls[e.OutputIndex]; call != nil {
			return yield(model.StreamPart{Type: model.PartToolInputDelta, ID: call.id, Delta: e.Delta}, nil)
		}
	case "response.output_text.delta":
		return yield(model.StreamPart{Type: model.PartTextDelta, ID: e.ItemID, Delta: e.Delta}, nil)
	case "response.reasoning_summary_text.delta":
		return yield(model.StreamPart{Type: model.PartReasoningDelta, ID: fmt.Sprintf("%s:%d", e.ItemID, e.SummaryIndex), Delta: e.Delta, ProviderMetadata: s.item(e.ItemID)}, nil)
	case "response.output_item.done":
		switch it := e.Item; it.Type {
		case "function_call":
			s.hasCall = true
			delete(s.calls, e.OutputIndex)
			if !yield(model.StreamPart{Type: model.PartToolInputEnd, ID: it.CallID}, nil) {
				return false
			}
			args := it.Arguments.OfString
			if args == "" {
				args = "{}"
			}
			return yield(model.StreamPart{Type: model.PartToolCall, ToolCallID: it.CallID, ToolName: it.Name, Input: args, ProviderMetadata: s.item(it.ID)}, nil)
		case "message":
			return yield(model.StreamPart{Type: model.PartTextEnd, ID: it.ID, ProviderMetadata: s.item(it.ID)}, nil)
		case "reasoning":
			return yield(model.StreamPart{Type: model.PartReasoningEnd, ID: it.ID + ":0", ProviderMetadata: s.item(it.ID)}, nil)
		case "web_search_call":
			return yield(model.StreamPart{Type: model.PartToolResult, ToolCallID: it.ID, ToolName: s.webSearchName, Result: webSearchOutput(it.Action), ProviderExecuted: true}, nil)
		}
	case "response.completed", "response.incomplete":
		r := e.Response
		s.rawFinish = r.IncompleteDetails.Reason
		s.finishReason = mapResponsesFinishReason(r.IncompleteDetails.Reason, s.hasCall)
		u := r.Usage
		s.usage = model.Usage{
			InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens), TotalTokens: int(u.TotalTokens),
			CachedInputTokens: int(u.InputTokensDetails.CachedTokens), ReasoningTokens: int(u.OutputTokensDetails.ReasoningTokens),
		}
		if s.usage.TotalTokens == 0 {
			s.usage.TotalTokens = s.usage.InputTokens + s.usage.OutputTokens
		}
	case "response.failed":
		msg := e.Response.Error.Message
		if msg == "" {
			msg = "response failed"
		}
		yield(model.StreamPart{Type: model.PartError, Err: fmt.Errorf("openai: %s", msg)}, nil)
		return false
	case "error":
		yield(model.StreamPart{Type: model.PartError, Err: fmt.Errorf("openai: %s (code %s)", e.Message, e.Code)}, nil)
		return false
	}
	return true
}

func (s *state) item(id string) model.ProviderMetadata {
	return model.ProviderMetadata{s.metaKey: {"itemId": id}}
}

// mapResponsesFinishReason maps incomplete_details.reason as the AI SDK's
// mapOpenAIResponseFinishReason does.
func mapResponsesFinishReason(reason string, hasCall bool) model.FinishReason {
	switch reason {
	case "":
		if hasCall {
			return model.FinishToolCalls
		}
		return model.FinishStop
	case "max_output_tokens":
		return model.FinishLength
	case "content_filter":
		return model.FinishContentFilter
	}
	if hasCall {
		return model.FinishToolCalls
	}
	return model.FinishUnknown
}

// params maps a request to Responses API parameters, with the warnings
// the AI SDK reports for what it drops.
func (m *Model) params(req *model.Request) (responses.ResponseNewParams, []model.Warning, error) {
	var warnings []model.Warning
	p := responses.ResponseNewParams{Model: shared.ResponsesModel(m.base.ModelID())}
	input, err := responsesInput(req.Messages)
	if err != nil {
		return p, nil, err
	}
	p.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}

	s := req.Settings
	if s.MaxOutputTokens != nil {
		p.MaxOutputTokens = param.NewOpt(int64(*s.MaxOutputTokens))
	}
	if s.Temperature != nil {
		p.Temperature = param.NewOpt(*s.Temperature)
	}
	if s.TopP != nil {
		p.TopP = param.NewOpt(*s.TopP)
	}
	for name, set := range map[string]bool{
		"topK": s.TopK != nil, "seed": s.Seed != nil, "presencePenalty": s.PresencePenalty != nil,
		"frequencyPenalty": s.FrequencyPenalty != nil, "stopSequences": len(s.StopSequences) > 0,
	} {
		if set {
			warnings = append(warnings, model.Warning{Type: "unsupported-setting", Setting: name})
		}
	}
	sortWarnings(warnings)

	opts := m.base.ProviderOptions(req.ProviderOptions)
	if rf := req.ResponseFormat; rf != nil && rf.Type == "json" {
		if rf.Schema != nil {
			raw, err := json.Marshal(rf.Schema)
			if err != nil {
				return p, nil, fmt.Errorf("openai: response format schema: %w", err)
			}
			var schema map[string]any
			if err := json.Unmarshal(raw, &schema); err != nil {
				return p, nil, fmt.Errorf("openai: response format schema: %w", err)
			}
			name := rf.Name
			if name == "" {
				name = "response"
			}
			js := &responses.ResponseFormatTextJSONSchemaConfigParam{Name: name, Schema: schema}
			if rf.Description != "" {
				js.Description = param.NewOpt(rf.Description)
			}
			if b, ok := opts["strictJsonSchema"].(bool); ok {
				js.Strict = param.NewOpt(b)
			}
			p.Text.Format.OfJSONSchema = js
		} else {
			p.Text.Format.OfJSONObject = &shared.ResponseFormatJSONObjectParam{}
		}
	}

	var tools []responses.ToolUnionParam
	for _, d := range req.Tools {
		switch {
		case d.Type == "" || d.Type == model.ToolTypeFunction:
			params := map[string]any{"type": "object", "properties": map[string]any{}}
			if d.InputSchema != nil {
				raw, err := json.Marshal(d.InputSchema)
				if err != nil {
					return p, nil, fmt.Errorf("openai: tool %q input schema: %w", d.Name, err)
				}
				params = nil
				if err := json.Unmarshal(raw, &params); err != nil {
					return p, nil, fmt.Errorf("openai: tool %q input schema: %w", d.Name, err)
				}
			}
			ft := &responses.FunctionToolParam{Name: d.Name, Parameters: params}
			if d.Description != "" {
				ft.Description = param.NewOpt(d.Description)
			}
			if d.Strict != nil {
				ft.Strict = param.NewOpt(*d.Strict)
			}
			tools = append(tools, responses.ToolUnionParam{OfFunction: ft})
		case isWebSearchTool(d.ID):
			tools = append(tools, responses.ToolUnionParam{OfWebSearch: &responses.WebSearchToolParam{Type: responses.WebSearchToolTypeWebSearch}})
		default:
			warnings = append(warnings, model.Warning{Type: "unsupported-tool", Details: d.Name})
		}
	}
	if len(tools) > 0 {
		p.Tools = tools
		switch tc := req.ToolChoice; tc.Type {
		case "":
		case "auto", "none", "required":
			p.ToolChoice.OfToolChoiceMode = param.NewOpt(responses.ToolChoiceOptions(tc.Type))
		case "tool":
			p.ToolChoice.OfFunctionTool = &responses.ToolChoiceFunctionParam{Name: tc.ToolName}
		default:
			return p, nil, fmt.Errorf("openai: unsupported tool choice %q", tc.Type)
		}
	}

	if b, ok := opts["parallelToolCalls"].(bool); ok {
		p.ParallelToolCalls = param.NewOpt(b)
	}
	if v, ok := opts["user"].(string); ok {
		p.User = param.NewOpt(v)
	}
	if b, ok := opts["store"].(bool); ok {
		p.Store = param.NewOpt(b)
	}
	if v, ok := opts["previousResponseId"].(string); ok {
		p.PreviousResponseID = param.NewOpt(v)
	}
	if v, ok := opts["instructions"].(string); ok {
		p.Instructions = param.NewOpt(v)
	}
	if v, ok := opts["reasoningEffort"].(string); ok {
		p.Reasoning.Effort = shared.ReasoningEffort(v)
	}
	if v, ok := opts["reasoningSummary"].(string); ok {
		p.Reasoning.Summary = shared.ReasoningSummary(v)
	}
	return p, warnings, nil
}

func sortWarnings(ws []model.Warning) {
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && ws[j].Setting < ws[j-1].Setting; j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
}

// responsesInput converts a prompt to Responses input items.
func responsesInput(msgs []model.Message) (responses.ResponseInputParam, error) {
	var out responses.ResponseInputParam
	for i, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			out = append(out, responses.ResponseInputItemParamOfMessage(m.TextContent(), responses.EasyInputMessageRoleSystem))
		case model.RoleUser:
			var content responses.ResponseInputMessageContentListParam
			for j, part := range m.Content {
				switch {
				case part.Type == model.MessageText:
					content = append(content, responses.ResponseInputContentParamOfInputText(part.Text))
				case part.Type == model.MessageImage || (part.Type == model.MessageFile && strings.HasPrefix(part.MediaType, "image/")):
					mt := part.MediaType
					if mt == "" || mt == "image/*" {
						mt = "image/jpeg"
					}
					img := &responses.ResponseInputImageParam{Detail: responses.ResponseInputImageDetailAuto}
					if d, ok := part.ProviderOptions["openai"]["imageDetail"].(string); ok {
						img.Detail = responses.ResponseInputImageDetail(d)
					}
					if strings.HasPrefix(part.Data, "file-") {
						img.FileID = param.NewOpt(part.Data)
					} else {
						img.ImageURL = param.NewOpt(core.DataURL(part.Data, mt))
					}
					content = append(content, responses.ResponseInputContentUnionParam{OfInputImage: img})
				case part.Type == model.MessageFile:
					f := &responses.ResponseInputFileParam{}
					switch {
					case strings.HasPrefix(part.Data, "file-"):
						f.FileID = param.NewOpt(part.Data)
					case strings.HasPrefix(part.Data, "http://") || strings.HasPrefix(part.Data, "https://"):
						f.FileURL = param.NewOpt(part.Data)
					default:
						name := part.Filename
						if name == "" {
							name = fmt.Sprintf("part-%d", j)
						}
						f.Filename = param.NewOpt(name)
						f.FileData = param.NewOpt(core.DataURL(part.Data, part.MediaType))
					}
					content = append(content, responses.ResponseInputContentUnionParam{OfInputFile: f})
				default:
					return nil, fmt.Errorf("openai: message %d part %d: user message part type %q is not supported", i, j, part.Type)
				}
			}
			out = append(out, responses.ResponseInputItemParamOfMessage(content, responses.EasyInputMessageRoleUser))
		case model.RoleAssistant:
			for _, part := range m.Content {
				switch part.Type {
				case model.MessageText:
					out = append(out, responses.ResponseInputItemParamOfMessage(part.Text, responses.EasyInputMessageRoleAssistant))
				case model.MessageToolCall:
					if part.ToolCall == nil || part.ToolCall.ProviderExecuted {
						continue
					}
					out = append(out, responses.ResponseInputItemParamOfFunctionCall(core.JSONText(part.ToolCall.Input), part.ToolCall.ToolCallID, part.ToolCall.ToolName))
				}
			}
		case model.RoleTool:
			for _, part := range m.Content {
				if part.Type != model.MessageToolResult || part.ToolResult == nil {
					continue
				}
				tr := part.ToolResult
				var item responses.ResponseInputItemUnionParam
				if tr.Output.Type == model.OutputContent {
					item = responses.ResponseInputItemParamOfFunctionCallOutput(functionOutputItems(tr.Output))
				} else {
					text, err := core.ToolResultText(tr.Output)
					if err != nil {
						return nil, fmt.Errorf("openai: message %d: tool result %s: %w", i, tr.ToolCallID, err)
					}
					item = responses.ResponseInputItemParamOfFunctionCallOutput(text)
				}
				item.OfFunctionCallOutput.CallID = param.NewOpt(tr.ToolCallID)
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
func functionOutputItems(o model.ToolResultOutput) responses.ResponseFunctionCallOutputItemListParam {
	parts, _ := o.Value.([]model.ContentPart)
	items := responses.ResponseFunctionCallOutputItemListParam{}
	for _, p := range parts {
		switch {
		case p.Type == model.PartText:
			items = append(items, responses.ResponseFunctionCallOutputItemParamOfInputText(p.Text))
		case p.Type == model.PartImageURL:
			items = append(items, responses.ResponseFunctionCallOutputItemUnionParam{OfInputImage: &responses.ResponseInputImageContentParam{ImageURL: param.NewOpt(p.URL)}})
		case p.Type == model.PartImageData || (p.Type == model.PartMedia && strings.HasPrefix(p.MediaType, "image/")):
			mt := p.MediaType
			if mt == "" {
				mt = model.DefaultImageMediaType
			}
			items = append(items, responses.ResponseFunctionCallOutputItemUnionParam{OfInputImage: &responses.ResponseInputImageContentParam{ImageURL: param.NewOpt(core.DataURL(p.Data, mt))}})
		case p.Type == model.PartFileData || p.Type == model.PartMedia:
			f := &responses.ResponseInputFileContentParam{FileData: param.NewOpt(core.DataURL(p.Data, p.MediaType))}
			if p.Filename != "" {
				f.Filename = param.NewOpt(p.Filename)
			}
			items = append(items, responses.ResponseFunctionCallOutputItemUnionParam{OfInputFile: f})
		default:
			b, _ := json.Marshal(p)
			items = append(items, responses.ResponseFunctionCallOutputItemParamOfInputText(string(b)))
		}
	}
	return items
}

// webSearchOutput is a web_search_call's result as the AI SDK maps it:
// {action: {type: "search", query, queries?}, sources?}, {action: {type:
// "openPage", url}}, {action: {type: "findInPage", url, pattern}}, or {}.
func webSearchOutput(a responses.ResponseOutputItemUnionAction) map[string]any {
	switch a.Type {
	case "search":
		action := map[string]any{"type": "search"}
		if a.Query != "" {
			action["query"] = a.Query
		}
		if a.Queries != nil {
			action["queries"] = a.Queries
		}
		out := map[string]any{"action": action}
		if a.Sources != nil {
			sources := make([]map[string]any, 0, len(a.Sources))
			for _, src := range a.Sources {
				sources = append(sources, map[string]any{"type": string(src.Type), "url": src.URL})
			}
			out["sources"] = sources
		}
		return out
	case "open_page":
		return map[string]any{"action": map[string]any{"type": "openPage", "url": a.URL}}
	case "find_in_page":
		return map[string]any{"action": map[string]any{"type": "findInPage", "url": a.URL, "pattern": a.Pattern}}
	}
	return map[string]any{}
}
