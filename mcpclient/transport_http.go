package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connState is what the transport of one connection observed.
type connState struct {
	// tooLarge is set when a message exceeded MaxMessageBytes.
	tooLarge atomic.Bool
	// lastPostStatus is the HTTP status of the latest POST answered.
	lastPostStatus atomic.Int32
	// foreignType is the media type of a successful POST's answer that
	// is neither JSON nor an event stream (an HTML page, say): no MCP
	// server answers so.
	foreignType atomic.Pointer[string]
}

// dialHTTP connects over streamable HTTP and, when the server answered the
// last POST with a 4xx status, over HTTP+SSE at the same URL instead (the
// backwards-compatibility procedure of the MCP transport spec, and what
// Mastra does).
func (s *server) dialHTTP(ctx context.Context) (*mcp.ClientSession, *connState, error) {
	st := &connState{}
	streamable := &mcp.StreamableClientTransport{
		Endpoint:   s.cfg.URL,
		HTTPClient: s.httpClient(st),
		// The guard below enforces the limit first and says so; this is
		// the SDK's own backstop.
		MaxEventSize: 2 * s.cfg.maxMessageBytes,
	}
	if s.cfg.oauth != nil { // OAuth: oauth_handler.go
		streamable.OAuthHandler = s.cfg.oauth
	}
	sess, err := s.mcp.Connect(ctx, streamable, nil)
	if err == nil {
		return sess, st, nil
	}
	if mt := st.foreignType.Load(); mt != nil {
		// The SDK reports this, or, as it closes the connection at the
		// same time, that the connection closed: say what happened.
		return nil, nil, fmt.Errorf("the server answered with unsupported content type %q, not MCP: %w", *mt, err)
	}
	status := st.lastPostStatus.Load()
	if status < 400 || status > 499 || ctx.Err() != nil {
		return nil, nil, err
	}
	if s.cfg.oauth != nil && (status == http.StatusUnauthorized || status == http.StatusForbidden) {
		// OAuth: the server wants authorization, which failed; HTTP+SSE
		// would not change that.
		return nil, nil, err
	}
	s.logger.Debug("MCP server refused streamable HTTP; falling back to HTTP+SSE",
		"server", s.name, "status", status, "error", err)
	sseState := &connState{}
	sse := &detachedTransport{life: s.ctx, t: &mcp.SSEClientTransport{
		Endpoint:     s.cfg.URL,
		HTTPClient:   s.httpClient(sseState),
		MaxEventSize: 2 * s.cfg.maxMessageBytes,
	}}
	sess, sseErr := s.mcp.Connect(ctx, sse, nil)
	if sseErr != nil {
		return nil, nil, fmt.Errorf("streamable HTTP: %w; HTTP+SSE fallback: %w", err, sseErr)
	}
	return sess, sseState, nil
}

// detachedTransport connects t with a context that outlives the connect
// call: the SDK's SSE transport holds its event stream open with the
// context it connected with, which here is bounded by ConnectTimeout. The
// stream is cancelled when the connect context ends first, when life ends
// (the client closes) or when the connection is closed.
type detachedTransport struct {
	life context.Context
	t    mcp.Transport
}

func (d *detachedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	connCtx, cancel := context.WithCancel(d.life)
	stop := context.AfterFunc(ctx, cancel)
	conn, err := d.t.Connect(connCtx)
	if !stop() {
		if conn != nil {
			conn.Close()
		}
		cancel()
		return nil, errors.Join(ctx.Err(), err)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &cancelOnClose{Connection: conn, cancel: cancel}, nil
}

// cancelOnClose cancels its connection's context once closed.
type cancelOnClose struct {
	mcp.Connection
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.Connection.Close()
	c.cancel()
	return err
}

// httpClient is the configured client (not modified) with its transport
// wrapped by a guard for this connection.
func (s *server) httpClient(st *connState) *http.Client {
	return wrapClient(s.cfg.HTTPClient, func(base http.RoundTripper) http.RoundTripper {
		return &guardTransport{base: base, headers: s.cfg.Headers, max: s.cfg.maxMessageBytes,
			state: st, server: s.name, progress: s.dispatchProgress, creds: s.cfg.Credentials}
	})
}

// wrapClient returns a copy of hc (nil: a zero http.Client) whose
// transport is wrap applied to hc's (nil: http.DefaultTransport); hc is
// not modified.
func wrapClient(hc *http.Client, wrap func(base http.RoundTripper) http.RoundTripper) *http.Client {
	var c http.Client
	if hc != nil {
		c = *hc
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = wrap(base)
	return &c
}

// guardTransport adds the configured headers to every request (headers the
// SDK sets itself win), records POST statuses for the SSE fallback, bounds
// what a response may make the SDK buffer (a JSON body as a whole, an event
// stream per event) and handles progress notifications in stream order.
// Once a limit was hit it refuses further requests on the connection but
// the closing DELETE, so the SDK cannot re-fetch the same message.
type guardTransport struct {
	base    http.RoundTripper
	headers http.Header
	max     int
	state   *connState
	server  string
	// progress receives the progress notifications of event streams.
	progress func(*mcp.ProgressNotificationParams)
	// creds gives each request's credentials (credentials.go).
	creds CredentialsFunc
}

func (g *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if g.state.tooLarge.Load() && req.Method != http.MethodDelete {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, g.tooLarge()
	}
	if len(g.headers) > 0 {
		req = req.Clone(req.Context())
		for k, vs := range g.headers {
			k = http.CanonicalHeaderKey(k)
			if _, set := req.Header[k]; !set {
				req.Header[k] = slices.Clone(vs)
			}
		}
	}
	if g.creds != nil { // per-request credentials: credentials.go
		withCreds, err := applyCredentials(req, g.creds, g.server)
		if err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, err
		}
		req = withCreds
	}
	resp, err := g.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if req.Method == http.MethodPost {
		g.state.lastPostStatus.Store(int32(resp.StatusCode))
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if req.Method == http.MethodPost && resp.StatusCode/100 == 2 && resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent &&
		mt != "application/json" && mt != "text/event-stream" {
		g.state.foreignType.Store(&mt)
	}
	if mt == "text/event-stream" {
		resp.Body = &eventBody{body: resp.Body, g: g}
	} else {
		resp.Body = &sizeLimitBody{body: resp.Body, g: g}
	}
	return resp, nil
}

func (g *guardTransport) tooLarge() error {
	return fmt.Errorf("%w (%d bytes) from HTTP server %q", ErrMessageTooLarge, g.max, g.server)
}

// sizeLimitBody fails once more than max bytes were read.
type sizeLimitBody struct {
	body io.ReadCloser
	g    *guardTransport
	n    int
}

func (b *sizeLimitBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.n += n
	if b.n > b.g.max {
		b.g.state.tooLarge.Store(true)
		return 0, b.g.tooLarge()
	}
	return n, err
}

func (b *sizeLimitBody) Close() error { return b.body.Close() }

// eventBody watches an event stream as the SDK reads it: it fails once one
// server-sent event (the bytes between two blank lines) is longer than max,
// and hands progress notifications to the server's dispatcher as soon as
// their event is complete, before the SDK sees any later event (so a call's
// progress is handled before its answer, which the SDK's own handler
// goroutine does not guarantee).
type eventBody struct {
	body io.ReadCloser
	g    *guardTransport
	// size counts the current event's bytes, buf keeps its first
	// maxWatchedEvent bytes; newlines counts the line ends in a row ("\r\n"
	// is one); prevCR says the last byte was '\r'.
	size     int
	buf      []byte
	newlines int
	prevCR   bool
}

// maxWatchedEvent bounds the events inspected for progress notifications.
const maxWatchedEvent = 64 << 10

func (b *eventBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	for _, c := range p[:n] {
		switch {
		case c == '\n' && b.prevCR:
			// second half of "\r\n"
		case c == '\n' || c == '\r':
			b.newlines++
		default:
			b.newlines = 0
		}
		b.prevCR = c == '\r'
		b.size++
		if b.size <= maxWatchedEvent {
			b.buf = append(b.buf, c)
		}
		if b.newlines >= 2 {
			if b.size <= maxWatchedEvent && b.g.progress != nil {
				b.watch(b.buf)
			}
			b.size, b.buf = 0, b.buf[:0]
		}
	}
	if b.size > b.g.max {
		b.g.state.tooLarge.Store(true)
		return 0, b.g.tooLarge()
	}
	return n, err
}

// watch dispatches the event if it is a progress notification.
func (b *eventBody) watch(event []byte) {
	if !bytes.Contains(event, []byte("notifications/progress")) {
		return
	}
	var data []byte
	for line := range bytes.Lines(event) {
		line = bytes.TrimRight(line, "\r\n")
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
		}
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.IsCall() || req.Method != "notifications/progress" {
		return
	}
	var params mcp.ProgressNotificationParams
	if json.Unmarshal(req.Params, &params) == nil {
		b.g.progress(&params)
	}
}

func (b *eventBody) Close() error { return b.body.Close() }

// isTooLarge reports whether err (or the connection) hit the size limit.
func isTooLarge(err error, st *connState) bool {
	return errors.Is(err, ErrMessageTooLarge) || (st != nil && st.tooLarge.Load())
}
