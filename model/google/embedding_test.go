package google

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
)

const testEmbeddingModel = "gemini-embedding-001"

func newTestEmbedding(t *testing.T, srv *fakeServer, cfg EmbeddingConfig) *EmbeddingModel {
	t.Helper()
	cfg.APIKey, cfg.BaseURL, cfg.HTTPClient = "test-key", srv.URL, srv.Client()
	m, err := NewEmbedding(testEmbeddingModel, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func embedValues(t *testing.T, m model.EmbeddingModel, values []string, opts *model.EmbedOptions) (model.Embeddings, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return m.Embed(ctx, values, opts)
}

var two = []string{"sunny day at the beach", "rainy day in the city"}

// The request is the Gemini API's batchEmbedContents, one request per
// value, as the AI SDK's batch sends it.
func TestEmbedRequestAndResponse(t *testing.T) {
	srv := serve(t, "embeddings.json", http.StatusOK)
	m := newTestEmbedding(t, srv, EmbeddingConfig{Headers: map[string]string{"X-Cfg": "c"}})
	if m.Provider() != "google.generative-ai" || m.ModelID() != testEmbeddingModel || m.MaxValuesPerCall() != 100 {
		t.Fatalf("ids %s %s %d", m.Provider(), m.ModelID(), m.MaxValuesPerCall())
	}
	res, err := embedValues(t, m, two, &model.EmbedOptions{Headers: map[string]string{"X-Req": "r"}})
	if err != nil {
		t.Fatal(err)
	}
	want := model.Embeddings{Vectors: [][]float32{{0.0123, -0.0456, 0.0789}, {-0.2, 0.5, 0.25}}}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
	req := srv.requests()[0]
	if req.Method != http.MethodPost || req.Path != "/v1beta/models/gemini-embedding-001:batchEmbedContents" {
		t.Errorf("%s %s", req.Method, req.Path)
	}
	wantBody := jsonMap(t, `{"requests": [
		{"model": "models/gemini-embedding-001", "content": {"parts": [{"text": "sunny day at the beach"}], "role": "user"}},
		{"model": "models/gemini-embedding-001", "content": {"parts": [{"text": "rainy day in the city"}], "role": "user"}}
	]}`)
	if d := cmp.Diff(wantBody, req.Body); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	for k, v := range map[string]string{"X-Goog-Api-Key": "test-key", "X-Cfg": "c", "X-Req": "r"} {
		if got := req.Header.Get(k); got != v {
			t.Errorf("header %s: %q, want %q", k, got, v)
		}
	}
}

func TestEmbedTaskTypeAndDimensionality(t *testing.T) {
	srv := serve(t, "embeddings.json", http.StatusOK)
	m := newTestEmbedding(t, srv, EmbeddingConfig{OutputDimensionality: 768, TaskType: "RETRIEVAL_DOCUMENT"})
	if _, err := embedValues(t, m, two, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.requests()[0].Body["requests"].([]any) {
		r := r.(map[string]any)
		if r["taskType"] != "RETRIEVAL_DOCUMENT" || r["outputDimensionality"] != 768.0 {
			t.Errorf("configured: %v", r)
		}
	}
	po := model.ProviderOptions{"google": {"outputDimensionality": 256, "taskType": "RETRIEVAL_QUERY"}, "openai": {"dimensions": 3}}
	if _, err := embedValues(t, m, two, &model.EmbedOptions{ProviderOptions: po}); err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.requests()[1].Body["requests"].([]any) {
		r := r.(map[string]any)
		if r["taskType"] != "RETRIEVAL_QUERY" || r["outputDimensionality"] != 256.0 {
			t.Errorf("providerOptions: %v", r)
		}
	}
	for _, bad := range []model.ProviderOptions{
		{"google": {"outputDimensionality": "256"}},
		{"google": {"outputDimensionality": 0}},
		{"google": {"outputDimensionality": 2.5}},
		{"google": {"taskType": 3}},
	} {
		if _, err := embedValues(t, m, two, &model.EmbedOptions{ProviderOptions: bad}); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if n := len(srv.requests()); n != 2 {
		t.Errorf("%d requests: bad options must send none", n)
	}
	if _, err := NewEmbedding("x", EmbeddingConfig{APIKey: "k", OutputDimensionality: -1}); err == nil {
		t.Error("negative dimensionality accepted")
	}
	if _, err := NewEmbedding("", EmbeddingConfig{APIKey: "k"}); err == nil {
		t.Error("empty model id accepted")
	}
}

func TestEmbedHTTPErrors(t *testing.T) {
	srv := serve(t, "error_401.json", http.StatusUnauthorized)
	_, err := embedValues(t, newTestEmbedding(t, srv, EmbeddingConfig{}), two, nil)
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 401 || ae.Status != "UNAUTHENTICATED" || model.IsTransient(err) {
		t.Fatalf("401: %v", err)
	}
	if want := "google: HTTP 401 UNAUTHENTICATED: API key not valid. Please pass a valid API key."; err.Error() != want {
		t.Errorf("message %q", err)
	}

	// The SDK retries nothing by default: a rate limit is returned,
	// transient.
	srv = serve(t, "error_429.json", http.StatusTooManyRequests)
	_, err = embedValues(t, newTestEmbedding(t, srv, EmbeddingConfig{}), two, nil)
	if !errors.As(err, &ae) || ae.StatusCode != 429 || !model.IsTransient(err) || srv.Calls() != 1 {
		t.Errorf("429: %v, %d requests", err, srv.Calls())
	}
	// With retries asked for, it is retried (after the SDK's one-second
	// backoff).
	if testing.Short() {
		return
	}
	srv = &fakeServer{providertest.New(t,
		providertest.Reply{Status: http.StatusTooManyRequests, Fixture: "error_429.json"},
		providertest.Reply{Fixture: "embeddings.json"},
	)}
	one := 1
	res, err := embedValues(t, newTestEmbedding(t, srv, EmbeddingConfig{}), two, &model.EmbedOptions{MaxRetries: &one})
	if err != nil || len(res.Vectors) != 2 || srv.Calls() != 2 {
		t.Errorf("429 then 200 with a retry: %v, %d requests", err, srv.Calls())
	}
}

func TestEmbedBadAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply providertest.Reply
		want  string
	}{
		{"malformed JSON", providertest.Reply{Body: `{"embeddings": [{"values": [0.1,`}, "google: embeddings: deserializeUnaryResponse: error unmarshalling response: unexpected end of JSON input"},
		{"not JSON", providertest.Reply{Body: `<html>bad gateway</html>`, Headers: map[string]string{"Content-Type": "text/html"}}, "google: embeddings: deserializeUnaryResponse: error unmarshalling response: invalid character '<'"},
		{"too few", providertest.Reply{Fixture: "embeddings_short.json"}, "embedding model gemini-embedding-001 (google.generative-ai): 1 vectors for 2 values"},
		{"none", providertest.Reply{Body: `{}`}, "embedding model gemini-embedding-001 (google.generative-ai): 0 vectors for 2 values"},
		{"no values", providertest.Reply{Body: `{"embeddings": [{"values": [1]}, {}]}`}, "google: embeddings: invalid response: embedding 1 has no values"},
	} {
		srv := &fakeServer{providertest.New(t, tc.reply)}
		res, err := embedValues(t, newTestEmbedding(t, srv, EmbeddingConfig{}), two, nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || res.Vectors != nil {
			t.Errorf("%s: %v\nwant %s", tc.name, err, tc.want)
		}
	}
	srv := serve(t, "embeddings_short.json", http.StatusOK)
	_, err := embedValues(t, newTestEmbedding(t, srv, EmbeddingConfig{}), two, nil)
	var count *model.EmbeddingCountError
	if !errors.As(err, &count) || count.Values != 2 || count.Vectors != 1 {
		t.Errorf("count: %v", err)
	}
}

func TestEmbedSendsNothingForNoValuesOrTooMany(t *testing.T) {
	srv := serve(t, "embeddings.json", http.StatusOK)
	m := newTestEmbedding(t, srv, EmbeddingConfig{})
	res, err := embedValues(t, m, nil, nil)
	if err != nil || res.Vectors == nil || len(res.Vectors) != 0 {
		t.Errorf("no values: %+v %v", res, err)
	}
	_, err = embedValues(t, m, make([]string, 101), nil)
	var tooMany *model.TooManyValuesError
	if !errors.As(err, &tooMany) || tooMany.Max != 100 || tooMany.Values != 101 {
		t.Errorf("too many: %v", err)
	}
	if srv.Calls() != 0 {
		t.Errorf("%d requests", srv.Calls())
	}
}

func TestEmbedCancelled(t *testing.T) {
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hs.Close()
	defer close(release)
	m, err := NewEmbedding(testEmbeddingModel, EmbeddingConfig{APIKey: "k", BaseURL: hs.URL, HTTPClient: hs.Client()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := m.Embed(ctx, two, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v", err)
	}
}

// The router entry offers both kinds of model, with the same key and
// base URL settings.
func TestProvidersOfferEmbeddings(t *testing.T) {
	srv := serve(t, "embeddings.json", http.StatusOK)
	env := map[string]string{"GOOGLE_GENERATIVE_AI_API_KEY": "env-key", "GOOGLE_GENERATIVE_AI_BASE_URL": srv.URL}
	r := model.NewRouter(func(k string) string { return env[k] }, Providers()...)
	e, err := r.ResolveEmbeddingID("google/gemini-embedding-001")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := embedValues(t, e, two, nil); err != nil {
		t.Fatal(err)
	}
	if got := srv.requests()[0].Header.Get("X-Goog-Api-Key"); got != "env-key" {
		t.Errorf("key %q", got)
	}
	if m, err := r.ResolveID("google/gemini-2.5-flash"); err != nil || m.Provider() != ProviderID {
		t.Errorf("language model: %v", err)
	}
}
