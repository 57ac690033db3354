package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/gomastra/mastra"
)

// ServeOptions configure [Serve].
type ServeOptions struct {
	// Addr is the address to listen on. Empty: $HOST:$PORT, each
	// defaulting to Mastra's 127.0.0.1 and 4111.
	Addr string
	// Listener, when set, is used instead of listening on Addr.
	Listener net.Listener
	// Options configure the API handler.
	Options Options
	// ShutdownGrace is how long requests in flight (streams included)
	// and background runs may go on once ctx is done (default 10s);
	// after it their contexts are cancelled.
	ShutdownGrace time.Duration
	// Ready, when set, is called with the listener's address once the
	// server accepts connections.
	Ready func(addr net.Addr)
}

// DefaultAddr is where Serve listens when neither ServeOptions.Addr nor
// $HOST / $PORT say otherwise.
const DefaultAddr = "127.0.0.1:4111"

// listenAddr is the address Serve listens on.
func listenAddr(addr string, getenv func(string) string) string {
	if addr != "" {
		return addr
	}
	host, port := getenv("HOST"), getenv("PORT")
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "4111"
	}
	return net.JoinHostPort(host, port)
}

// parkTimeout bounds how long a shutdown waits, once it has cancelled
// the requests left running, for their runs to save what they have.
const parkTimeout = 30 * time.Second

// Serve serves m's API (New(m, so.Options)) until ctx is done, then shuts
// down gracefully: it stops accepting connections, lets requests in
// flight and background runs finish for up to ShutdownGrace, then
// cancels their contexts (an agent run with storage then parks: it keeps
// what it saved, and a recovery finishes it) and waits for the handlers
// to return, so that the storage outlives their saves. It returns nil after a shutdown
// caused by ctx, or the error that stopped the server.
func Serve(ctx context.Context, m *mastra.Mastra, so ServeOptions) error {
	ln := so.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", listenAddr(so.Addr, os.Getenv)); err != nil {
			return err
		}
	}
	grace := so.ShutdownGrace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	h := New(m, so.Options)
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if so.Ready != nil {
		so.Ready(ln.Addr())
	}
	select {
	case err := <-served:
		cancelBase()
		_ = h.Shutdown(context.Background())
		return err
	case <-ctx.Done():
	}
	graceCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	bgDone := make(chan struct{})
	go func() {
		_ = h.Shutdown(graceCtx)
		close(bgDone)
	}()
	if err := srv.Shutdown(graceCtx); err != nil {
		// The grace period is over: cancel what is still running (agent
		// runs save what they have and park, to be recovered), give the
		// handlers a moment to return, then close the connections — and
		// wait for the handlers still saving, so that the storage outlives
		// them.
		cancelBase()
		closeCtx, cancelClose := context.WithTimeout(context.Background(), 5*time.Second)
		if err := srv.Shutdown(closeCtx); err != nil {
			_ = srv.Close()
		}
		cancelClose()
		waitCtx, cancelWait := context.WithTimeout(context.Background(), parkTimeout)
		if err := h.WaitRequests(waitCtx); err != nil {
			h.log.Error("shutdown: requests still running; their runs may not be saved", "after", parkTimeout)
		}
		cancelWait()
	}
	<-bgDone
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
