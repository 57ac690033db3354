package chat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/oaitest"
)

// benchModel is the model of the step benchmark, at fs, through client.
func benchModel(tb testing.TB, fs *providertest.Server, client *http.Client) *Model {
	tb.Helper()
	m, err := New("gpt-4o", Config{APIKey: "sk-bench", BaseURL: fs.URL + "/v1", HTTPClient: client})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkStepChat is one model step through the Chat Completions model:
// the request converted and sent, the answer's SSE stream (text deltas,
// then a tool call with streamed arguments, usage) decoded and mapped to
// stream parts, all of them consumed.
func BenchmarkStepChat(b *testing.B) {
	providertest.BenchStep(b, "bench_step.sse", providertest.BenchInput, func(fs *providertest.Server, c *http.Client) model.LanguageModel { return benchModel(b, fs, c) })
}

// BenchmarkBareLoopChat is the same exchange as BenchmarkStepChat done by
// hand with net/http and encoding/json (providertest.BenchBareLoop).
func BenchmarkBareLoopChat(b *testing.B) {
	providertest.BenchBareLoop(b, "bench_step.sse", "/v1/chat/completions", providertest.BenchInput, func(ctx context.Context, client *http.Client, url string, req *model.Request) (string, string, error) {
		return bareChat(ctx, client, url, "gpt-4o", "sk-bench", req)
	})
}

// The bare loop's wire types: the part of Chat Completions it uses.
type (
	bareMessage struct {
		Role       string         `json:"role"`
		Content    string         `json:"content"`
		ToolCalls  []bareToolCall `json:"tool_calls,omitempty"`
		ToolCallID string         `json:"tool_call_id,omitempty"`
	}
	bareToolCall struct {
		ID       string       `json:"id"`
		Type     string       `json:"type"`
		Function bareFunction `json:"function"`
	}
	bareFunction struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	bareTool struct {
		Type     string          `json:"type"`
		Function bareFunctionDef `json:"function"`
	}
	bareFunctionDef struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	bareBody struct {
		Model         string        `json:"model"`
		Messages      []bareMessage `json:"messages"`
		Tools         []bareTool    `json:"tools,omitempty"`
		Temperature   *float64      `json:"temperature,omitempty"`
		MaxTokens     *int          `json:"max_tokens,omitempty"`
		Stream        bool          `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	bareChunk struct {
		ID      string `json:"id"`
		Model   string `json:"model"`
		Created int64  `json:"created"`
		Choices []struct {
			Delta struct {
				Content   string `json:"content"`
				ToolCalls []struct {
					Index    int          `json:"index"`
					ID       string       `json:"id"`
					Function bareFunction `json:"function"`
				} `json:"tool_calls"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
			TotalTokens      int `json:"total_tokens"`
		} `json:"usage"`
	}
)

// bareChatBody builds the request body from req by hand (the subset of
// the mapping the benchmark's request needs).
func bareChatBody(modelID string, req *model.Request) ([]byte, error) {
	body := bareBody{Model: modelID, Stream: true, Temperature: req.Settings.Temperature, MaxTokens: req.Settings.MaxOutputTokens}
	body.StreamOptions.IncludeUsage = true
	for _, m := range req.Messages {
		switch m.Role {
		case model.RoleSystem, model.RoleUser:
			body.Messages = append(body.Messages, bareMessage{Role: string(m.Role), Content: m.Content[0].Text})
		case model.RoleAssistant:
			msg := bareMessage{Role: "assistant"}
			for _, p := range m.Content {
				switch p.Type {
				case model.MessageText:
					msg.Content += p.Text
				case model.MessageToolCall:
					var args bytes.Buffer
					if err := json.Compact(&args, p.ToolCall.Input); err != nil {
						return nil, err
					}
					msg.ToolCalls = append(msg.ToolCalls, bareToolCall{ID: p.ToolCall.ToolCallID, Type: "function",
						Function: bareFunction{Name: p.ToolCall.ToolName, Arguments: args.String()}})
				}
			}
			body.Messages = append(body.Messages, msg)
		case model.RoleTool:
			for _, p := range m.Content {
				out, err := json.Marshal(p.ToolResult.Output.Value)
				if err != nil {
					return nil, err
				}
				body.Messages = append(body.Messages, bareMessage{Role: "tool", Content: string(out), ToolCallID: p.ToolResult.ToolCallID})
			}
		}
	}
	for _, d := range req.Tools {
		params, err := json.Marshal(d.InputSchema)
		if err != nil {
			return nil, err
		}
		body.Tools = append(body.Tools, bareTool{Type: "function", Function: bareFunctionDef{Name: d.Name, Description: d.Description, Parameters: params}})
	}
	return json.Marshal(body)
}

// bareChat is one Chat Completions step by hand.
func bareChat(ctx context.Context, client *http.Client, url, modelID, apiKey string, req *model.Request) (text, input string, err error) {
	body, err := bareChatBody(modelID, req)
	if err != nil {
		return "", "", err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", "", err
	}
	oaitest.BareHeaders(hreq.Header, apiKey)
	resp, err := client.Do(hreq)
	if err != nil {
		return "", "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", "", fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var t, in strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
		if !ok {
			continue
		}
		if bytes.Equal(data, []byte("[DONE]")) {
			break
		}
		var c bareChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return "", "", err
		}
		for _, ch := range c.Choices {
			t.WriteString(ch.Delta.Content)
			for _, tc := range ch.Delta.ToolCalls {
				in.WriteString(tc.Function.Arguments)
			}
		}
	}
	return t.String(), in.String(), sc.Err()
}

// The bare loop sends what the model sends: the same body (as JSON) and
// the same headers.
func TestBareLoopChatMatchesModel(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "bench_step.sse"})
	client := providertest.BenchClient()
	req := providertest.BenchRequest()
	if _, err := oaitest.Parts(t, benchModel(t, fs, client), req); err != nil {
		t.Fatal(err)
	}
	text, input, err := bareChat(t.Context(), client, fs.URL+"/v1/chat/completions", "gpt-4o", "sk-bench", req)
	if err != nil {
		t.Fatal(err)
	}
	if text != providertest.BenchText || input != providertest.BenchInput {
		t.Errorf("bare loop: text %q, input %q", text, input)
	}
	providertest.SameRequest(t, fs)
}
