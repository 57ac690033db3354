package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// IntrospectionOptions configure IntrospectionValidator.
type IntrospectionOptions struct {
	// ClientID and ClientSecret, when set, authenticate the resource
	// server to the endpoint (HTTP Basic, RFC 6749 §2.3.1).
	ClientID, ClientSecret string
	// HTTPClient defaults to http.DefaultClient.
	HTTPClient *http.Client
}

// IntrospectionValidator is a TokenValidator that asks the
// authorization server's RFC 7662 token introspection endpoint about each
// token, as Mastra's createIntrospectionValidator does. An inactive
// token is ErrInvalidToken; "sub" becomes Subject, "scope" Scopes, "exp"
// Expiry, "aud" Audience (so a token for another resource is refused),
// and every member Claims. An endpoint that fails or answers
// something other than a JSON object is an error (500 to the client).
func IntrospectionValidator(endpoint string, opts IntrospectionOptions) TokenValidator {
	client := opts.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	return func(ctx context.Context, token, _ string) (*TokenInfo, error) {
		form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, fmt.Errorf("token introspection: %w", err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		if opts.ClientID != "" {
			req.SetBasicAuth(url.QueryEscape(opts.ClientID), url.QueryEscape(opts.ClientSecret))
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("token introspection: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("token introspection: the endpoint answered %s", resp.Status)
		}
		var claims map[string]any
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&claims); err != nil || claims == nil {
			return nil, fmt.Errorf("token introspection: the answer is not a JSON object")
		}
		return introspected(claims)
	}
}

// introspected is the TokenInfo of an RFC 7662 introspection answer.
func introspected(claims map[string]any) (*TokenInfo, error) {
	if active, _ := claims["active"].(bool); !active {
		return nil, fmt.Errorf("%w: the token is not active", ErrInvalidToken)
	}
	info := &TokenInfo{Claims: claims}
	info.Subject, _ = claims["sub"].(string)
	if scope, ok := claims["scope"].(string); ok {
		info.Scopes = strings.Fields(scope)
	}
	if exp, ok := claims["exp"].(float64); ok {
		info.Expiry = time.Unix(int64(exp), 0)
	}
	switch aud := claims["aud"].(type) {
	case string:
		info.Audience = []string{aud}
	case []any:
		for _, a := range aud {
			if s, ok := a.(string); ok {
				info.Audience = append(info.Audience, s)
			}
		}
	}
	return info, nil
}
