package mcpclient

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/gomastra/mastra/tools"
)

// Credentials are what one HTTP request to a server carries on behalf of
// someone: a multi-tenant server calling MCP for each of its users
// (Mastra's fetch(url, init, requestContext)).
type Credentials struct {
	// Headers are set on the request, replacing headers of the same name
	// (the configured Headers and the SDK's, but the MCP protocol ones).
	Headers http.Header
	// AccessToken, when set, is sent as "Authorization: Bearer <token>".
	AccessToken string
}

// CredentialsFunc gives the credentials of one HTTP request from its
// context: for a tool call, the context the tool was executed with (so
// values the caller put in the context it gave the agent or the tool,
// such as the signed-in user, are there, and [RequestContextFrom] gives
// the run's request context, as Mastra's fetch receives it); for the
// connection's own requests (initialize, the event stream) a context
// without them. It
// returns nil to send the request with the configured credentials only.
// An error fails the request, with the error's text.
type CredentialsFunc func(ctx context.Context) (*Credentials, error)

// requestContextKey carries a tool call's request context in the
// contexts of its requests.
type requestContextKey struct{}

// RequestContextFrom is the request context of the tool call ctx belongs
// to (the agent run's, or the one given to Execute), or nil outside a
// tool call: what a CredentialsFunc reads a user's identity or token
// from when the server set them there (Mastra's requestContext).
func RequestContextFrom(ctx context.Context) *tools.RequestContext {
	rc, _ := ctx.Value(requestContextKey{}).(*tools.RequestContext)
	return rc
}

// callContext is a tool call's context whose values include its request
// context (for RequestContextFrom), in the call and in every context
// derived from it.
type callContext struct{ tools.Context }

// Value answers RequestContextFrom's key with the call's request context.
func (c callContext) Value(key any) any {
	if key == (requestContextKey{}) {
		return c.Context.RequestContext()
	}
	return c.Context.Value(key)
}

// protocolHeaders are the MCP transport's own headers, which Credentials
// do not replace.
var protocolHeaders = []string{"Mcp-Session-Id", "Mcp-Protocol-Version", "Content-Type", "Accept", "Last-Event-Id"}

// applyCredentials returns req with the credentials of fn for its context
// set (req itself when fn gives none).
func applyCredentials(req *http.Request, fn CredentialsFunc, server string) (*http.Request, error) {
	creds, err := fn(req.Context())
	if err != nil {
		return nil, fmt.Errorf("mcpclient: credentials for server %q: %w", server, err)
	}
	if creds == nil || (len(creds.Headers) == 0 && creds.AccessToken == "") {
		return req, nil
	}
	req = req.Clone(req.Context())
	for k, vs := range creds.Headers {
		k = http.CanonicalHeaderKey(k)
		if slices.Contains(protocolHeaders, k) {
			continue
		}
		req.Header[k] = slices.Clone(vs)
	}
	if creds.AccessToken != "" {
		req.Header.Set("Authorization", "Bearer "+creds.AccessToken)
	}
	return req, nil
}
