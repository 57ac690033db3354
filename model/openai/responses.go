package openai

import (
	"fmt"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// event is a Responses API stream event: the members the model reads,
// decoded with encoding/json (the SDK's ResponseStreamEventUnion decodes
// every member of every event type through reflection, the bulk of a
// step's time).
type event struct {
	core.ErrorField
	Type         string     `json:"type"`
	OutputIndex  core.Int   `json:"output_index"`
	ItemID       string     `json:"item_id"`
	Delta        string     `json:"delta"`
	SummaryIndex core.Int   `json:"summary_index"`
	Code         string     `json:"code"`
	Message      string     `json:"message"`
	Item         item       `json:"item"`
	Annotation   annotation `json:"annotation"`
	Response     response   `json:"response"`
}

type item struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Action    action `json:"action"`
}

// action is a web_search_call's action.
type action struct {
	Type    string   `json:"type"`
	Query   string   `json:"query"`
	Queries []string `json:"queries"`
	Sources []struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	} `json:"sources"`
	URL     string `json:"url"`
	Pattern string `json:"pattern"`
}

type annotation struct {
	Type  string `json:"type"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

type response struct {
	ID                string  `json:"id"`
	Model             string  `json:"model"`
	CreatedAt         float64 `json:"created_at"`
	IncompleteDetails struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
	Usage struct {
		InputTokens        core.Int `json:"input_tokens"`
		OutputTokens       core.Int `json:"output_tokens"`
		TotalTokens        core.Int `json:"total_tokens"`
		InputTokensDetails struct {
			CachedTokens core.Int `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputTokensDetails struct {
			ReasoningTokens core.Int `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	} `json:"usage"`
}

// functionCall is a function call whose arguments are streaming.
type functionCall struct{ id, name string }

// state turns Responses API events into stream parts as the AI SDK's
// OpenAIResponsesLanguageModel.doStream does.
type state struct {
	metaKey      string
	responseID   string
	calls        map[core.Int]*functionCall // function calls by output index
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
	return &state{metaKey: metaKey, finishReason: model.FinishUnknown, calls: map[core.Int]*functionCall{}, webSearchName: webSearchName}
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
func (s *state) event(e *event, yield core.Yield) bool {
	switch e.Type {
	case "response.created":
		r := &e.Response
		s.responseID = r.ID
		md := &model.ResponseMetadata{ID: r.ID, ModelID: r.Model}
		if r.CreatedAt != 0 {
			md.Timestamp = time.Unix(int64(r.CreatedAt), 0).UTC()
		}
		return yield(model.StreamPart{Type: model.PartResponseMetadata, Response: md}, nil)
	case "response.output_item.added":
		switch it := &e.Item; it.Type {
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
		if a := &e.Annotation; a.Type == "url_citation" {
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
		switch it := &e.Item; it.Type {
		case "function_call":
			s.hasCall = true
			delete(s.calls, e.OutputIndex)
			if !yield(model.StreamPart{Type: model.PartToolInputEnd, ID: it.CallID}, nil) {
				return false
			}
			args := it.Arguments
			if args == "" {
				args = "{}"
			}
			return yield(model.StreamPart{Type: model.PartToolCall, ToolCallID: it.CallID, ToolName: it.Name, Input: args, ProviderMetadata: s.item(it.ID)}, nil)
		case "message":
			return yield(model.StreamPart{Type: model.PartTextEnd, ID: it.ID, ProviderMetadata: s.item(it.ID)}, nil)
		case "reasoning":
			return yield(model.StreamPart{Type: model.PartReasoningEnd, ID: it.ID + ":0", ProviderMetadata: s.item(it.ID)}, nil)
		case "web_search_call":
			return yield(model.StreamPart{Type: model.PartToolResult, ToolCallID: it.ID, ToolName: s.webSearchName, Result: webSearchOutput(&it.Action), ProviderExecuted: true}, nil)
		}
	case "response.completed", "response.incomplete":
		r := &e.Response
		s.rawFinish = r.IncompleteDetails.Reason
		s.finishReason = mapResponsesFinishReason(r.IncompleteDetails.Reason, s.hasCall)
		u := &r.Usage
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

// webSearchOutput is a web_search_call's result as the AI SDK maps it:
// {action: {type: "search", query, queries?}, sources?}, {action: {type:
// "openPage", url}}, {action: {type: "findInPage", url, pattern}}, or {}.
func webSearchOutput(a *action) map[string]any {
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
				sources = append(sources, map[string]any{"type": src.Type, "url": src.URL})
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
