package mcpclient

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The client-credentials grant with a private_key_jwt assertion: the
// token endpoint verifies the ES256 signature and the claims, and the MCP
// server then accepts the token.
func TestOAuthClientAssertion(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var asURL string
	var verified atomic.Int32
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			json.NewEncoder(w).Encode(map[string]any{"issuer": asURL, "token_endpoint": asURL + "/token",
				"token_endpoint_auth_methods_supported": []string{"private_key_jwt"}, "code_challenge_methods_supported": []string{"S256"}})
		case "/token":
			r.ParseForm()
			if r.Form.Get("grant_type") != "client_credentials" || r.Form.Get("client_secret") != "" ||
				r.Form.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" ||
				!validAssertion(t, &key.PublicKey, r.Form.Get("client_assertion"), "svc", asURL) {
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"error":"invalid_client"}`))
				return
			}
			verified.Add(1)
			w.Write([]byte(`{"access_token":"cc-token","token_type":"Bearer","expires_in":3600}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(as.Close)
	asURL = as.URL

	resource := bearerServer(t, as.URL, "cc-token")

	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {URL: resource, ConnectTimeout: ctxTimeout,
		OAuth: &OAuthConfig{ClientCredentials: true, ClientID: "svc", ClientAssertionKey: key}}}})
	if _, err := c.ServerTools(ctxT(t), "srv"); err != nil {
		t.Fatal(err)
	}
	if verified.Load() != 1 {
		t.Fatalf("%d verified token requests, want 1", verified.Load())
	}
}

// validAssertion checks an ES256 client assertion's signature and claims.
func validAssertion(t *testing.T, pub *ecdsa.PublicKey, jwt, clientID, audience string) bool {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Errorf("assertion has %d parts", len(parts))
		return false
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		t.Errorf("signature: %v (%d bytes)", err, len(sig))
		return false
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Error("the assertion's signature does not verify")
		return false
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims struct {
		Iss, Sub, Aud, Jti string
		Exp, Iat           int64
	}
	if err := json.Unmarshal(payload, &claims); err != nil || claims.Iss != clientID || claims.Sub != clientID ||
		claims.Aud != audience || claims.Jti == "" || claims.Exp <= claims.Iat {
		t.Errorf("claims %+v (%v)", claims, err)
		return false
	}
	return true
}
