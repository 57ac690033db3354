package main

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/gomastra/mastra/mcpclient"
)

// The auth/* scenarios: the server needs OAuth. The suite's authorization
// servers redirect at once, so Authorize follows the authorization URL
// instead of a person; the suite's context (MCP_CONFORMANCE_CONTEXT)
// carries pre-registered credentials where a scenario has them.
func init() { scenarioSetups = append(scenarioSetups, setupAuth) }

// conformanceContext is the JSON of MCP_CONFORMANCE_CONTEXT.
type conformanceContext struct {
	ClientID      string `json:"client_id"`
	ClientSecret  string `json:"client_secret"`
	PrivateKeyPEM string `json:"private_key_pem"`
	IdPClientID   string `json:"idp_client_id"`
	IdPIDToken    string `json:"idp_id_token"`
	IdPIssuer     string `json:"idp_issuer"`
	IdPTokenURL   string `json:"idp_token_endpoint"`
}

func setupAuth(scenario string, _ *mcpclient.Config, server *mcpclient.ServerConfig) error {
	if !strings.HasPrefix(scenario, "auth/") {
		return nil
	}
	var cc conformanceContext
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	if strings.HasPrefix(scenario, "auth/client-credentials") {
		server.OAuth = &mcpclient.OAuthConfig{ClientCredentials: true, ClientID: cc.ClientID, ClientSecret: cc.ClientSecret}
		if cc.PrivateKeyPEM != "" {
			key, err := parseKey(cc.PrivateKeyPEM)
			if err != nil {
				return err
			}
			server.OAuth.ClientAssertionKey = key
		}
		return nil
	}
	if scenario == "auth/cross-app-access-complete-flow" {
		server.OAuth = &mcpclient.OAuthConfig{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret,
			Enterprise: &mcpclient.EnterpriseConfig{IdPIssuerURL: cc.IdPIssuer, IdPTokenURL: cc.IdPTokenURL, IdPClientID: cc.IdPClientID,
				IDToken: func(context.Context) (string, error) { return cc.IdPIDToken, nil }}}
		return nil
	}
	server.OAuth = &mcpclient.OAuthConfig{
		RedirectURL:       "http://localhost:3000/callback",
		Authorize:         followRedirect(server.HTTPClient),
		ClientMetadataURL: "https://conformance-test.local/client-metadata.json",
		ClientID:          cc.ClientID,
		ClientSecret:      cc.ClientSecret,
		Store:             &mcpclient.MemoryTokenStore{},
	}
	return nil
}

// parseKey reads a PKCS #8 private key in PEM.
func parseKey(pemText string) (crypto.Signer, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return nil, errors.New("private_key_pem holds no PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("private_key_pem: %w", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("private_key_pem: a %T cannot sign", key)
	}
	return signer, nil
}

// followRedirect is an Authorize that visits the authorization URL and
// reads the code, state and issuer from the redirect it answers with.
func followRedirect(base *http.Client) auth.AuthorizationCodeFetcher {
	hc := *base
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		loc, err := url.Parse(resp.Header.Get("Location"))
		if err != nil || resp.StatusCode/100 != 3 {
			return nil, fmt.Errorf("the authorization endpoint answered %s without a redirect", resp.Status)
		}
		q := loc.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}
