package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// oauthGuard is the bearer-token check of an OAuth-protected transport:
// the SDK's auth.RequireBearerToken (which puts the TokenInfo where the
// SDK binds sessions to its user and tools read it), with Mastra's
// answers to refused requests.
type oauthGuard struct {
	opts    *OAuthOptions
	log     *slog.Logger
	require func(http.Handler) http.Handler
}

func newOAuthGuard(o *OAuthOptions, log *slog.Logger) *oauthGuard {
	g := &oauthGuard{opts: o, log: log}
	g.require = auth.RequireBearerToken(g.verify, &auth.RequireBearerTokenOptions{
		Scopes: o.RequiredScopes,
		// Mastra's validators may not know an expiry.
		AllowMissingExpiration: true,
	})
	return g
}

// verdict is why a request was refused, filled by verify.
type verdict struct {
	reason   string
	internal bool
}

type verdictKey struct{}

// verify is the SDK's TokenVerifier over OAuthOptions.ValidateToken.
func (g *oauthGuard) verify(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	v, _ := r.Context().Value(verdictKey{}).(*verdict)
	if v == nil {
		v = &verdict{}
	}
	info, err := g.opts.ValidateToken(ctx, token, g.opts.Resource)
	switch {
	case err != nil && errors.Is(err, ErrInvalidToken):
		v.reason = "the access token is not valid"
		return nil, err
	case err != nil:
		v.internal = true
		g.log.ErrorContext(ctx, "mcpserver: OAuth token validation failed", "path", r.URL.Path, "error", err)
		return nil, err
	case info == nil:
		v.internal = true
		g.log.ErrorContext(ctx, "mcpserver: OAuth ValidateToken returned no TokenInfo and no error", "path", r.URL.Path)
		return nil, errors.New("no token info")
	case len(info.Audience) > 0 && !slices.Contains(info.Audience, g.opts.Resource):
		v.reason = "the access token was issued for another resource"
		return nil, ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: info.Subject, Scopes: info.Scopes, Expiration: info.Expiry, Extra: info.Claims}, nil
}

// wrap guards next: requests with a valid token reach it with the
// token's TokenInfo in their context; others are refused.
func (g *oauthGuard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := &verdict{}
		r = r.WithContext(context.WithValue(r.Context(), verdictKey{}, v))
		passed := false
		rec := &statusRecorder{header: http.Header{}}
		g.require(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			passed = true
			next.ServeHTTP(w, r)
		})).ServeHTTP(rec, r)
		if !passed {
			g.refuse(w, r, rec.status, v)
		}
	})
}

// refuse answers a refused request as Mastra does: 401 with a
// WWW-Authenticate challenge naming the resource metadata (RFC 6750
// error="invalid_token" when a token was sent), 403
// error="insufficient_scope", or 500 when the token could not be
// checked; the body is {"error", "error_description"}.
func (g *oauthGuard) refuse(w http.ResponseWriter, r *http.Request, status int, v *verdict) {
	code, desc := "unauthorized", "Bearer token required"
	switch {
	case v.internal || (status != http.StatusUnauthorized && status != http.StatusForbidden):
		status, code, desc = http.StatusInternalServerError, "server_error", "the access token could not be verified"
	case status == http.StatusForbidden:
		code, desc = "insufficient_scope", "the access token lacks a required scope"
	case hasBearer(r):
		code, desc = "invalid_token", v.reason
		if desc == "" {
			desc = "the access token expired"
		}
	}
	if status != http.StatusInternalServerError {
		w.Header().Set("WWW-Authenticate", g.challenge(code, desc))
	}
	g.log.DebugContext(r.Context(), "mcpserver: OAuth refused a request", "path", r.URL.Path, "status", status, "error", code, "reason", desc)
	writeJSONError(w, status, code, desc)
}

// challenge is the WWW-Authenticate value of a refusal with error code
// ("unauthorized": no token was sent, so no error is named).
func (g *oauthGuard) challenge(code, desc string) string {
	params := []string{}
	if code != "unauthorized" {
		params = append(params, `error="`+code+`"`, `error_description="`+quotable(desc)+`"`)
	}
	params = append(params, `resource_metadata="`+g.opts.metadataURL()+`"`)
	if len(g.opts.RequiredScopes) > 0 {
		params = append(params, `scope="`+quotable(strings.Join(g.opts.RequiredScopes, " "))+`"`)
	}
	return "Bearer " + strings.Join(params, ", ")
}

// quotable drops what cannot appear in an RFC 9110 quoted string as is.
func quotable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\\' || r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// statusRecorder takes the SDK middleware's refusal: its status only.
type statusRecorder struct {
	header http.Header
	status int
}

func (s *statusRecorder) Header() http.Header { return s.header }

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return len(b), nil
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
}
