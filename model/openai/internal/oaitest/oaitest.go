// Package oaitest holds the test helpers of package openai and package
// chat.
package oaitest

import (
	"context"
	"net/http"
	"net/url"
	"runtime"
	"testing"
	"time"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
)

// Parts streams req through m (with a 10-second timeout) and returns the
// parts up to the first error.
func Parts(t *testing.T, m model.LanguageModel, req *model.Request) ([]model.StreamPart, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var parts []model.StreamPart
	for p, err := range m.Stream(ctx, req) {
		if err != nil {
			return parts, err
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// Time is the UTC time of a Unix timestamp, as response metadata holds
// it.
func Time(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// RedirectTransport sends every request to base (e.g. a local test
// server's URL), keeping its path: a model configured for a remote API
// talks to the local server instead.
type RedirectTransport struct{ Base string }

// RoundTrip implements http.RoundTripper.
func (rt RedirectTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	u, err := url.Parse(rt.Base)
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	r.Host = u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// ModelAt builds a package's model for a test of credentials: at baseURL
// ("" for OpenAI's), with apiKey, through client (nil for the default).
type ModelAt func(baseURL, apiKey string, client *http.Client) (model.LanguageModel, error)

// Credentials checks what a package's models send of the environment's
// OpenAI settings: to another endpoint, nothing (neither the key nor the
// organization, project or custom headers); to OpenAI itself, the
// configured key and the environment's organization and project. fixture
// is a stream the package parses; path is the API path it calls.
func Credentials(t *testing.T, fixture, path string, newModel ModelAt) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Custom: env")
	send := func(baseURL, apiKey string, client *http.Client, srv *providertest.Server) http.Header {
		t.Helper()
		m, err := newModel(baseURL, apiKey, client)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}}); err != nil {
			t.Fatal(err)
		}
		req := srv.Requests()[len(srv.Requests())-1]
		if req.Path != path {
			t.Errorf("path %q, want %q", req.Path, path)
		}
		return req.Header
	}
	other := providertest.New(t, providertest.Reply{Fixture: fixture})
	h := send(other.URL+"/v1", "", nil, other)
	for _, k := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project", "X-Custom"} {
		if v := h.Get(k); v != "" {
			t.Errorf("another endpoint got %s: %q", k, v)
		}
	}
	openai := providertest.New(t, providertest.Reply{Fixture: fixture})
	h = send("", "sk-cfg", &http.Client{Transport: RedirectTransport{Base: openai.URL}}, openai)
	for k, want := range map[string]string{"Authorization": "Bearer sk-cfg", "OpenAI-Organization": "org-env", "OpenAI-Project": "proj-env"} {
		if v := h.Get(k); v != want {
			t.Errorf("OpenAI got %s: %q, want %q", k, v, want)
		}
	}
}

// BareHeaders sets the headers the SDK sends on a request, as the
// packages' bare-loop benchmarks send them by hand.
func BareHeaders(h http.Header, apiKey string) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("Authorization", "Bearer "+apiKey)
	h.Set("User-Agent", "OpenAI/Go 3.98.0")
	h.Set("X-Stainless-Arch", "x64")
	h.Set("X-Stainless-Lang", "go")
	h.Set("X-Stainless-Os", "Linux")
	h.Set("X-Stainless-Package-Version", "3.98.0")
	h.Set("X-Stainless-Retry-Count", "0")
	h.Set("X-Stainless-Runtime", "go")
	h.Set("X-Stainless-Runtime-Version", runtime.Version())
}
