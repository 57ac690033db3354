package oauthtest_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gomastra/mastra/internal/oauthtest"
)

// A client registers, the user approves, the code is exchanged with its
// PKCE verifier, and the resource server verifies the access token.
func Example() {
	as := oauthtest.Start(oauthtest.Options{Subject: "alice"})
	defer as.Close()
	const callback = "http://127.0.0.1:9/callback"
	client, _ := as.RegisterClient(oauthtest.Client{RedirectURIs: []string{callback}, AuthMethod: oauthtest.AuthNone})

	verifier := strings.Repeat("x", 43)
	sum := sha256.Sum256([]byte(verifier))
	authURL := as.Issuer + "/authorize?" + url.Values{
		"response_type": {"code"}, "client_id": {client.ID}, "redirect_uri": {callback},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {"http://127.0.0.1:8080/mcp"}, "state": {"s1"},
	}.Encode()
	redirect, _ := as.Authorize(context.Background(), authURL)

	resp, err := http.PostForm(as.Issuer+"/token", url.Values{
		"grant_type": {"authorization_code"}, "client_id": {client.ID}, "code": {redirect.Query().Get("code")},
		"code_verifier": {verifier}, "redirect_uri": {callback}, "resource": {"http://127.0.0.1:8080/mcp"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)

	info, err := as.Verify(tok.AccessToken)
	fmt.Println(info.Subject, info.Resource, err)
	// Output: alice http://127.0.0.1:8080/mcp <nil>
}
