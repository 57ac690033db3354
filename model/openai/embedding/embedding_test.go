package embedding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai"
	"github.com/gomastra/mastra/model/openai/internal/oaitest"
)

func newModel(t *testing.T, fs *providertest.Server, cfg Config) *Model {
	t.Helper()
	cfg.BaseURL = fs.URL + "/v1"
	if cfg.APIKey == "" {
		cfg.APIKey = "test-key"
	}
	m, err := New("text-embedding-3-small", cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func embed(t *testing.T, m model.EmbeddingModel, values []string, opts *model.EmbedOptions) (model.Embeddings, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return m.Embed(ctx, values, opts)
}

var three = []string{"sunny day at the beach", "rainy day in the city", "a cat"}

// The request is the AI SDK's: model, the values as input, float
// encoding, nothing else unless set.
func TestEmbedRequestAndResponse(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "embeddings.json"})
	m := newModel(t, fs, Config{Headers: map[string]string{"X-Cfg": "c"}})
	if m.Provider() != "openai.embedding" || m.ModelID() != "text-embedding-3-small" || m.MaxValuesPerCall() != 2048 {
		t.Fatalf("ids %s %s %d", m.Provider(), m.ModelID(), m.MaxValuesPerCall())
	}
	res, err := embed(t, m, three, &model.EmbedOptions{Headers: map[string]string{"X-Req": "r"}})
	if err != nil {
		t.Fatal(err)
	}
	want := model.Embeddings{
		Vectors: [][]float32{{0.0123, -0.0456, 0.0789, 0.1011}, {-0.2, 0.5, 0.25, -0.125}, {1e-05, 0, -1, 0.5}},
		Usage:   model.EmbeddingUsage{Tokens: 12},
	}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
	req := fs.Requests()[0]
	if req.Method != http.MethodPost || req.Path != "/v1/embeddings" {
		t.Errorf("%s %s", req.Method, req.Path)
	}
	wantBody := map[string]any{
		"model":           "text-embedding-3-small",
		"input":           []any{"sunny day at the beach", "rainy day in the city", "a cat"},
		"encoding_format": "float",
	}
	if d := cmp.Diff(wantBody, fs.JSONBody(t, 0)); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	for k, v := range map[string]string{"Authorization": "Bearer test-key", "X-Cfg": "c", "X-Req": "r", "Content-Type": "application/json"} {
		if got := req.Header.Get(k); got != v {
			t.Errorf("header %s: %q, want %q", k, got, v)
		}
	}
	// One value is still an array, as the AI SDK sends it.
	fs1 := providertest.New(t, providertest.Reply{Fixture: "ollama_embeddings.json"})
	if _, err := embed(t, newModel(t, fs1, Config{}), []string{"x"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := fs1.JSONBody(t, 0)["input"]; !cmp.Equal(got, []any{"x"}) {
		t.Errorf("input %v", got)
	}
}

func TestEmbedDimensionsAndUser(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "embeddings.json"})
	m := newModel(t, fs, Config{Dimensions: 256, User: "user-1"})
	if _, err := embed(t, m, three, nil); err != nil {
		t.Fatal(err)
	}
	body := fs.JSONBody(t, 0)
	if body["dimensions"] != 256.0 || body["user"] != "user-1" {
		t.Errorf("configured: %v", body)
	}
	po := model.ProviderOptions{"openai": {"dimensions": 64, "user": "user-2"}, "ollama": {"dimensions": 32}}
	if _, err := embed(t, m, three, &model.EmbedOptions{ProviderOptions: po}); err != nil {
		t.Fatal(err)
	}
	if body := fs.JSONBody(t, 1); body["dimensions"] != 64.0 || body["user"] != "user-2" {
		t.Errorf("providerOptions: %v", body)
	}
	for _, bad := range []any{"64", 0, -3, 1.5, true} {
		_, err := embed(t, m, three, &model.EmbedOptions{ProviderOptions: model.ProviderOptions{"openai": {"dimensions": bad}}})
		if err == nil || !strings.Contains(err.Error(), "dimensions") {
			t.Errorf("dimensions %v: %v", bad, err)
		}
	}
	if _, err := embed(t, m, three, &model.EmbedOptions{ProviderOptions: model.ProviderOptions{"openai": {"user": 7}}}); err == nil {
		t.Error("user 7 accepted")
	}
	if fs.Calls() != 2 {
		t.Errorf("%d requests: bad options must send none", fs.Calls())
	}
	if _, err := New("x", Config{Dimensions: -1}); err == nil {
		t.Error("negative dimensions accepted")
	}
}

// Vectors are placed by their index.
func TestEmbedOrdersByIndex(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "embeddings_unordered.json"})
	res, err := embed(t, newModel(t, fs, Config{}), three, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([][]float32{{0, 0}, {1, 1}, {2, 2}}, res.Vectors); d != "" {
		t.Errorf("vectors (-want +got):\n%s", d)
	}
	// Without indices (or with unusable ones), in the order they came.
	fs = providertest.New(t, providertest.Reply{Body: `{"data":[{"embedding":[5]},{"embedding":[6],"index":0}]}`})
	res, err = embed(t, newModel(t, fs, Config{}), []string{"a", "b"}, nil)
	if err != nil || !cmp.Equal(res.Vectors, [][]float32{{5}, {6}}) || res.Usage.Tokens != 0 {
		t.Errorf("%v %v", res, err)
	}
}

func TestEmbedHTTPErrors(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Status: 401, Fixture: "error_401.json"})
	_, err := embed(t, newModel(t, fs, Config{}), three, nil)
	var e *openai.Error
	if !errors.As(err, &e) || e.StatusCode != 401 || e.Code != "invalid_api_key" || model.IsTransient(err) || fs.Calls() != 1 {
		t.Fatalf("401: %v, %d requests", err, fs.Calls())
	}
	if !strings.HasPrefix(err.Error(), "openai: HTTP 401 Unauthorized: Incorrect API key provided") {
		t.Errorf("message %q", err)
	}

	// A rate limit is retried, honouring Retry-After.
	fs = providertest.New(t,
		providertest.Reply{Status: 429, Fixture: "error_429.json", Headers: map[string]string{"Retry-After": "0"}},
		providertest.Reply{Fixture: "embeddings.json"},
	)
	if res, err := embed(t, newModel(t, fs, Config{}), three, nil); err != nil || len(res.Vectors) != 3 || fs.Calls() != 2 {
		t.Errorf("429 then 200: %v, %d requests", err, fs.Calls())
	}
	// Retries exhausted (the SDK's two), or none asked for: a transient
	// error.
	fs = providertest.New(t, providertest.Reply{Status: 429, Fixture: "error_429.json", Headers: map[string]string{"Retry-After": "0"}})
	_, err = embed(t, newModel(t, fs, Config{}), three, nil)
	if !errors.As(err, &e) || e.StatusCode != 429 || !model.IsTransient(err) || fs.Calls() != 3 {
		t.Errorf("429: %v, %d requests", err, fs.Calls())
	}
	zero := 0
	fs = providertest.New(t, providertest.Reply{Status: 429, Fixture: "error_429.json", Headers: map[string]string{"Retry-After": "0"}})
	if _, err = embed(t, newModel(t, fs, Config{MaxRetries: &zero}), three, nil); !model.IsTransient(err) || fs.Calls() != 1 {
		t.Errorf("MaxRetries 0: %v, %d requests", err, fs.Calls())
	}
	fs = providertest.New(t, providertest.Reply{Status: 503, Body: `{"error":{"message":"overloaded"}}`, Headers: map[string]string{"Retry-After": "0"}})
	if _, err = embed(t, newModel(t, fs, Config{}), three, &model.EmbedOptions{MaxRetries: &zero}); !model.IsTransient(err) || fs.Calls() != 1 {
		t.Errorf("per-call MaxRetries 0: %v, %d requests", err, fs.Calls())
	}
}

func TestEmbedBadAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply providertest.Reply
		want  string
	}{
		{"malformed JSON", providertest.Reply{Body: `{"data": [{"embedding": [0.1, `}, `openai: embeddings: invalid response body "{\"data\": [{\"embedding\": [0.1, ": unexpected end of JSON input`},
		{"not JSON", providertest.Reply{Body: `<html>bad gateway</html>`, Headers: map[string]string{"Content-Type": "text/html"}}, `openai: embeddings: invalid response body "<html>bad gateway</html>": invalid character '<' looking for beginning of value`},
		{"wrong type", providertest.Reply{Body: `{"data": [{"embedding": "AAAA"}]}`}, "openai: embeddings: invalid response body"},
		{"no embedding", providertest.Reply{Body: `{"data": [{"index": 0}, {"index": 1}, {"index": 2}]}`}, "openai: embeddings: invalid response body: item 0 has no embedding"},
		{"too few", providertest.Reply{Fixture: "embeddings_short.json"}, "embedding model text-embedding-3-small (openai.embedding): 2 vectors for 3 values"},
		{"no data", providertest.Reply{Body: `{}`}, "embedding model text-embedding-3-small (openai.embedding): 0 vectors for 3 values"},
	} {
		fs := providertest.New(t, tc.reply)
		res, err := embed(t, newModel(t, fs, Config{}), three, nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || res.Vectors != nil {
			t.Errorf("%s: %v (%d vectors)\nwant %s", tc.name, err, len(res.Vectors), tc.want)
		}
	}
	fs := providertest.New(t, providertest.Reply{Fixture: "embeddings_short.json"})
	_, err := embed(t, newModel(t, fs, Config{}), three, nil)
	var count *model.EmbeddingCountError
	if !errors.As(err, &count) || count.Values != 3 || count.Vectors != 2 {
		t.Errorf("count: %v", err)
	}
}

func TestEmbedSendsNothingForNoValuesOrTooMany(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "embeddings.json"})
	m := newModel(t, fs, Config{MaxValuesPerCall: 2})
	res, err := embed(t, m, nil, nil)
	if err != nil || res.Vectors == nil || len(res.Vectors) != 0 {
		t.Errorf("no values: %+v %v", res, err)
	}
	_, err = embed(t, m, three, nil)
	var tooMany *model.TooManyValuesError
	if !errors.As(err, &tooMany) || tooMany.Max != 2 || tooMany.Values != 3 {
		t.Errorf("too many: %v", err)
	}
	if fs.Calls() != 0 {
		t.Errorf("%d requests", fs.Calls())
	}
}

func TestEmbedCancelled(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	m, err := New("text-embedding-3-small", Config{BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := m.Embed(ctx, three, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v", err)
	}
}

// echoServer answers every embeddings request with, for input i, the
// vector {len(input i), i}, and counts the values of each request.
func echoServer(t *testing.T) (*httptest.Server, func() []int) {
	t.Helper()
	var sizes = make(chan int, 100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || r.URL.Path != "/v1/embeddings" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		sizes <- len(req.Input)
		var data []string
		for i, in := range req.Input {
			data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[%d,%d]}`, i, len(in), i))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"object":"list","data":[%s],"model":"m","usage":{"prompt_tokens":%d,"total_tokens":%d}}`,
			strings.Join(data, ","), len(req.Input), len(req.Input))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []int {
		close(sizes)
		var out []int
		for n := range sizes {
			out = append(out, n)
		}
		return out
	}
}

// EmbedMany over the wire: calls of at most MaxValuesPerCall values, the
// vectors back in the order of the values.
func TestEmbedManyOverHTTP(t *testing.T) {
	srv, sizes := echoServer(t)
	m, err := New("m", Config{BaseURL: srv.URL + "/v1", MaxValuesPerCall: 2})
	if err != nil {
		t.Fatal(err)
	}
	values := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	res, err := model.EmbedMany(context.Background(), m, values, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{1, 0}, {2, 1}, {3, 0}, {4, 1}, {5, 0}}
	if d := cmp.Diff(want, res.Vectors); d != "" || res.Usage.Tokens != 5 {
		t.Errorf("vectors (-want +got):\n%s; tokens %d", d, res.Usage.Tokens)
	}
	got := sizes()
	if len(got) != 3 || got[0]+got[1]+got[2] != 5 || max(got[0], got[1], got[2]) != 2 {
		t.Errorf("request sizes %v", got)
	}
}

// Ollama through the router: its OpenAI-compatible endpoint, no key,
// options under "ollama".
func TestOllamaThroughTheRouter(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "ollama_embeddings.json"})
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	env := map[string]string{"OLLAMA_BASE_URL": fs.URL + "/v1"}
	r := model.NewRouter(func(k string) string { return env[k] }, Providers()...)
	e, err := r.ResolveEmbeddingID("ollama/nomic-embed-text")
	if err != nil {
		t.Fatal(err)
	}
	if e.Provider() != "ollama.embedding" || e.ModelID() != "nomic-embed-text" {
		t.Errorf("ids %s %s", e.Provider(), e.ModelID())
	}
	po := model.ProviderOptions{"openai": {"user": "u"}, "openai-compatible": {"dimensions": 64}, "ollama": {"dimensions": 3}}
	res, err := embed(t, e, []string{"hello ollama"}, &model.EmbedOptions{ProviderOptions: po})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(res.Vectors, [][]float32{{0.25, -0.5, 0.75}}) || res.Usage.Tokens != 4 {
		t.Errorf("result %+v", res)
	}
	req := fs.Requests()[0]
	if req.Path != "/v1/embeddings" || req.Header.Get("Authorization") != "" {
		t.Errorf("path %s, authorization %q", req.Path, req.Header.Get("Authorization"))
	}
	want := map[string]any{"model": "nomic-embed-text", "input": []any{"hello ollama"}, "encoding_format": "float", "dimensions": 3.0, "user": "u"}
	if d := cmp.Diff(want, fs.JSONBody(t, 0)); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	// OpenAI's entry: the environment's key.
	oenv := map[string]string{"OPENAI_API_KEY": "sk-o"}
	e, err = model.NewRouter(func(k string) string { return oenv[k] }, Providers()...).ResolveEmbeddingID("openai/text-embedding-3-small")
	if err != nil || e.Provider() != "openai.embedding" || e.MaxValuesPerCall() != 2048 {
		t.Errorf("openai: %v", err)
	}
	if _, err := model.NewRouter(func(string) string { return "" }, Providers()...).ResolveEmbeddingID("openai/text-embedding-3-small"); err == nil {
		t.Error("no key: no error")
	}
}

// Towards the environment, as package openai's models: another endpoint
// gets neither the environment's key nor its organization or project;
// OpenAI gets the configured key and the environment's organization and
// project.
func TestCredentials(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env")
	other := providertest.New(t, providertest.Reply{Fixture: "ollama_embeddings.json"})
	m, err := New("m", Config{BaseURL: other.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := embed(t, m, []string{"x"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project"} {
		if v := other.Requests()[0].Header.Get(k); v != "" {
			t.Errorf("another endpoint got %s: %q", k, v)
		}
	}
	api := providertest.New(t, providertest.Reply{Fixture: "ollama_embeddings.json"})
	m, err = New("m", Config{APIKey: "sk-cfg", HTTPClient: &http.Client{Transport: oaitest.RedirectTransport{Base: api.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := embed(t, m, []string{"x"}, nil); err != nil {
		t.Fatal(err)
	}
	req := api.Requests()[0]
	if req.Path != "/v1/embeddings" {
		t.Errorf("path %s", req.Path)
	}
	for k, want := range map[string]string{"Authorization": "Bearer sk-cfg", "OpenAI-Organization": "org-env", "OpenAI-Project": "proj-env"} {
		if v := req.Header.Get(k); v != want {
			t.Errorf("OpenAI got %s: %q, want %q", k, v, want)
		}
	}
}
