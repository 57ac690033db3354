package builtin

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/gomastra/mastra/internal/netguard"
	"github.com/gomastra/mastra/tools"
)

// WebFetchToolID is web_fetch's id.
const WebFetchToolID = "web_fetch"

// web_fetch's limits and request headers; the first four are Mastra's.
const (
	// WebFetchTimeout bounds a whole fetch by default.
	WebFetchTimeout = 15 * time.Second
	// WebFetchMaxRedirects is how many redirects are followed.
	WebFetchMaxRedirects = 5
	// WebFetchMaxChars is where content is cut, in UTF-16 code units
	// (JavaScript string length).
	WebFetchMaxChars = 100_000
	// WebFetchUserAgent and WebFetchAccept are the request headers.
	WebFetchUserAgent = "Mastra Web Fetch Tool/1.0"
	WebFetchAccept    = "text/html,text/plain,application/json,application/xml;q=0.9,*/*;q=0.8"
	// WebFetchMaxBytes is how much of a body is read by default.
	WebFetchMaxBytes = 5 << 20
)

// WebFetchInput is web_fetch's input.
type WebFetchInput struct {
	URL string `json:"url"`
}

// WebFetchResult is what web_fetch returns to the model. A failure has
// only Content ("Failed to fetch URL: …") and IsError; a response (of any
// status) has every other field. It marshals to Mastra's two shapes:
// {content, truncated, status, statusText, contentType, url, ok} with
// contentType null when the response had no Content-Type header, and
// {content, isError: true}.
type WebFetchResult struct {
	Content     string  `json:"content"`
	Truncated   bool    `json:"truncated,omitempty"`
	Status      int     `json:"status,omitempty"`
	StatusText  string  `json:"statusText,omitempty"`
	ContentType *string `json:"contentType,omitempty"`
	// URL is the final URL, after redirects, as the WHATWG URL standard
	// writes it.
	URL     string `json:"url,omitempty"`
	OK      bool   `json:"ok,omitempty"`
	IsError bool   `json:"isError,omitempty"`
}

// MarshalJSON writes one of Mastra's two shapes, keys in Mastra's order.
func (r WebFetchResult) MarshalJSON() ([]byte, error) {
	var v any = struct {
		Content    string  `json:"content"`
		Truncated  bool    `json:"truncated"`
		Status     int     `json:"status"`
		StatusText string  `json:"statusText"`
		ContentTyp *string `json:"contentType"`
		URL        string  `json:"url"`
		OK         bool    `json:"ok"`
	}{r.Content, r.Truncated, r.Status, r.StatusText, r.ContentType, r.URL, r.OK}
	if r.IsError {
		v = struct {
			Content string `json:"content"`
			IsError bool   `json:"isError"`
		}{r.Content, true}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// WebFetchResolver resolves host names; *net.Resolver satisfies it.
type WebFetchResolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// WebFetchOptions configures [NewWebFetchTool]. The zero value is the
// default tool: Mastra's limits and the strict address policy.
type WebFetchOptions struct {
	// Timeout bounds a whole fetch: connecting, every redirect, reading
	// the body. Zero means WebFetchTimeout (15 s).
	Timeout time.Duration
	// MaxBytes caps the bytes read from a body (independent of the
	// WebFetchMaxChars cut); more makes the result truncated. Zero means
	// WebFetchMaxBytes (5 MiB).
	MaxBytes int64
	// Raw returns bodies as text, HTML included, as Mastra does; by
	// default HTML is converted to readable Markdown-flavoured text.
	Raw bool
	// AllowAddrs lists exact endpoints (address and port) that may be
	// fetched although their address is private or reserved: the seam for
	// tests against a server on 127.0.0.1, or one intranet service.
	// Nothing else is loosened: other ports, other notations of the same
	// address (IPv4-mapped IPv6) and localhost names stay refused.
	AllowAddrs []netip.AddrPort
	// Resolver resolves host names; nil means net.DefaultResolver. Every
	// address it returns is checked.
	Resolver WebFetchResolver
	// DialContext connects to an "ip:port" the policy has allowed; nil
	// means a net.Dialer that checks the address once more right before
	// connecting. Proxies are never used.
	DialContext func(ctx context.Context, network, address string) (net.Conn, error)
	// TLSClientConfig is used for https (cloned); nil means the defaults.
	TLSClientConfig *tls.Config
}

// WebFetchTool (id "web_fetch") is the tool built with the zero
// [WebFetchOptions]: see [NewWebFetchTool].
var WebFetchTool = mustWebFetchTool()

func mustWebFetchTool() *tools.Tool {
	t, err := NewWebFetchTool(WebFetchOptions{})
	if err != nil {
		panic("builtin: " + err.Error()) // the zero options are valid
	}
	return t
}

// NewWebFetchTool returns web_fetch (Mastra's webFetchTool): it fetches
// an http or https URL with GET and returns the body as text with the
// response's status, status text, content type and final URL. Non-2xx
// responses are results too (ok false). Every failure is a result
// {content: "Failed to fetch URL: <reason>", isError: true}, never a Go
// error; Mastra's reasons are kept word for word ("only HTTP and HTTPS
// URLs are supported.", "URL resolves to a private or reserved
// address.", "Too many redirects. Maximum is 5.", "Redirect target must
// use HTTP or HTTPS.", "Request timed out after 15000ms.").
//
// No request reaches a loopback, private, link-local, CGNAT,
// benchmarking, documentation, multicast or reserved address. Refused:
// IPv4 0.0.0.0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12,
// 192.0.0/24, 192.0.2/24, 192.88.99/24, 192.168/16, 198.18/15,
// 198.51.100/24, 203.0.113/24, 224/4, 240/4 (with 255.255.255.255);
// IPv6 everything outside global unicast 2000::/3 (::, ::1, IPv4-mapped
// ::ffff:0:0/96 whatever it maps, IPv4-compatible ::/96, NAT64
// 64:ff9b::/96 and 64:ff9b:1::/48, discard 100::/64, fc00::/7,
// fe80::/10, site-local fec0::/10, ff00::/8, ...) and within it
// 2001::/23 (Teredo, benchmarking, ORCHID), 2001:db8::/32, 3fff::/20
// and 6to4 2002::/16; the names localhost and *.localhost. URLs are
// parsed as browsers and Node.js parse them, so every notation of an
// address (hex, octal, decimal, short forms, trailing dots, fullwidth
// digits, ideographic full stops, percent-encoding) is that address,
// checked with a clear message before any connection. Names are resolved
// once per connection, every answer is checked, and the checked address
// is what is dialled, so DNS rebinding cannot pass; each of up to five
// redirects is checked the same way; environment proxies are ignored.
//
// Beyond Mastra: HTML is converted to readable text (see
// WebFetchOptions.Raw), bodies are decoded from their charset (BOM,
// Content-Type, <meta>; undeclared text that is not UTF-8 is read as
// windows-1252), reading stops at MaxBytes. The model-facing input and
// output schemas are Mastra's, byte for byte.
//
// Also different from Mastra: the timeout bounds the whole call (Mastra's
// is a per-request socket idle timeout); a cut through a character
// beyond U+FFFF ends before it (99,999 units) where Mastra's leaves half
// of it; network errors other than "getaddrinfo ENOTFOUND <host>" and
// "connect ECONNREFUSED <ip>:<port>" are worded by Go; a cancelled call
// gives "This operation was aborted".
//
// Options are checked: a negative Timeout or MaxBytes, or an invalid
// AllowAddrs entry, is an error. The tool is safe for concurrent use;
// each call has its own connections, closed when it returns.
func NewWebFetchTool(opts WebFetchOptions) (*tools.Tool, error) {
	f, err := newWebFetcher(opts)
	if err != nil {
		return nil, err
	}
	return tools.Build(tools.Config[WebFetchInput, WebFetchResult]{
		ID:           WebFetchToolID,
		Description:  "Fetch a web page by URL and return text content with basic response metadata.",
		InputSchema:  mustSchema(webFetchInputJSON),
		OutputSchema: mustSchema(webFetchOutputJSON),
		Execute: func(ctx tools.Context, in WebFetchInput) (WebFetchResult, error) {
			return f.fetch(ctx, in.URL), nil
		},
	})
}

// webFetcher holds a tool's settings; it is immutable.
type webFetcher struct {
	timeout  time.Duration
	maxBytes int64
	raw      bool
	dialer   *netguard.Dialer
	tls      *tls.Config
}

func newWebFetcher(opts WebFetchOptions) (*webFetcher, error) {
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("builtin: web_fetch: negative Timeout %v", opts.Timeout)
	}
	if opts.MaxBytes < 0 {
		return nil, fmt.Errorf("builtin: web_fetch: negative MaxBytes %d", opts.MaxBytes)
	}
	for _, ap := range opts.AllowAddrs {
		if !ap.IsValid() || ap.Addr().Zone() != "" {
			return nil, fmt.Errorf("builtin: web_fetch: invalid AllowAddrs entry %q", ap)
		}
	}
	f := &webFetcher{
		timeout:  opts.Timeout,
		maxBytes: opts.MaxBytes,
		raw:      opts.Raw,
		dialer: &netguard.Dialer{
			Policy: netguard.Policy{Allow: append([]netip.AddrPort(nil), opts.AllowAddrs...)},
			Dial:   opts.DialContext,
		},
	}
	if opts.Resolver != nil {
		f.dialer.Resolver = opts.Resolver
	}
	if f.timeout == 0 {
		f.timeout = WebFetchTimeout
	}
	if f.maxBytes == 0 {
		f.maxBytes = WebFetchMaxBytes
	}
	if opts.TLSClientConfig != nil {
		f.tls = opts.TLSClientConfig.Clone()
	}
	return f, nil
}

// errTimedOut is the cause of a fetch's context when its Timeout ran out
// (as opposed to the caller's context ending).
var errTimedOut = errors.New("web_fetch: timed out")

func fetchFailed(reason string) WebFetchResult {
	return WebFetchResult{Content: "Failed to fetch URL: " + reason, IsError: true}
}
