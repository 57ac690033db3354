package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// apiRequest is one call of a route.
type apiRequest struct {
	target     *apiTarget
	timeoutMs  float64
	desc       *descriptor
	pathParams []pathParam
	input      *jsObject // nil: no input
}

// httpClient is the client requests go through. Like Node's fetch, it
// does not use proxies from the environment.
func (c *apiConfig) httpClient() *http.Client {
	if c.client != nil {
		return c.client
	}
	return defaultHTTPClient
}

var defaultHTTPClient = func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	return &http.Client{Transport: t}
}()

// do sends the request and returns the parsed response body: JSON when it
// parses, else the text, or nil when empty. A non-2xx status is
// HTTP_ERROR with {status, body}; the timeout covers the whole exchange,
// body included, and is REQUEST_TIMEOUT; anything else failing below HTTP is
// SERVER_UNREACHABLE.
func (c *apiConfig) do(ctx context.Context, r apiRequest) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, durationMs(r.timeoutMs))
	defer cancel()

	query, body := splitInput(r.desc, r.input)
	rawURL, err := buildURL(r.target.baseURL, r.desc.path, r.pathParams, query, r.target.apiPrefix)
	if err != nil {
		return nil, err
	}
	var reqBody io.Reader
	if r.desc.method != http.MethodGet && body != nil {
		reqBody = strings.NewReader(stringify(body, false))
	}
	req, err := http.NewRequestWithContext(ctx, r.desc.method, rawURL, reqBody)
	if err != nil {
		return nil, unreachable("Invalid URL")
	}
	req.Header.Set("Accept", "*/*")
	if reqBody != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range r.target.headers {
		if !validHeaderName(h.name) {
			return nil, unreachable(`Headers.append: "` + h.name + `" is an invalid header name.`)
		}
		if strings.ContainsAny(h.value, "\x00\r\n") {
			return nil, unreachable(`Headers.append: "` + h.value + `" is an invalid header value.`)
		}
		req.Header.Set(h.name, h.value)
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return nil, transportError(ctx, r.timeoutMs)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, transportError(ctx, r.timeoutMs)
		}
		// Node's fetch reports a body cut short as "terminated".
		return nil, unreachable("terminated")
	}
	parsed := parseBody(raw)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, newAPIError(codeHTTPError, "Request failed with status "+strconv.Itoa(resp.StatusCode),
			"status", float64(resp.StatusCode), "body", parsed)
	}
	return parsed, nil
}

func transportError(ctx context.Context, timeoutMs float64) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return newAPIError(codeRequestTimeout, "Request timed out after "+jsString(timeoutMs)+"ms", "timeoutMs", timeoutMs)
	}
	// Node's fetch reports every network failure as "fetch failed".
	return unreachable("fetch failed")
}

// parseBody is the Mastra CLI's reading of a response: UTF-8 text (BOM
// dropped), JSON.parse'd when possible, else the text itself; empty is null.
func parseBody(raw []byte) any {
	text := decodeUTF8(raw, true)
	if text == "" {
		return nil
	}
	if v, err := parseJSON(text); err == nil {
		return v
	}
	return text
}

// buildURL joins base URL, API prefix and route path (path parameters
// URI-component-encoded; parameters the path has no place for, then the
// query input, go to the query string). A base URL that already ends with
// the prefix does not get it twice.
func buildURL(baseURL, path string, params []pathParam, query *jsObject, apiPrefix string) (string, error) {
	var missing error
	resolved := pathParamPattern.ReplaceAllStringFunc(path, func(m string) string {
		name := m[1:]
		for _, p := range params {
			if p.name == name && p.value != "" {
				return encodeURIComponent(p.value)
			}
		}
		if missing == nil {
			missing = missingArgument(name)
		}
		return m
	})
	if missing != nil {
		return "", missing
	}
	if apiPrefix == "" {
		apiPrefix = "/api"
	}
	base := strings.TrimSuffix(baseURL, "/")
	joined := base + resolved
	if !strings.HasSuffix(base, apiPrefix) {
		joined = base + apiPrefix + resolved
	}
	u, err := url.Parse(joined)
	if err != nil || !validURL(u) {
		return "", unreachable("Invalid URL")
	}

	var qs queryString
	inPath := pathParamNames(path)
	for _, p := range params {
		isPath := false
		for _, n := range inPath {
			isPath = isPath || n == p.name
		}
		if !isPath {
			qs.set(p.name, p.value)
		}
	}
	if query != nil {
		for _, k := range query.ownKeys() {
			v := query.vals[k]
			if isNullish(v) {
				continue
			}
			qs.set(k, jsString(v))
		}
	}
	if len(qs) == 0 {
		return joined, nil
	}
	sep := "?"
	if strings.Contains(joined, "?") {
		sep = "&"
	}
	return joined + sep + qs.encode(), nil
}

// validURL approximates the WHATWG URL parser's acceptance: a scheme, a
// host for the special schemes, a port in range.
func validURL(u *url.URL) bool {
	if u.Scheme == "" {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp":
		if u.Host == "" {
			return false
		}
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n > 65535 {
			return false
		}
	}
	return true
}

// queryString is URLSearchParams: ordered pairs, set replacing in place.
type queryString []pathParam

func (q *queryString) set(name, value string) {
	for i := range *q {
		if (*q)[i].name == name {
			(*q)[i].value = value
			out := (*q)[:i+1]
			for _, p := range (*q)[i+1:] {
				if p.name != name {
					out = append(out, p)
				}
			}
			*q = out
			return
		}
	}
	*q = append(*q, pathParam{name, value})
}

// encode is the application/x-www-form-urlencoded serializer.
func (q queryString) encode() string {
	var b strings.Builder
	for i, p := range q {
		if i > 0 {
			b.WriteByte('&')
		}
		formEncode(&b, p.name)
		b.WriteByte('=')
		formEncode(&b, p.value)
	}
	return b.String()
}

func formEncode(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for _, c := range []byte(toUSV(s)) {
		switch {
		case c == ' ':
			b.WriteByte('+')
		case isAlnum(c) || c == '*' || c == '-' || c == '.' || c == '_':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		}
	}
}

// encodeURIComponent escapes everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ).
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b bytes.Buffer
	for _, c := range []byte(toUSV(s)) {
		if isAlnum(c) || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xF])
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// validHeaderName reports whether s is an HTTP token (RFC 9110), which the
// Fetch Headers class requires of names.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !isAlnum(c) && strings.IndexByte("!#$%&'*+-.^_`|~", c) < 0 {
			return false
		}
	}
	return true
}
