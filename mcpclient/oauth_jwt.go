package mcpclient

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// jwtHandler is the client-credentials grant with private_key_jwt client
// authentication (RFC 7523): each token request carries a fresh assertion
// signed with the client's key. The MCP SDK's client-credentials handler
// only authenticates with a secret; discovery is the SDK's (oauthex,
// auth.GetAuthServerMetadata).
type jwtHandler struct {
	clientID string
	key      crypto.Signer
	hc       *http.Client

	heldTokens
}

var _ auth.OAuthHandler = (*jwtHandler)(nil)

// jwtAlg is the JWS algorithm of key: ES256 for a P-256 key, RS256 for
// RSA.
func jwtAlg(key crypto.Signer) (string, error) {
	if k, ok := key.(*ecdsa.PrivateKey); ok && k.Curve.Params().BitSize == 256 {
		return "ES256", nil
	}
	if _, ok := key.Public().(*rsa.PublicKey); ok {
		return "RS256", nil
	}
	return "", fmt.Errorf("ClientAssertionKey must be a P-256 *ecdsa.PrivateKey or a crypto.Signer with an RSA key, not %T", key)
}

// Authorize discovers the token endpoint from the server's metadata and
// makes a token source for it.
func (h *jwtHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	prm, challenges, err := challengedResource(ctx, req, resp, h.hc)
	if err != nil {
		return err
	}
	asm, err := auth.GetAuthServerMetadata(ctx, prm.AuthorizationServers[0], h.hc)
	if err != nil {
		return fmt.Errorf("getting authorization server metadata: %w", err)
	}
	if asm == nil {
		asm = &oauthex.AuthServerMeta{Issuer: prm.AuthorizationServers[0], TokenEndpoint: strings.TrimRight(prm.AuthorizationServers[0], "/") + "/token"}
	}
	scopes := prm.ScopesSupported
	for _, c := range challenges {
		if c.Scheme == "bearer" && c.Params["scope"] != "" {
			scopes = strings.Fields(c.Params["scope"])
		}
	}
	src := &assertionSource{h: h, tokenURL: asm.TokenEndpoint, audience: asm.Issuer, scopes: scopes, resource: prm.Resource}
	h.hold(oauth2.ReuseTokenSource(nil, src))
	return nil
}

// assertionSource fetches a token with a freshly signed assertion.
type assertionSource struct {
	h                  *jwtHandler
	tokenURL, audience string
	resource           string
	scopes             []string
}

func (s *assertionSource) Token() (*oauth2.Token, error) {
	assertion, err := s.h.sign(s.audience)
	if err != nil {
		return nil, err
	}
	params := url.Values{
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {assertion},
	}
	if s.resource != "" {
		params.Set("resource", s.resource)
	}
	cfg := &clientcredentials.Config{ClientID: s.h.clientID, TokenURL: s.tokenURL, Scopes: s.scopes,
		AuthStyle: oauth2.AuthStyleInParams, EndpointParams: params}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, s.h.hc)
	return cfg.Token(ctx)
}

// sign makes a client assertion for audience, valid for five minutes.
func (h *jwtHandler) sign(audience string) (string, error) {
	alg, err := jwtAlg(h.key)
	if err != nil {
		return "", err
	}
	now := time.Now()
	jti := make([]byte, 16)
	rand.Read(jti)
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	claims, _ := json.Marshal(map[string]any{"iss": h.clientID, "sub": h.clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "jti": base64.RawURLEncoding.EncodeToString(jti)})
	input := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(claims)
	digest := sha256.Sum256([]byte(input))
	var sig []byte
	if k, ok := h.key.(*ecdsa.PrivateKey); ok {
		r, s, err := ecdsa.Sign(rand.Reader, k, digest[:])
		if err != nil {
			return "", err
		}
		sig = append(pad32(r), pad32(s)...)
	} else if sig, err = h.key.Sign(rand.Reader, digest[:], crypto.SHA256); err != nil {
		return "", err
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// pad32 is n as 32 big-endian bytes (a P-256 JWS signature half).
func pad32(n *big.Int) []byte {
	b := make([]byte, 32)
	return n.FillBytes(b)
}
