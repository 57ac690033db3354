package mcpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Enterprise-managed authorization: the ID token is exchanged at the
// identity provider for a grant, the grant at the authorization server
// (client_secret_basic) for the access token the MCP server accepts.
func TestOAuthEnterprise(t *testing.T) {
	var asURL, resource string
	var exchanges, grants atomic.Int32
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		f := r.Form
		if r.URL.Path != "/token" || f.Get("grant_type") != "urn:ietf:params:oauth:grant-type:token-exchange" ||
			f.Get("subject_token") != "the-id-token" || f.Get("audience") != asURL || f.Get("resource") != resource ||
			f.Get("client_id") != "idp-client" {
			t.Errorf("token exchange %s %v", r.URL.Path, f)
			http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
			return
		}
		exchanges.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"the-grant","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}`))
	}))
	t.Cleanup(idp.Close)
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/.well-known/oauth-authorization-server" {
			json.NewEncoder(w).Encode(map[string]any{"issuer": asURL, "token_endpoint": asURL + "/token",
				"code_challenge_methods_supported": []string{"S256"}})
			return
		}
		r.ParseForm()
		user, pass, basic := r.BasicAuth()
		if r.Form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" || r.Form.Get("assertion") != "the-grant" ||
			!basic || user != "mcp-client" || pass != "mcp-secret" {
			t.Errorf("JWT-bearer grant %v (basic %v %q)", r.Form, basic, user)
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		grants.Add(1)
		w.Write([]byte(`{"access_token":"ent-token","token_type":"Bearer","expires_in":3600}`))
	}))
	t.Cleanup(as.Close)
	asURL = as.URL

	resource = bearerServer(t, as.URL, "ent-token")

	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {URL: resource, ConnectTimeout: ctxTimeout,
		OAuth: &OAuthConfig{ClientID: "mcp-client", ClientSecret: "mcp-secret", Enterprise: &EnterpriseConfig{
			IdPIssuerURL: idp.URL, IdPTokenURL: idp.URL + "/token", IdPClientID: "idp-client",
			IDToken: func(context.Context) (string, error) { return "the-id-token", nil },
		}}}}})
	if _, err := c.ServerTools(ctxT(t), "srv"); err != nil {
		t.Fatal(err)
	}
	if exchanges.Load() != 1 || grants.Load() != 1 {
		t.Fatalf("%d exchanges, %d grants, want 1 and 1", exchanges.Load(), grants.Load())
	}
}
