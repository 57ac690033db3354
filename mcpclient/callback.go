package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// DefaultCallbackTimeout bounds how long LocalCallback.Authorize waits
// for the user when LocalCallbackOptions.Timeout is zero.
const DefaultCallbackTimeout = 5 * time.Minute

// LocalCallbackOptions configure NewLocalCallback.
type LocalCallbackOptions struct {
	// Port to listen on, on 127.0.0.1 (0, the default, picks a free one;
	// the authorization server must accept the resulting RedirectURL, as
	// dynamically registered clients' do).
	Port int
	// Path of the redirect URL (default "/callback").
	Path string
	// Open sends the user to the authorization URL (opening a browser,
	// say). Default: print the URL to Output.
	Open func(ctx context.Context, authURL string) error
	// Output receives the default Open's message (default os.Stderr).
	Output io.Writer
	// Timeout bounds each wait for the user (default
	// DefaultCallbackTimeout).
	Timeout time.Duration
}

// LocalCallback receives the authorization server's redirect on a
// listener on 127.0.0.1: the authorization hook for CLIs and the dev
// server. Each Authorize call sends the user to the authorization URL and
// accepts exactly one redirect carrying that URL's state; a redirect with
// any other state fails the call (and its code is never used). Close
// stops the listener.
type LocalCallback struct {
	opts LocalCallbackOptions
	ln   net.Listener
	srv  *http.Server
	url  string

	mu      sync.Mutex
	pending map[string]chan callbackResult // by state
	wrong   chan struct{}                  // signalled on a redirect with an unknown state
	closed  bool
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

// NewLocalCallback starts listening on 127.0.0.1.
func NewLocalCallback(opts LocalCallbackOptions) (*LocalCallback, error) {
	if opts.Path == "" {
		opts.Path = "/callback"
	}
	if opts.Path[0] != '/' {
		return nil, fmt.Errorf("mcpclient: LocalCallback path %q must start with /", opts.Path)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultCallbackTimeout
	}
	if opts.Output == nil {
		opts.Output = os.Stderr
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", fmt.Sprint(opts.Port)))
	if err != nil {
		return nil, fmt.Errorf("mcpclient: LocalCallback: %w", err)
	}
	cb := &LocalCallback{opts: opts, ln: ln, pending: map[string]chan callbackResult{}, wrong: make(chan struct{}, 1),
		url: fmt.Sprintf("http://127.0.0.1:%d%s", ln.Addr().(*net.TCPAddr).Port, opts.Path)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+opts.Path, cb.serve)
	cb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go cb.srv.Serve(ln)
	return cb, nil
}

// RedirectURL is the URL to register as OAuthConfig.RedirectURL.
func (cb *LocalCallback) RedirectURL() string { return cb.url }

// Close stops the listener; waiting Authorize calls fail.
func (cb *LocalCallback) Close() error {
	cb.mu.Lock()
	cb.closed = true
	for state, ch := range cb.pending {
		ch <- callbackResult{err: errors.New("mcpclient: LocalCallback closed")}
		delete(cb.pending, state)
	}
	cb.mu.Unlock()
	return cb.srv.Close()
}

// Authorize is an OAuthConfig.Authorize: it opens args.URL and waits for
// the redirect with its state, up to the timeout or ctx's end.
func (cb *LocalCallback) Authorize(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(args.URL)
	if err != nil || u.Query().Get("state") == "" {
		return nil, errors.New("mcpclient: LocalCallback: the authorization URL has no state")
	}
	state := u.Query().Get("state")
	ch := make(chan callbackResult, 1)
	cb.mu.Lock()
	if cb.closed {
		cb.mu.Unlock()
		return nil, errors.New("mcpclient: LocalCallback closed")
	}
	cb.pending[state] = ch
	cb.mu.Unlock()
	defer func() {
		cb.mu.Lock()
		delete(cb.pending, state)
		cb.mu.Unlock()
	}()
	if err := cb.open(ctx, args.URL); err != nil {
		return nil, fmt.Errorf("mcpclient: LocalCallback: opening the authorization URL: %w", err)
	}
	timer := time.NewTimer(cb.opts.Timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.res, r.err
	case <-cb.wrong:
		return nil, errors.New("mcpclient: LocalCallback: the redirect's state does not match the authorization request")
	case <-timer.C:
		return nil, fmt.Errorf("mcpclient: LocalCallback: no redirect within %v", cb.opts.Timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (cb *LocalCallback) open(ctx context.Context, authURL string) error {
	if cb.opts.Open != nil {
		return cb.opts.Open(ctx, authURL)
	}
	_, err := fmt.Fprintf(cb.opts.Output, "Open this URL in a browser to authorize:\n\n  %s\n\n", authURL)
	return err
}

// serve takes one redirect: it delivers the code to the Authorize call
// waiting for its state, once.
func (cb *LocalCallback) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	cb.mu.Lock()
	ch, ok := cb.pending[q.Get("state")]
	if ok {
		delete(cb.pending, q.Get("state"))
	}
	cb.mu.Unlock()
	if !ok {
		select {
		case cb.wrong <- struct{}{}:
		default:
		}
		http.Error(w, "Unknown or already used authorization state.", http.StatusBadRequest)
		return
	}
	if e := q.Get("error"); e != "" {
		ch <- callbackResult{err: fmt.Errorf("mcpclient: the authorization server refused: %s %s", e, q.Get("error_description"))}
		writePage(w, http.StatusOK, "Authorization was refused: "+e)
		return
	}
	ch <- callbackResult{res: &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}}
	writePage(w, http.StatusOK, "Authorization complete. You can close this window.")
}

func writePage(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><title>MCP authorization</title><p>%s</p>", html.EscapeString(msg))
}
