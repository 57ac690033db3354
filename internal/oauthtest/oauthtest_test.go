package oauthtest

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const redirectURI = "http://127.0.0.1:9/callback"

// pkce is a verifier and its S256 challenge.
func pkce() (verifier, challenge string) {
	verifier = strings.Repeat("v", 20) + randomString(16)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// register registers a client over RFC 7591.
func register(t *testing.T, as *Server, method string) Client {
	t.Helper()
	body := `{"redirect_uris":["` + redirectURI + `"],"token_endpoint_auth_method":"` + method + `"}`
	resp, err := http.Post(as.Issuer+"/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c Client
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("register: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c
}

// authorize runs /authorize and returns the redirect's query.
func authorize(t *testing.T, as *Server, c Client, challenge string, extra url.Values) url.Values {
	t.Helper()
	q := url.Values{"response_type": {"code"}, "client_id": {c.ID}, "redirect_uri": {redirectURI},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st-1"}}
	for k, v := range extra {
		q[k] = v
	}
	u, err := as.Authorize(context.Background(), as.Issuer+"/authorize?"+q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Scheme + "://" + u.Host + u.Path; got != redirectURI {
		t.Fatalf("redirected to %s", got)
	}
	return u.Query()
}

// token posts a token request as c (by its auth method) and decodes the
// answer.
func token(t *testing.T, as *Server, c Client, form url.Values) (int, map[string]any) {
	t.Helper()
	switch c.AuthMethod {
	case AuthNone:
		form.Set("client_id", c.ID)
	case AuthClientSecretPost:
		form.Set("client_id", c.ID)
		form.Set("client_secret", c.Secret)
	}
	req, _ := http.NewRequest(http.MethodPost, as.Issuer+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if c.AuthMethod == AuthClientSecretBasic {
		req.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

func codeForm(code, verifier string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {redirectURI}}
}

func TestMetadata(t *testing.T) {
	as := New(t, Options{Scopes: []string{"mcp"}})
	resp, err := http.Get(as.MetadataURL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m["issuer"] != as.Issuer || m["token_endpoint"] != as.Issuer+"/token" || m["registration_endpoint"] != as.Issuer+"/register" {
		t.Errorf("metadata = %v", m)
	}
	if !strings.HasPrefix(as.Issuer, "http://127.0.0.1:") {
		t.Errorf("issuer %s is not on 127.0.0.1", as.Issuer)
	}
	if as.Requests("metadata") != 1 {
		t.Errorf("metadata requests = %d", as.Requests("metadata"))
	}
}

func TestCodeFlowEachAuthMethod(t *testing.T) {
	for _, method := range []string{AuthNone, AuthClientSecretPost, AuthClientSecretBasic} {
		t.Run(method, func(t *testing.T) {
			as := New(t, Options{Subject: "alice"})
			c := register(t, as, method)
			if (c.Secret == "") != (method == AuthNone) {
				t.Fatalf("secret %q for %s", c.Secret, method)
			}
			verifier, challenge := pkce()
			q := authorize(t, as, c, challenge, url.Values{"resource": {"http://127.0.0.1:7/mcp"}, "scope": {"a b"}})
			if q.Get("state") != "st-1" || q.Get("iss") != as.Issuer || q.Get("code") == "" {
				t.Fatalf("redirect query %v", q)
			}
			status, m := token(t, as, c, codeForm(q.Get("code"), verifier))
			if status != http.StatusOK {
				t.Fatalf("token: %d %v", status, m)
			}
			info, err := as.Verify(m["access_token"].(string))
			if err != nil {
				t.Fatal(err)
			}
			if info.Subject != "alice" || info.ClientID != c.ID || info.Resource != "http://127.0.0.1:7/mcp" || strings.Join(info.Scopes, " ") != "a b" {
				t.Errorf("info = %+v", info)
			}
			if m["refresh_token"] == nil || m["token_type"] != "Bearer" || m["expires_in"].(float64) != 3600 {
				t.Errorf("token response %v", m)
			}
		})
	}
}

func TestCodeChecks(t *testing.T) {
	as := New(t, Options{})
	c := register(t, as, AuthNone)
	other := register(t, as, AuthNone)
	verifier, challenge := pkce()
	cases := []struct {
		name   string
		client Client
		form   func(code string) url.Values
		want   string
	}{
		{"wrong verifier", c, func(code string) url.Values { v, _ := pkce(); return codeForm(code, v) }, "invalid_grant"},
		{"no verifier", c, func(code string) url.Values { return codeForm(code, "") }, "invalid_grant"},
		{"other client", other, func(code string) url.Values { return codeForm(code, verifier) }, "invalid_grant"},
		{"other redirect", c, func(code string) url.Values {
			f := codeForm(code, verifier)
			f.Set("redirect_uri", "http://127.0.0.1:9/other")
			return f
		}, "invalid_grant"},
		{"other resource", c, func(code string) url.Values {
			f := codeForm(code, verifier)
			f.Set("resource", "http://127.0.0.1:8/mcp")
			return f
		}, "invalid_target"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := authorize(t, as, c, challenge, url.Values{"resource": {"http://127.0.0.1:7/mcp"}})
			status, m := token(t, as, tc.client, tc.form(q.Get("code")))
			if status != http.StatusBadRequest || m["error"] != tc.want {
				t.Fatalf("got %d %v, want 400 %s", status, m, tc.want)
			}
			// The code is used up even by a failed request.
			status, _ = token(t, as, c, codeForm(q.Get("code"), verifier))
			if status != http.StatusBadRequest {
				t.Fatalf("code reused after a failed request: %d", status)
			}
		})
	}
	t.Run("reused code", func(t *testing.T) {
		q := authorize(t, as, c, challenge, nil)
		if status, m := token(t, as, c, codeForm(q.Get("code"), verifier)); status != http.StatusOK {
			t.Fatalf("first use: %d %v", status, m)
		}
		if status, m := token(t, as, c, codeForm(q.Get("code"), verifier)); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
			t.Fatalf("second use: %d %v", status, m)
		}
	})
}

func TestClientAuthentication(t *testing.T) {
	as := New(t, Options{})
	c := register(t, as, AuthClientSecretBasic)
	verifier, challenge := pkce()
	for name, bad := range map[string]Client{
		"wrong secret":   {ID: c.ID, Secret: "nope", AuthMethod: AuthClientSecretBasic},
		"wrong method":   {ID: c.ID, Secret: c.Secret, AuthMethod: AuthClientSecretPost},
		"no secret":      {ID: c.ID, AuthMethod: AuthNone},
		"unknown client": {ID: "x", AuthMethod: AuthNone},
	} {
		q := authorize(t, as, c, challenge, nil)
		status, m := token(t, as, bad, codeForm(q.Get("code"), verifier))
		if status != http.StatusUnauthorized || m["error"] != "invalid_client" {
			t.Errorf("%s: %d %v", name, status, m)
		}
	}
}

func TestAuthorizeDecisionsAndErrors(t *testing.T) {
	as := New(t, Options{Scopes: []string{"mcp"}, RequireResource: true})
	c := register(t, as, AuthNone)
	_, challenge := pkce()
	res := url.Values{"resource": {"http://127.0.0.1:7/mcp"}}
	if q := authorize(t, as, c, challenge, nil); q.Get("error") != "invalid_target" {
		t.Errorf("no resource: %v", q)
	}
	if q := authorize(t, as, c, challenge, url.Values{"resource": res["resource"], "scope": {"admin"}}); q.Get("error") != "invalid_scope" {
		t.Errorf("unsupported scope: %v", q)
	}
	if q := authorize(t, as, c, challenge, url.Values{"resource": res["resource"], "code_challenge_method": {"plain"}}); q.Get("error") != "invalid_request" {
		t.Errorf("plain PKCE: %v", q)
	}
	as.SetDecision(Deny)
	if q := authorize(t, as, c, challenge, res); q.Get("error") != "access_denied" || q.Get("code") != "" || q.Get("state") != "st-1" {
		t.Errorf("deny: %v", q)
	}
	as.SetDecision(WrongState)
	if q := authorize(t, as, c, challenge, res); q.Get("code") == "" || q.Get("state") == "st-1" {
		t.Errorf("wrong state: %v", q)
	}
	as.SetDecision(WrongIss)
	if q := authorize(t, as, c, challenge, res); q.Get("iss") == as.Issuer {
		t.Errorf("wrong iss: %v", q)
	}
	bad := c
	bad.ID = "unknown"
	q := url.Values{"response_type": {"code"}, "client_id": {"unknown"}, "redirect_uri": {redirectURI}}
	if _, err := as.Authorize(context.Background(), as.Issuer+"/authorize?"+q.Encode()); err == nil {
		t.Error("unknown client was redirected")
	}
	q.Set("client_id", c.ID)
	q.Set("redirect_uri", "http://127.0.0.1:9/evil")
	if _, err := as.Authorize(context.Background(), as.Issuer+"/authorize?"+q.Encode()); err == nil {
		t.Error("unregistered redirect_uri was redirected to")
	}
}

func TestRefreshRotationExpiryRevocation(t *testing.T) {
	as := New(t, Options{})
	c := register(t, as, AuthClientSecretPost)
	verifier, challenge := pkce()
	q := authorize(t, as, c, challenge, url.Values{"scope": {"a b"}})
	_, m := token(t, as, c, codeForm(q.Get("code"), verifier))
	rt := m["refresh_token"].(string)
	refresh := func(rt string, extra ...string) (int, map[string]any) {
		f := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}}
		for i := 0; i+1 < len(extra); i += 2 {
			f.Set(extra[i], extra[i+1])
		}
		return token(t, as, c, f)
	}
	status, m2 := refresh(rt, "scope", "a")
	if status != http.StatusOK || m2["refresh_token"] == rt || m2["scope"] != "a" {
		t.Fatalf("refresh: %d %v", status, m2)
	}
	if status, m := refresh(rt); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
		t.Fatalf("rotated-out refresh token worked: %d %v", status, m)
	}
	if status, m := refresh(m2["refresh_token"].(string), "scope", "c"); status != http.StatusBadRequest || m["error"] != "invalid_scope" {
		t.Fatalf("widened scope: %d %v", status, m)
	}
	// A failed refresh does not use the token up.
	status, m3 := refresh(m2["refresh_token"].(string))
	if status != http.StatusOK {
		t.Fatalf("refresh after a failed one: %d %v", status, m3)
	}
	as.ExpireRefreshTokens()
	if status, m := refresh(m3["refresh_token"].(string)); status != http.StatusBadRequest || !strings.Contains(m["error_description"].(string), "expired") {
		t.Fatalf("expired refresh token: %d %v", status, m)
	}
	rt4 := freshRefresh(t, as, c)
	as.RevokeRefreshTokens()
	if status, m := refresh(rt4); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
		t.Fatalf("revoked refresh token: %d %v", status, m)
	}
}

// freshRefresh runs a code flow and returns its refresh token.
func freshRefresh(t *testing.T, as *Server, c Client) string {
	verifier, challenge := pkce()
	q := authorize(t, as, c, challenge, nil)
	_, m := token(t, as, c, codeForm(q.Get("code"), verifier))
	return m["refresh_token"].(string)
}

func TestFailures(t *testing.T) {
	as := New(t, Options{})
	c := register(t, as, AuthNone)
	as.FailToken(&Failure{Status: 503})
	if status, m := token(t, as, c, url.Values{}); status != 503 || m["error"] != "server_error" {
		t.Errorf("503: %d %v", status, m)
	}
	as.FailToken(&Failure{Malformed: true})
	if status, m := token(t, as, c, url.Values{}); status != 200 || m != nil {
		t.Errorf("malformed: %d %v", status, m)
	}
	as.FailToken(&Failure{Hang: true})
	arrived := make(chan string, 1)
	as.onRequest = func(name string) { arrived <- name }
	ctx, cancel := context.WithCancel(context.Background())
	// A body the handler has not read: the server must still notice the
	// client leave, or the test server cannot close.
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, as.Issuer+"/token", strings.NewReader("grant_type=refresh_token&refresh_token=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	if name := <-arrived; name != "token" {
		t.Fatalf("request reached %s", name)
	}
	as.onRequest = nil
	select {
	case err := <-done:
		t.Fatalf("hanging request answered: %v", err)
	default:
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("cancelled hanging request succeeded")
	}
	as.FailToken(nil)
	as.FailRegistration(&Failure{Status: 400, Code: "invalid_client_metadata"})
	resp, err := http.Post(as.Issuer+"/register", "application/json", strings.NewReader(`{"redirect_uris":["`+redirectURI+`"]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("failing registration: %s", resp.Status)
	}
}

func TestRegistrationValidation(t *testing.T) {
	as := New(t, Options{})
	for body, want := range map[string]string{
		`{}`:                              "invalid_redirect_uri",
		`{"redirect_uris":["/relative"]}`: "invalid_redirect_uri",
		`{"redirect_uris":["` + redirectURI + `"],"token_endpoint_auth_method":"private_key_jwt"}`: "invalid_client_metadata",
		`not json`: "invalid_client_metadata",
	} {
		resp, err := http.Post(as.Issuer+"/register", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if resp.StatusCode != 400 || m["error"] != want {
			t.Errorf("%s: %d %v, want %s", body, resp.StatusCode, m, want)
		}
	}
	closed := New(t, Options{DisableRegistration: true})
	resp, err := http.Post(closed.Issuer+"/register", "application/json", strings.NewReader(`{"redirect_uris":["`+redirectURI+`"]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("disabled registration: %s", resp.Status)
	}
	if _, ok := closed.metadata()["registration_endpoint"]; ok {
		t.Error("disabled registration is advertised")
	}
}

func TestVerifyAndIntrospect(t *testing.T) {
	as := New(t, Options{})
	tok := as.IssueToken("bob", "http://127.0.0.1:7/mcp", 0, "mcp")
	introspect := func(tok string) map[string]any {
		resp, err := http.PostForm(as.Issuer+"/introspect", url.Values{"token": {tok}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return m
	}
	if m := introspect(tok); m["active"] != true || m["sub"] != "bob" || m["aud"] != "http://127.0.0.1:7/mcp" || m["scope"] != "mcp" {
		t.Errorf("introspection %v", m)
	}
	if _, err := as.Verify("at-forged"); err != ErrUnknownToken {
		t.Errorf("forged token: %v", err)
	}
	as.ExpireAccessTokens()
	if _, err := as.Verify(tok); err != ErrExpiredToken {
		t.Errorf("expired token: %v", err)
	}
	if m := introspect(tok); m["active"] != false {
		t.Errorf("expired token introspection %v", m)
	}
	tok2 := as.IssueToken("bob", "", 0)
	as.RevokeAccessTokens()
	if _, err := as.Verify(tok2); err != ErrUnknownToken {
		t.Errorf("revoked token: %v", err)
	}
}

func TestMetadataFailuresAndEdits(t *testing.T) {
	as := New(t, Options{EditMetadata: func(m map[string]any) {
		m["issuer"] = "http://127.0.0.1:1"
		delete(m, "code_challenge_methods_supported")
	}})
	get := func() (int, map[string]any) {
		resp, err := http.Get(as.MetadataURL())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	if status, m := get(); status != 200 || m["issuer"] != "http://127.0.0.1:1" || m["code_challenge_methods_supported"] != nil || m["token_endpoint"] != as.Issuer+"/token" {
		t.Errorf("edited metadata: %d %v", status, m)
	}
	as.FailMetadata(&Failure{Malformed: true})
	if status, m := get(); status != 200 || m != nil {
		t.Errorf("malformed metadata: %d %v", status, m)
	}
	as.FailMetadata(&Failure{Status: 404})
	if status, _ := get(); status != 404 {
		t.Errorf("missing metadata: %d", status)
	}
	as.FailMetadata(nil)
	if status, _ := get(); status != 200 {
		t.Errorf("restored metadata: %d", status)
	}
}
