package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// OAuthOptions make the streamable HTTP transport an OAuth 2.1 protected
// resource, as Mastra's MCPServerOAuthConfig (createOAuthMiddleware)
// does: every request needs "Authorization: Bearer <access token>" that
// ValidateToken accepts, a request without one is answered 401 with a
// WWW-Authenticate header naming the protected resource metadata
// (RFC 9728), and that metadata document is served (Server.
// ProtectedResourceMetadataHandler; Routes mounts it). The validated
// token's Subject reaches tools as the resource id (mastra__resourceId)
// and binds sessions and suspended calls to that user.
type OAuthOptions struct {
	// Resource is the canonical URL of the MCP endpoint, the RFC 8707
	// resource clients ask tokens for ("https://mcp.example.com/api/mcp/
	// my-server/mcp"). Required: an absolute http or https URL without
	// query or fragment.
	Resource string
	// AuthorizationServers are the issuer URLs of the authorization
	// servers that issue tokens for Resource. At least one is required.
	AuthorizationServers []string
	// ScopesSupported are the scopes the metadata advertises (default
	// Mastra's ["mcp:read", "mcp:write"]).
	ScopesSupported []string
	// RequiredScopes must all be granted to a token; one that lacks any
	// is answered 403 with error="insufficient_scope". None by default.
	RequiredScopes []string
	// ResourceName and ResourceDocumentation are the metadata's
	// resource_name and resource_documentation.
	ResourceName          string
	ResourceDocumentation string
	// ValidateToken checks an access token presented for resource
	// (Resource). Required (Mastra accepts any token when it is unset;
	// this package refuses to run unprotected). See TokenValidator.
	ValidateToken TokenValidator
}

// TokenValidator checks a bearer token for resource, the server's
// OAuthOptions.Resource, and says who it is for: Mastra's validateToken.
// It returns an error wrapping ErrInvalidToken for a token that is not
// valid (unknown, revoked, expired, for another resource): the client is
// answered 401 error="invalid_token". Any other error (the authorization
// server cannot be reached) is answered 500 and logged; the token itself
// is never logged.
type TokenValidator func(ctx context.Context, token, resource string) (*TokenInfo, error)

// TokenInfo is what a valid access token grants: Mastra's
// TokenValidationResult.
type TokenInfo struct {
	// Subject is the user the token acts for. It becomes the tools'
	// resource id (mastra__resourceId) and the session's owner.
	Subject string
	// Scopes are the granted scopes (checked against RequiredScopes).
	Scopes []string
	// Expiry, when set, is when the token stops being valid: a token
	// past it is refused (401) even if the validator accepted it.
	Expiry time.Time
	// Audience, when set, are the resources the token was issued for;
	// a token whose Audience does not include OAuthOptions.Resource is
	// refused (401 invalid_token). Empty: the validator checked it.
	Audience []string
	// Claims are further claims, shown to tools as authInfo.extra.
	Claims map[string]any
}

// ErrInvalidToken is what a TokenValidator wraps for a token that is not
// valid. It is the SDK's auth.ErrInvalidToken.
var ErrInvalidToken = auth.ErrInvalidToken

// defaultScopes are Mastra's default scopes_supported.
var defaultScopes = []string{"mcp:read", "mcp:write"}

// check reports what is wrong with o.
func (o *OAuthOptions) check() error {
	u, err := url.Parse(o.Resource)
	switch {
	case o.Resource == "":
		return errors.New("OAuth needs a Resource (the MCP endpoint's canonical URL)")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("OAuth Resource %q is not an absolute http(s) URL without query or fragment", o.Resource)
	case len(o.AuthorizationServers) == 0:
		return errors.New("OAuth needs at least one AuthorizationServers issuer URL")
	case o.ValidateToken == nil:
		return errors.New("OAuth needs a ValidateToken function")
	}
	for _, as := range o.AuthorizationServers {
		if u, err := url.Parse(as); err != nil || !u.IsAbs() || u.Host == "" {
			return fmt.Errorf("OAuth authorization server %q is not an absolute URL", as)
		}
	}
	return nil
}

// metadataPath is where RFC 9728 puts the metadata of the resource: the
// well-known prefix followed by the resource's path
// ("/.well-known/oauth-protected-resource/api/mcp/x/mcp").
func (o *OAuthOptions) metadataPath() string {
	u, _ := url.Parse(o.Resource)
	p := u.EscapedPath()
	if p == "/" {
		p = ""
	}
	return wellKnownPRM + p
}

// metadataURL is the absolute URL of the metadata, named in 401
// answers' WWW-Authenticate.
func (o *OAuthOptions) metadataURL() string {
	u, _ := url.Parse(o.Resource)
	return u.Scheme + "://" + u.Host + o.metadataPath()
}

// wellKnownPRM is RFC 9728's well-known path prefix.
const wellKnownPRM = "/.well-known/oauth-protected-resource"
