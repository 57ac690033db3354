package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"golang.org/x/oauth2"
)

// persistingSource refreshes a token through base and saves every new
// one to the handler's Store.
type persistingSource struct {
	h      *oauthHandler
	client StoredClient
	base   oauth2.TokenSource

	// noRefresh is set when the token came without a refresh token.
	noRefresh bool

	mu   sync.Mutex
	last string // the access token saved last
}

// Token returns a valid token, refreshed (and saved) when it expired.
func (p *persistingSource) Token() (*oauth2.Token, error) {
	tok, err := p.base.Token()
	if err != nil {
		return nil, p.h.refreshFailed(p, err)
	}
	p.mu.Lock()
	changed := tok.AccessToken != p.last
	p.last = tok.AccessToken
	p.mu.Unlock()
	if changed {
		ctx, cancel := context.WithTimeout(context.Background(), p.h.hc.Timeout)
		defer cancel()
		p.h.save(ctx, p.client, tok)
	}
	return tok, nil
}

// reauthError is a rejected refresh token. It wraps
// ErrAuthorizationRequired and the token endpoint's invalid_grant answer
// (which the MCP SDK's transport takes as "send without a token, then
// authorize again").
type reauthError struct {
	server string
	cause  *oauth2.RetrieveError
	// expired: the access token expired and there is no refresh token.
	expired bool
}

func (e *reauthError) Error() string {
	why := "the authorization server rejected the refresh token (invalid_grant)"
	if e.expired {
		why = "the access token expired and there is no refresh token"
	}
	return fmt.Sprintf("mcpclient: server %q: %s; the stored tokens were deleted and re-authorization is needed", e.server, why)
}

func (e *reauthError) Unwrap() []error { return []error{ErrAuthorizationRequired, e.cause} }

// oauthError words a failure of step (an OAuth request) for this server
// without the response bodies the oauth2 package quotes (a token endpoint
// may echo what it was sent). The original stays reachable with
// errors.As/Is, but is not part of the text.
func (h *oauthHandler) oauthError(step string, err error) error {
	if errors.Is(err, ErrAuthorizationRequired) {
		return err
	}
	return &oauthFailure{msg: fmt.Sprintf("mcpclient: server %q: OAuth %s failed: %s", h.server, step, safeOAuthText(err)), cause: err}
}

// oauthFailure is an OAuth error with a sanitized text.
type oauthFailure struct {
	msg   string
	cause error
}

func (e *oauthFailure) Error() string { return e.msg }
func (e *oauthFailure) Unwrap() error { return e.cause }

// safeOAuthText describes err without response bodies or URL queries.
func safeOAuthText(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		msg := fmt.Sprintf("the token endpoint answered HTTP %d", status)
		if re.ErrorCode != "" {
			msg += " " + re.ErrorCode
		}
		if re.ErrorDescription != "" {
			msg += ": " + re.ErrorDescription
		}
		return msg
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		u, perr := url.Parse(ue.URL)
		if perr == nil {
			u.RawQuery, u.User = "", nil
			return fmt.Sprintf("%s %s: %v", ue.Op, u.Redacted(), ue.Err)
		}
		return fmt.Sprintf("%s: %v", ue.Op, ue.Err)
	}
	return err.Error()
}
