package mcpclient

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// redirect GETs the callback as the browser would, returning the status
// (0 on a failure, reported with t.Error).
func redirect(t *testing.T, u string) int {
	resp, err := http.Get(u)
	if err != nil {
		t.Error(err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// The callback delivers the code of the redirect with the request's
// state, once; a replay is refused.
func TestLocalCallbackDeliversOnce(t *testing.T) {
	var cb *LocalCallback
	var err error
	done := make(chan int, 1)
	cb, err = NewLocalCallback(LocalCallbackOptions{Open: func(_ context.Context, authURL string) error {
		go func() { done <- redirect(t, cb.RedirectURL()+"?code=the-code&state=s1&iss=http%3A%2F%2F127.0.0.1%3A1") }()
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	if !strings.HasPrefix(cb.RedirectURL(), "http://127.0.0.1:") || !strings.HasSuffix(cb.RedirectURL(), "/callback") {
		t.Errorf("RedirectURL = %s", cb.RedirectURL())
	}
	res, err := cb.Authorize(ctxT(t), &auth.AuthorizationArgs{URL: "http://127.0.0.1:1/authorize?state=s1"})
	if err != nil || res.Code != "the-code" || res.State != "s1" || res.Iss != "http://127.0.0.1:1" {
		t.Fatalf("Authorize = %+v, %v", res, err)
	}
	if st := <-done; st != http.StatusOK {
		t.Errorf("redirect answered %d", st)
	}
	if st := redirect(t, cb.RedirectURL()+"?code=the-code&state=s1"); st != http.StatusBadRequest {
		t.Errorf("replayed redirect: %d, want 400", st)
	}
}

// A redirect with another state fails the wait, without its code.
func TestLocalCallbackStateMismatch(t *testing.T) {
	var cb *LocalCallback
	done := make(chan int, 1)
	cb, err := NewLocalCallback(LocalCallbackOptions{Open: func(context.Context, string) error {
		go func() { done <- redirect(t, cb.RedirectURL()+"?code=stolen-code&state=other") }()
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	_, err = cb.Authorize(ctxT(t), &auth.AuthorizationArgs{URL: "http://127.0.0.1:1/authorize?state=s1"})
	if st := <-done; st != http.StatusBadRequest {
		t.Errorf("the mismatched redirect answered %d, want 400", st)
	}
	if err == nil || !strings.Contains(err.Error(), "state does not match") || strings.Contains(err.Error(), "stolen-code") {
		t.Fatalf("err = %v", err)
	}
}

// Waiting ends at the timeout, on the context's end and on Close.
func TestLocalCallbackEnds(t *testing.T) {
	cb, err := NewLocalCallback(LocalCallbackOptions{Timeout: 50 * time.Millisecond, Open: func(context.Context, string) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	args := &auth.AuthorizationArgs{URL: "http://127.0.0.1:1/authorize?state=s1"}
	if _, err := cb.Authorize(ctxT(t), args); err == nil || !strings.Contains(err.Error(), "no redirect within") {
		t.Fatalf("timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cb.Authorize(ctx, args); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
	cb.Close()
	if _, err := cb.Authorize(ctxT(t), args); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("after Close: %v", err)
	}
	if _, err := http.Get(cb.RedirectURL()); err == nil {
		t.Fatal("the listener still answers after Close")
	}
	if _, err := NewLocalCallback(LocalCallbackOptions{Path: "callback"}); err == nil {
		t.Fatal("accepted a path without a leading /")
	}
}
