// Package oaitest holds the test helpers of package openai and package
// chat.
package oaitest

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

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
