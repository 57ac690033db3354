package builtin

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// fetch runs one web_fetch call: Mastra's requestUrl loop (check the
// host, GET, follow a 3xx with a Location by hand, read the body).
func (f *webFetcher) fetch(ctx context.Context, raw string) WebFetchResult {
	u, err := parseWebURL(raw)
	if err != nil {
		return fetchFailed("only HTTP and HTTPS URLs are supported.")
	}
	ctx, cancel := context.WithTimeoutCause(ctx, f.timeout, errTimedOut)
	defer cancel()
	transport := f.newTransport()
	defer transport.CloseIdleConnections()
	client := &http.Client{
		Transport:     transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for redirects := 0; ; redirects++ {
		if err := f.dialer.Policy.CheckHost(u.host, u.effectivePort()); err != nil {
			return fetchFailed(f.reason(ctx, err))
		}
		resp, err := f.get(ctx, client, u)
		if err != nil {
			return fetchFailed(f.reason(ctx, err))
		}
		location := resp.Header.Get("Location")
		if location != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
			_ = resp.Body.Close()
			if redirects >= WebFetchMaxRedirects {
				return fetchFailed("Too many redirects. Maximum is " + strconv.Itoa(WebFetchMaxRedirects) + ".")
			}
			next, err := u.resolve(location)
			switch {
			case errors.Is(err, errNotHTTP):
				return fetchFailed("Redirect target must use HTTP or HTTPS.")
			case err != nil:
				return fetchFailed("Invalid URL")
			}
			u = next
			continue
		}
		content, truncated, err := f.readBody(resp, u)
		_ = resp.Body.Close()
		if err != nil {
			return fetchFailed(f.reason(ctx, err))
		}
		res := WebFetchResult{
			Content:    content,
			Truncated:  truncated,
			Status:     resp.StatusCode,
			StatusText: statusText(resp),
			URL:        u.String(),
			OK:         resp.StatusCode >= 200 && resp.StatusCode < 300,
		}
		if v, ok := resp.Header["Content-Type"]; ok && len(v) > 0 {
			res.ContentType = &v[0]
		}
		return res
	}
}

// newTransport returns the transport of one call: every connection
// through the guarded dialer, never through a proxy.
func (f *webFetcher) newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                  nil, // a proxy would dial on our behalf, past the checks
		DialContext:            f.dialer.DialContext,
		TLSClientConfig:        f.tls,
		DisableCompression:     true, // Mastra asks for no encoding either
		MaxResponseHeaderBytes: 1 << 20,
	}
}

func (f *webFetcher) get(ctx context.Context, client *http.Client, u *webURL) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	if err != nil {
		return nil, err
	}
	req.URL = u.requestURL()
	req.Host = ""
	req.Header.Set("User-Agent", WebFetchUserAgent)
	req.Header.Set("Accept", WebFetchAccept)
	return client.Do(req)
}

// statusText is the reason phrase of the status line, as Node.js's
// statusMessage gives it.
func statusText(resp *http.Response) string {
	return strings.TrimPrefix(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)), " ")
}
