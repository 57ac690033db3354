package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// IntrospectionValidator authenticates itself, reads RFC 7662 answers,
// and tells an inactive token (ErrInvalidToken) from a failing endpoint
// (another error) without putting the token in its errors.
func TestIntrospectionValidator(t *testing.T) {
	var answer string
	var status int
	ts := serveHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, secret, ok := r.BasicAuth()
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
		if err := r.ParseForm(); err != nil || !ok || id != "rs:1" || secret != "s p" || r.PostForm.Get("token") != "tok-secret" || r.PostForm.Get("token_type_hint") != "access_token" {
			http.Error(w, "bad introspection request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(answer))
	}))
	v := IntrospectionValidator(ts.URL, IntrospectionOptions{ClientID: "rs:1", ClientSecret: "s p"})
	for _, c := range []struct {
		name, answer string
		status       int
		check        func(*TokenInfo, error) bool
	}{
		{"active", `{"active":true,"sub":"alice","scope":"a b","exp":4102444800,"aud":["x","y"],"tenant":"t1"}`, 200, func(i *TokenInfo, err error) bool {
			return err == nil && i.Subject == "alice" && strings.Join(i.Scopes, ",") == "a,b" && i.Expiry.Equal(time.Unix(4102444800, 0)) &&
				strings.Join(i.Audience, ",") == "x,y" && i.Claims["tenant"] == "t1"
		}},
		{"single audience", `{"active":true,"aud":"x"}`, 200, func(i *TokenInfo, err error) bool { return err == nil && len(i.Audience) == 1 }},
		{"inactive", `{"active":false}`, 200, func(i *TokenInfo, err error) bool { return errors.Is(err, ErrInvalidToken) }},
		{"not JSON", `<html>`, 200, func(i *TokenInfo, err error) bool { return err != nil && !errors.Is(err, ErrInvalidToken) }},
		{"endpoint error", `{}`, 503, func(i *TokenInfo, err error) bool { return err != nil && !errors.Is(err, ErrInvalidToken) }},
	} {
		answer, status = c.answer, c.status
		info, err := v(context.Background(), "tok-secret", "x")
		if !c.check(info, err) {
			t.Errorf("%s: %+v %v", c.name, info, err)
		}
		if err != nil && strings.Contains(err.Error(), "tok-secret") {
			t.Errorf("%s: the token is in the error: %v", c.name, err)
		}
	}
}
