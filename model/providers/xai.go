package providers

import (
	"context"
	"iter"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai"
)

// xaiModel is the "xai" entry's model: Chat Completions ("xai.chat"),
// except for requests with a provider-defined tool (xAI's web search and
// its other server-side tools), which only xAI's Responses API serves;
// those go to it ("xai.responses", model/openai) instead of having the
// tool dropped.
type xaiModel struct {
	model.LanguageModel
	responses *openai.Model
}

// chatOrResponses wraps the "xai" entry's Chat Completions constructor.
// The router passes it the entry's base URL (XAI_BASE_URL, else the
// entry's default, api.x.ai), which both APIs share.
func chatOrResponses(chat model.Constructor) model.Constructor {
	return func(modelID, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
		c, err := chat(modelID, apiKey, baseURL, headers)
		if err != nil {
			return nil, err
		}
		r, err := openai.New(modelID, openai.Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers, Provider: "xai.responses"})
		if err != nil {
			return nil, err
		}
		return &xaiModel{LanguageModel: c, responses: r}, nil
	}
}

// Stream runs the call on the Responses API when req has a
// provider-defined tool, else on Chat Completions.
func (m *xaiModel) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	if req != nil && hasProviderTool(req.Tools) {
		return m.responses.Stream(ctx, req)
	}
	return m.LanguageModel.Stream(ctx, req)
}

func hasProviderTool(defs []model.ToolDefinition) bool {
	for _, d := range defs {
		if d.Type == model.ToolTypeProviderDefined {
			return true
		}
	}
	return false
}
