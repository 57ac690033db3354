package google

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

// benchInput is the tool call's input of bench_step.sse: Gemini sends a
// call's arguments whole, as an object, which the model re-encodes.
const benchInput = `{"city":"Paris","days":3,"unit":"c"}`

// benchModel is the model of the step benchmark, at fs, through client.
func benchModel(tb testing.TB, fs *providertest.Server, client *http.Client) *Model {
	tb.Helper()
	m, err := New("gemini-2.5-flash", Config{APIKey: "sk-bench", BaseURL: fs.URL, HTTPClient: client})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkStepGoogle is one model step through the Gemini model: the
// request converted and sent, the answer's SSE stream (text chunks, then
// a function call, usage) decoded and mapped to stream parts, all of them
// consumed.
func BenchmarkStepGoogle(b *testing.B) {
	providertest.BenchStep(b, "bench_step.sse", benchInput, func(fs *providertest.Server, c *http.Client) model.LanguageModel { return benchModel(b, fs, c) })
}

// BenchmarkBareLoopGoogle is the same exchange as BenchmarkStepGoogle done by
// hand with net/http and encoding/json (providertest.BenchBareLoop).
func BenchmarkBareLoopGoogle(b *testing.B) {
	providertest.BenchBareLoop(b, "bench_step.sse", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", benchInput, func(ctx context.Context, client *http.Client, url string, req *model.Request) (string, string, error) {
		return bareGenerate(ctx, client, url, "sk-bench", req)
	})
}

// The bare loop's wire types: the part of the Gemini API it uses.
type (
	barePart struct {
		Text         string            `json:"text,omitempty"`
		FunctionCall *bareFunctionCall `json:"functionCall,omitempty"`
		FunctionResp *bareFunctionResp `json:"functionResponse,omitempty"`
	}
	bareFunctionCall struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	bareFunctionResp struct {
		Name     string `json:"name"`
		Response struct {
			Name    string `json:"name"`
			Content any    `json:"content"`
		} `json:"response"`
	}
	bareContent struct {
		Role  string     `json:"role"`
		Parts []barePart `json:"parts"`
	}
	bareDeclaration struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parametersJsonSchema"`
	}
	bareBody struct {
		Contents          []bareContent `json:"contents"`
		SystemInstruction *bareContent  `json:"systemInstruction,omitempty"`
		GenerationConfig  struct {
			MaxOutputTokens int      `json:"maxOutputTokens"`
			Temperature     *float64 `json:"temperature,omitempty"`
		} `json:"generationConfig"`
		Tools []struct {
			FunctionDeclarations []bareDeclaration `json:"functionDeclarations"`
		} `json:"tools,omitempty"`
	}
	bareChunk struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         string `json:"text"`
					FunctionCall *struct {
						Name string          `json:"name"`
						Args json.RawMessage `json:"args"`
					} `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
		UsageMetadata struct {
			PromptTokenCount     int `json:"promptTokenCount"`
			CandidatesTokenCount int `json:"candidatesTokenCount"`
		} `json:"usageMetadata"`
		ResponseID string `json:"responseId"`
	}
)

// bareGenerateBody builds the request body from req by hand (the subset
// of the mapping the benchmark's request needs).
func bareGenerateBody(req *model.Request) ([]byte, error) {
	var body bareBody
	body.GenerationConfig.MaxOutputTokens = *req.Settings.MaxOutputTokens
	body.GenerationConfig.Temperature = req.Settings.Temperature
	for _, m := range req.Messages {
		var parts []barePart
		for _, p := range m.Content {
			switch p.Type {
			case model.MessageText:
				parts = append(parts, barePart{Text: p.Text})
			case model.MessageToolCall:
				parts = append(parts, barePart{FunctionCall: &bareFunctionCall{Name: p.ToolCall.ToolName, Args: p.ToolCall.Input}})
			case model.MessageToolResult:
				r := &bareFunctionResp{Name: p.ToolResult.ToolName}
				r.Response.Name, r.Response.Content = p.ToolResult.ToolName, p.ToolResult.Output.Value
				parts = append(parts, barePart{FunctionResp: r})
			}
		}
		switch m.Role {
		case model.RoleSystem:
			body.SystemInstruction = &bareContent{Role: "user", Parts: parts}
		case model.RoleAssistant:
			body.Contents = append(body.Contents, bareContent{Role: "model", Parts: parts})
		default:
			body.Contents = append(body.Contents, bareContent{Role: "user", Parts: parts})
		}
	}
	body.Tools = make([]struct {
		FunctionDeclarations []bareDeclaration `json:"functionDeclarations"`
	}, 1)
	for _, d := range req.Tools {
		schema, err := json.Marshal(d.InputSchema)
		if err != nil {
			return nil, err
		}
		body.Tools[0].FunctionDeclarations = append(body.Tools[0].FunctionDeclarations, bareDeclaration{Name: d.Name, Description: d.Description, Parameters: schema})
	}
	return json.Marshal(body)
}

// bareGenerate is one Gemini streaming step by hand.
func bareGenerate(ctx context.Context, client *http.Client, url, apiKey string, req *model.Request) (text, input string, err error) {
	body, err := bareGenerateBody(req)
	if err != nil {
		return "", "", err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", "", err
	}
	agent := "google-genai-sdk/1.77.0 gl-go/" + runtime.Version()
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("X-Goog-Api-Key", apiKey)
	hreq.Header.Set("User-Agent", agent)
	hreq.Header.Set("X-Goog-Api-Client", agent)
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
		var c bareChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return "", "", err
		}
		for _, cand := range c.Candidates {
			for _, p := range cand.Content.Parts {
				t.WriteString(p.Text)
				if p.FunctionCall != nil {
					var args any
					if err := json.Unmarshal(p.FunctionCall.Args, &args); err != nil {
						return "", "", err
					}
					b, err := json.Marshal(args)
					if err != nil {
						return "", "", err
					}
					in.Write(b)
				}
			}
		}
	}
	return t.String(), in.String(), sc.Err()
}

// The bare loop sends what the model sends: the same body (as JSON) and
// the same headers.
func TestBareLoopGoogleMatchesModel(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "bench_step.sse"})
	client := providertest.BenchClient()
	req := providertest.BenchRequest()
	for _, err := range benchModel(t, fs, client).Stream(t.Context(), req) {
		if err != nil {
			t.Fatal(err)
		}
	}
	text, input, err := bareGenerate(t.Context(), client, fs.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", "sk-bench", req)
	if err != nil {
		t.Fatal(err)
	}
	if text != providertest.BenchText || input != benchInput {
		t.Errorf("bare loop: text %q, input %q", text, input)
	}
	if r := fs.Requests(); r[0].Path != r[1].Path || r[0].Query != r[1].Query {
		t.Errorf("bare loop: %s?%s, model %s?%s", r[1].Path, r[1].Query, r[0].Path, r[0].Query)
	}
	providertest.SameRequest(t, fs)
}
