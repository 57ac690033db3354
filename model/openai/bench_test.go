package openai

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
	m, err := New("gpt-4.1", Config{APIKey: "sk-bench", BaseURL: fs.URL + "/v1", HTTPClient: client})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkStepResponses is one model step through the Responses API
// model: the request converted and sent, the answer's SSE stream (text
// deltas, then a function call with streamed arguments, usage) decoded
// and mapped to stream parts, all of them consumed.
func BenchmarkStepResponses(b *testing.B) {
	providertest.BenchStep(b, "bench_step.sse", providertest.BenchInput, func(fs *providertest.Server, c *http.Client) model.LanguageModel { return benchModel(b, fs, c) })
}

// BenchmarkBareLoopResponses is the same exchange as BenchmarkStepResponses done by
// hand with net/http and encoding/json (providertest.BenchBareLoop).
func BenchmarkBareLoopResponses(b *testing.B) {
	providertest.BenchBareLoop(b, "bench_step.sse", "/v1/responses", providertest.BenchInput, func(ctx context.Context, client *http.Client, url string, req *model.Request) (string, string, error) {
		return bareResponses(ctx, client, url, "gpt-4.1", "sk-bench", req)
	})
}

// The bare loop's wire types: the part of the Responses API it uses.
type (
	bareItem struct {
		Type    string `json:"type,omitempty"`
		Role    string `json:"role,omitempty"`
		Content any    `json:"content,omitempty"`
		// function_call, function_call_output
		CallID    string `json:"call_id,omitempty"`
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments,omitempty"`
		Output    string `json:"output,omitempty"`
	}
	bareInputText struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	bareTool struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	bareBody struct {
		Model           string     `json:"model"`
		Input           []bareItem `json:"input"`
		Tools           []bareTool `json:"tools,omitempty"`
		Temperature     *float64   `json:"temperature,omitempty"`
		MaxOutputTokens *int       `json:"max_output_tokens,omitempty"`
		Stream          bool       `json:"stream"`
	}
	bareEvent struct {
		Type        string `json:"type"`
		OutputIndex int    `json:"output_index"`
		ItemID      string `json:"item_id"`
		Delta       string `json:"delta"`
		Item        struct {
			Type   string `json:"type"`
			ID     string `json:"id"`
			CallID string `json:"call_id"`
			Name   string `json:"name"`
		} `json:"item"`
		Response struct {
			ID    string `json:"id"`
			Model string `json:"model"`
			Usage *struct {
				InputTokens  int `json:"input_tokens"`
				OutputTokens int `json:"output_tokens"`
				TotalTokens  int `json:"total_tokens"`
			} `json:"usage"`
		} `json:"response"`
	}
)

// bareResponsesBody builds the request body from req by hand (the subset
// of the mapping the benchmark's request needs).
func bareResponsesBody(modelID string, req *model.Request) ([]byte, error) {
	body := bareBody{Model: modelID, Stream: true, Temperature: req.Settings.Temperature, MaxOutputTokens: req.Settings.MaxOutputTokens}
	for _, m := range req.Messages {
		switch m.Role {
		case model.RoleSystem:
			body.Input = append(body.Input, bareItem{Role: "system", Content: m.Content[0].Text})
		case model.RoleUser:
			content := make([]bareInputText, 0, len(m.Content))
			for _, p := range m.Content {
				content = append(content, bareInputText{Type: "input_text", Text: p.Text})
			}
			body.Input = append(body.Input, bareItem{Role: "user", Content: content})
		case model.RoleAssistant:
			for _, p := range m.Content {
				switch p.Type {
				case model.MessageText:
					body.Input = append(body.Input, bareItem{Role: "assistant", Content: p.Text})
				case model.MessageToolCall:
					var args bytes.Buffer
					if err := json.Compact(&args, p.ToolCall.Input); err != nil {
						return nil, err
					}
					body.Input = append(body.Input, bareItem{Type: "function_call", CallID: p.ToolCall.ToolCallID, Name: p.ToolCall.ToolName, Arguments: args.String()})
				}
			}
		case model.RoleTool:
			for _, p := range m.Content {
				out, err := json.Marshal(p.ToolResult.Output.Value)
				if err != nil {
					return nil, err
				}
				body.Input = append(body.Input, bareItem{Type: "function_call_output", CallID: p.ToolResult.ToolCallID, Output: string(out)})
			}
		}
	}
	for _, d := range req.Tools {
		params, err := json.Marshal(d.InputSchema)
		if err != nil {
			return nil, err
		}
		body.Tools = append(body.Tools, bareTool{Type: "function", Name: d.Name, Description: d.Description, Parameters: params})
	}
	return json.Marshal(body)
}

// bareResponses is one Responses API step by hand.
func bareResponses(ctx context.Context, client *http.Client, url, modelID, apiKey string, req *model.Request) (text, input string, err error) {
	body, err := bareResponsesBody(modelID, req)
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
		var e bareEvent
		if err := json.Unmarshal(data, &e); err != nil {
			return "", "", err
		}
		switch e.Type {
		case "response.output_text.delta":
			t.WriteString(e.Delta)
		case "response.function_call_arguments.delta":
			in.WriteString(e.Delta)
		}
	}
	return t.String(), in.String(), sc.Err()
}

// The bare loop sends what the model sends: the same body (as JSON) and
// the same headers.
func TestBareLoopResponsesMatchesModel(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "bench_step.sse"})
	client := providertest.BenchClient()
	req := providertest.BenchRequest()
	if _, err := oaitest.Parts(t, benchModel(t, fs, client), req); err != nil {
		t.Fatal(err)
	}
	text, input, err := bareResponses(t.Context(), client, fs.URL+"/v1/responses", "gpt-4.1", "sk-bench", req)
	if err != nil {
		t.Fatal(err)
	}
	if text != providertest.BenchText || input != providertest.BenchInput {
		t.Errorf("bare loop: text %q, input %q", text, input)
	}
	providertest.SameRequest(t, fs)
}
