package anthropic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
)

// benchModel is the model of the step benchmark, at fs, through client.
func benchModel(tb testing.TB, fs *providertest.Server, client *http.Client) *Model {
	tb.Helper()
	m, err := New("claude-sonnet-4-5", Config{APIKey: "sk-bench", BaseURL: fs.URL, HTTPClient: client})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkStepAnthropic is one model step through the Messages API model:
// the request converted and sent, the answer's SSE stream (text deltas,
// then a tool_use block with streamed input, usage) decoded and mapped to
// stream parts, all of them consumed.
func BenchmarkStepAnthropic(b *testing.B) {
	providertest.BenchStep(b, "bench_step.sse", providertest.BenchInput, func(fs *providertest.Server, c *http.Client) model.LanguageModel { return benchModel(b, fs, c) })
}

// BenchmarkBareLoopAnthropic is the same exchange as BenchmarkStepAnthropic done by
// hand with net/http and encoding/json (providertest.BenchBareLoop).
func BenchmarkBareLoopAnthropic(b *testing.B) {
	providertest.BenchBareLoop(b, "bench_step.sse", "/v1/messages", providertest.BenchInput, func(ctx context.Context, client *http.Client, url string, req *model.Request) (string, string, error) {
		return bareMessages(ctx, client, url, "claude-sonnet-4-5", "sk-bench", req)
	})
}

// The bare loop's wire types: the part of the Messages API it uses.
type (
	bareBlock struct {
		Type string `json:"type"`
		Text string `json:"text,omitempty"`
		// tool_use
		ID    string          `json:"id,omitempty"`
		Name  string          `json:"name,omitempty"`
		Input json.RawMessage `json:"input,omitempty"`
		// tool_result
		ToolUseID string      `json:"tool_use_id,omitempty"`
		Content   []bareBlock `json:"content,omitempty"`
	}
	bareMessage struct {
		Role    string      `json:"role"`
		Content []bareBlock `json:"content"`
	}
	bareTool struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	bareBody struct {
		Model       string        `json:"model"`
		MaxTokens   int           `json:"max_tokens"`
		System      []bareBlock   `json:"system,omitempty"`
		Messages    []bareMessage `json:"messages"`
		Tools       []bareTool    `json:"tools,omitempty"`
		Temperature *float64      `json:"temperature,omitempty"`
		Stream      bool          `json:"stream"`
	}
	bareEvent struct {
		Type    string `json:"type"`
		Index   int    `json:"index"`
		Message struct {
			ID    string `json:"id"`
			Model string `json:"model"`
			Usage struct {
				InputTokens  int `json:"input_tokens"`
				OutputTokens int `json:"output_tokens"`
			} `json:"usage"`
		} `json:"message"`
		Delta struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			PartialJSON string `json:"partial_json"`
			StopReason  string `json:"stop_reason"`
		} `json:"delta"`
		Usage struct {
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
)

// bareMessagesBody builds the request body from req by hand (the subset
// of the mapping the benchmark's request needs).
func bareMessagesBody(modelID string, req *model.Request) ([]byte, error) {
	body := bareBody{Model: modelID, MaxTokens: *req.Settings.MaxOutputTokens, Temperature: req.Settings.Temperature, Stream: true}
	for _, m := range req.Messages {
		var blocks []bareBlock
		for _, p := range m.Content {
			switch p.Type {
			case model.MessageText:
				blocks = append(blocks, bareBlock{Type: "text", Text: p.Text})
			case model.MessageToolCall:
				blocks = append(blocks, bareBlock{Type: "tool_use", ID: p.ToolCall.ToolCallID, Name: p.ToolCall.ToolName, Input: p.ToolCall.Input})
			case model.MessageToolResult:
				out, err := json.Marshal(p.ToolResult.Output.Value)
				if err != nil {
					return nil, err
				}
				blocks = append(blocks, bareBlock{Type: "tool_result", ToolUseID: p.ToolResult.ToolCallID, Content: []bareBlock{{Type: "text", Text: string(out)}}})
			}
		}
		switch m.Role {
		case model.RoleSystem:
			body.System = append(body.System, blocks...)
		case model.RoleAssistant:
			body.Messages = append(body.Messages, bareMessage{Role: "assistant", Content: blocks})
		default:
			body.Messages = append(body.Messages, bareMessage{Role: "user", Content: blocks})
		}
	}
	for _, d := range req.Tools {
		schema, err := json.Marshal(d.InputSchema)
		if err != nil {
			return nil, err
		}
		body.Tools = append(body.Tools, bareTool{Name: d.Name, Description: d.Description, InputSchema: schema})
	}
	return json.Marshal(body)
}

// bareMessages is one Messages API step by hand.
func bareMessages(ctx context.Context, client *http.Client, url, modelID, apiKey string, req *model.Request) (text, input string, err error) {
	body, err := bareMessagesBody(modelID, req)
	if err != nil {
		return "", "", err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", "", err
	}
	h := hreq.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("Authorization", "Bearer "+apiKey)
	h.Set("Anthropic-Version", "2026-10-21")
	h.Set("User-Agent", "Anthropic/Go 2.15.0")
	h.Set("X-Stainless-Arch", "x64")
	h.Set("X-Stainless-Lang", "go")
	h.Set("X-Stainless-Os", "Linux")
	h.Set("X-Stainless-Package-Version", "2.15.0")
	h.Set("X-Stainless-Retry-Count", "0")
	h.Set("X-Stainless-Runtime", "go")
	h.Set("X-Stainless-Runtime-Version", runtime.Version())
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
		var e bareEvent
		if err := json.Unmarshal(data, &e); err != nil {
			return "", "", err
		}
		if e.Type == "content_block_delta" {
			t.WriteString(e.Delta.Text)
			in.WriteString(e.Delta.PartialJSON)
		}
	}
	return t.String(), in.String(), sc.Err()
}

// The bare loop sends what the model sends: the same body (as JSON) and
// the same headers.
func TestBareLoopAnthropicMatchesModel(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "bench_step.sse"})
	client := providertest.BenchClient()
	req := providertest.BenchRequest()
	if _, err := drain(t, benchModel(t, fs, client), req); err != nil {
		t.Fatal(err)
	}
	text, input, err := bareMessages(t.Context(), client, fs.URL+"/v1/messages", "claude-sonnet-4-5", "sk-bench", req)
	if err != nil {
		t.Fatal(err)
	}
	if text != providertest.BenchText || input != providertest.BenchInput {
		t.Errorf("bare loop: text %q, input %q", text, input)
	}
	providertest.SameRequest(t, fs)
}
