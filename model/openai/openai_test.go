package openai

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/responses"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/oaitest"
)

func TestNew(t *testing.T) {
	if _, err := New("", Config{}); err == nil {
		t.Error("empty model id accepted")
	}
	if _, err := New("m", Config{BaseURL: "not a url"}); err == nil {
		t.Error("bad base URL accepted")
	}
	m, err := New("gpt-4o", Config{APIKey: "k"})
	if err != nil || m.Provider() != "openai.responses" || m.ModelID() != "gpt-4o" {
		t.Errorf("New: %v %v", m, err)
	}
	// Any base URL is spoken to with the Responses API.
	if m, err := New("grok-4", Config{BaseURL: "https://api.x.ai/v1", Provider: "xai.responses"}); err != nil || m.Provider() != "xai.responses" {
		t.Errorf("New with a provider: %v %v", m, err)
	}
}

func TestProviders(t *testing.T) {
	ps := Providers()
	if len(ps) != 1 {
		t.Fatalf("%d entries", len(ps))
	}
	p := ps[0]
	if p.Name != "openai" || p.APIKeyEnv != "OPENAI_API_KEY" || p.BaseURLEnv != "OPENAI_BASE_URL" || p.DefaultBaseURL != "" || p.KeyOptional {
		t.Errorf("entry %+v", p)
	}
	if lm, err := p.New("m", "k", "not a url", nil); err == nil || lm != nil {
		t.Errorf("bad base URL: %v %v", lm, err)
	}

	// Through a router: the key from the environment, the Responses API
	// at the configured URL.
	fs := providertest.New(t, providertest.Reply{Fixture: "responses_incomplete.sse"})
	r := model.NewRouter(func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-env"}[k] }, ps...)
	m, err := r.Resolve(model.ModelConfig{ID: "openai/gpt-4.1", URL: fs.URL + "/v1", Headers: map[string]string{"X-Cfg": "c"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Provider() != "openai.responses" || m.ModelID() != "gpt-4.1" {
		t.Errorf("resolved %s %s", m.Provider(), m.ModelID())
	}
	if _, err := model.Collect(t.Context(), m, &model.Request{Messages: []model.Message{model.UserText("x")}}); err != nil {
		t.Fatal(err)
	}
	req := fs.Requests()[0]
	if req.Path != "/v1/responses" || req.Header.Get("Authorization") != "Bearer sk-env" || req.Header.Get("X-Cfg") != "c" {
		t.Errorf("request %s %v", req.Path, req.Header)
	}
}

func TestHTTPErrorUnwrapsToTheSDKError(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Status: 401, Fixture: "error_401.json"})
	m := newResponsesModel(t, fs)
	_, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 401 || !strings.HasPrefix(err.Error(), "openai: HTTP 401 Unauthorized: Incorrect API key provided") {
		t.Fatalf("err = %v", err)
	}
	var sdkErr *responses.Error
	if !errors.As(err, &sdkErr) || sdkErr.StatusCode != 401 || e.API != sdkErr {
		t.Errorf("does not unwrap to the SDK's error: %v", err)
	}
}

// The environment's OpenAI credentials never reach another endpoint;
// OpenAI itself gets the configured key and the environment's
// organization and project.
func TestEnvironmentCredentials(t *testing.T) {
	oaitest.Credentials(t, "responses_incomplete.sse", "/v1/responses", func(baseURL, apiKey string, client *http.Client) (model.LanguageModel, error) {
		return New("gpt-4.1", Config{BaseURL: baseURL, APIKey: apiKey, HTTPClient: client})
	})
}

func TestStreamStopsWhenConsumerStops(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "responses_text_tool.sse"})
	m := newResponsesModel(t, fs)
	n := 0
	for range m.Stream(t.Context(), &model.Request{Messages: []model.Message{model.UserText("x")}}) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("n = %d", n)
	}
}
