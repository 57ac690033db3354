package mcpclient

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// EnterpriseConfig is enterprise-managed authorization (cross-app
// access): the user's ID token from the company's identity provider is
// exchanged there for an identity assertion grant (RFC 8693), which the
// MCP server's authorization server exchanges for an access token (RFC
// 7523), with no consent screen. OAuthConfig.ClientID and ClientSecret
// are the client's registration at the MCP server's authorization server.
type EnterpriseConfig struct {
	// IdPIssuerURL is the identity provider's issuer; its token endpoint
	// is IdPTokenURL or, when that is empty, found in its metadata.
	IdPIssuerURL string
	IdPTokenURL  string
	// IdPClientID and IdPClientSecret are the client's registration at
	// the identity provider (the secret is empty for a public client).
	IdPClientID     string
	IdPClientSecret string
	// IDToken returns the signed-in user's ID token (from your OIDC
	// login; the MCP SDK's extauth.PerformOIDCLogin does one).
	IDToken func(ctx context.Context) (string, error)
}

// enterpriseHandler runs enterprise-managed authorization: discovery of
// the MCP server's authorization server, the token exchange at the
// identity provider (the SDK's oauthex.ExchangeToken) and the JWT-bearer
// grant. The SDK's extauth.EnterpriseHandler needs the authorization
// server up front, discovers the identity provider's token endpoint only
// from PKCE-advertising metadata and authenticates only in the body.
type enterpriseHandler struct {
	cfg      EnterpriseConfig
	clientID string
	secret   string
	hc       *http.Client

	heldTokens
}

var _ auth.OAuthHandler = (*enterpriseHandler)(nil)

func (h *enterpriseHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	prm, _, err := challengedResource(ctx, req, resp, h.hc)
	if err != nil {
		return err
	}
	asURL := prm.AuthorizationServers[0]
	grant, err := h.identityGrant(ctx, asURL, prm)
	if err != nil {
		return err
	}
	asm, err := auth.GetAuthServerMetadata(ctx, asURL, h.hc)
	if err != nil {
		return fmt.Errorf("getting authorization server metadata: %w", err)
	}
	if asm == nil {
		asm = &oauthex.AuthServerMeta{Issuer: asURL, TokenEndpoint: strings.TrimRight(asURL, "/") + "/token"}
	}
	style := oauth2.AuthStyleInHeader // client_secret_basic, RFC 7591's default
	if len(asm.TokenEndpointAuthMethodsSupported) > 0 && !slices.Contains(asm.TokenEndpointAuthMethodsSupported, "client_secret_basic") {
		style = oauth2.AuthStyleInParams
	}
	cfg := &oauth2.Config{ClientID: h.clientID, ClientSecret: h.secret,
		Endpoint: oauth2.Endpoint{TokenURL: asm.TokenEndpoint, AuthStyle: style}}
	tok, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, h.hc), "",
		oauth2.SetAuthURLParam("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
		oauth2.SetAuthURLParam("assertion", grant))
	if err != nil {
		return fmt.Errorf("JWT-bearer grant: %w", err)
	}
	h.hold(oauth2.StaticTokenSource(tok))
	return nil
}

// identityGrant exchanges the user's ID token at the identity provider
// for an identity assertion grant for the authorization server asURL.
func (h *enterpriseHandler) identityGrant(ctx context.Context, asURL string, prm *oauthex.ProtectedResourceMetadata) (string, error) {
	idToken, err := h.cfg.IDToken(ctx)
	if err != nil {
		return "", fmt.Errorf("getting the ID token: %w", err)
	}
	tokenURL := h.cfg.IdPTokenURL
	if tokenURL == "" {
		meta, err := auth.GetAuthServerMetadata(ctx, h.cfg.IdPIssuerURL, h.hc)
		if err != nil || meta == nil {
			return "", fmt.Errorf("discovering the identity provider's token endpoint (set IdPTokenURL): %v", err)
		}
		tokenURL = meta.TokenEndpoint
	}
	creds := &oauthex.ClientCredentials{ClientID: h.cfg.IdPClientID}
	if h.cfg.IdPClientSecret != "" {
		creds.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.cfg.IdPClientSecret}
	}
	tok, err := oauthex.ExchangeToken(ctx, tokenURL, &oauthex.TokenExchangeRequest{
		RequestedTokenType: oauthex.TokenTypeIDJAG, Audience: asURL, Resource: prm.Resource,
		Scope: prm.ScopesSupported, SubjectToken: idToken, SubjectTokenType: oauthex.TokenTypeIDToken,
	}, creds, h.hc)
	if err != nil {
		return "", fmt.Errorf("token exchange at the identity provider: %w", err)
	}
	return tok.AccessToken, nil
}
