package loopback

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestOnly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	c := &http.Client{Transport: Only(http.DefaultTransport)}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatalf("loopback refused: %v", err)
	}
	resp.Body.Close()
	// The refused requests must never reach a transport that could dial.
	reached := 0
	guarded := &http.Client{Transport: Only(roundTripFunc(func(*http.Request) (*http.Response, error) {
		reached++
		return nil, http.ErrHandlerTimeout
	}))}
	for _, u := range []string{"http://localhost:1/", "http://192.0.2.1/", "http://example.invalid/", "http://[2001:db8::1]/"} {
		if _, err := guarded.Get(u); err == nil {
			t.Errorf("%s was not refused", u)
		}
	}
	if reached != 0 {
		t.Errorf("%d refused requests reached the transport", reached)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
