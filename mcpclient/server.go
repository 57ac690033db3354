package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one configured MCP server: its connection (made lazily, remade
// when it breaks), its progress routing and what its last tool listing
// said. Its goroutines (a dial in progress, one watcher per live
// connection) end by close.
type server struct {
	name   string
	cfg    *resolved
	logger *slog.Logger
	mcp    *mcp.Client

	ctx    context.Context // cancelled by close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	conn   *connection              // the connection in use, if any
	open   map[*connection]struct{} // every session not ended yet
	dial   *dialState
	closed bool

	progressMu sync.Mutex
	progress   map[string]*progressSink

	namesMu   sync.Mutex
	toolNames map[string]bool // the server's tool names at the last listing

	// events: notification and elicitation handlers, cached listing,
	// calls that can suspend (notifications.go, elicitcall.go).
	events *serverEvents

	subs subscriptions // resources subscribed to, renewed on each connection (subscribe.go)
	acks listenAcks    // listening sessions' acknowledged subscriptions (listenack.go)
}

// connection is one session with the server.
type connection struct {
	session *mcp.ClientSession
	state   *connState
	// done is closed when the session has ended (closed by either side).
	done chan struct{}
}

// dead reports a connection that ended or that hit the size limit (the
// transport then fails it).
func (c *connection) dead() bool {
	if c.state.tooLarge.Load() {
		return true
	}
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// initResult is what the server said when the session started.
func (c *connection) initResult() *mcp.InitializeResult {
	if r := c.session.InitializeResult(); r != nil {
		return r
	}
	return &mcp.InitializeResult{}
}

// listens reports a session that takes subscriptions on
// subscriptions/listen streams (protocol 2026-07-28 and later).
func (c *connection) listens() bool {
	return c.initResult().ProtocolVersion >= "2026-07-28"
}

// dialState is a connection attempt; done is closed when it has ended.
type dialState struct {
	done chan struct{}
	conn *connection
	err  error
}

func newServer(cfg *resolved, logger *slog.Logger) *server {
	s := &server{name: cfg.name, cfg: cfg, logger: logger, progress: map[string]*progressSink{}, open: map[*connection]struct{}{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.events = newServerEvents()
	opts := &mcp.ClientOptions{
		// No roots: this client has none to offer.
		Capabilities:                &mcp.ClientCapabilities{},
		ProgressNotificationHandler: s.onProgress,
		// Servers on protocol revisions before 2026-07-28 still send log
		// notifications; Mastra forwards them to its logger.
		//lint:ignore SA1019 deprecated in 2026-07-28, still sent by older servers
		LoggingMessageHandler: s.onLog,
	}
	s.addClientOptions(opts) // list-changed, resource-updated, elicitation
	s.addTaskOptions(opts)   // MCP tasks: tasks_wire.go
	s.mcp = mcp.NewClient(&mcp.Implementation{Name: cfg.name, Version: "1.0.0"}, opts)
	registerTaskMethods(s.mcp) // MCP tasks: tasks_wire.go
	s.mcp.AddReceivingMiddleware(s.acks.middleware)
	// OAuth (oauth_handler.go): the handler logs to the client's logger.
	if cfg.oauth != nil {
		cfg.oauth.logger = logger
	}
	return s
}

// get returns the live connection, connecting first if there is none.
// Concurrent callers share one connection attempt.
func (s *server) get(ctx context.Context) (*connection, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	if c := s.conn; c != nil {
		if !c.dead() {
			s.mu.Unlock()
			return c, nil
		}
		s.conn = nil
		s.closeLater(c)
	}
	d := s.dial
	if d == nil {
		d = &dialState{done: make(chan struct{})}
		s.dial = d
		s.wg.Add(1)
		go s.runDial(d)
	}
	s.mu.Unlock()
	select {
	case <-d.done:
		return d.conn, d.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// runDial makes one connection attempt, bounded by ConnectTimeout and by
// close, and publishes it.
func (s *server) runDial(d *dialState) {
	defer s.wg.Done()
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.connectTimeout)
	conn, err := s.connect(ctx)
	if err == nil {
		if !s.acks.awaitListChanged(ctx, conn) { // listenack.go
			s.logger.Warn("MCP server did not acknowledge the list-changed listen stream", "server", s.name)
		}
		s.renewSubscriptions(ctx, conn) // subscribe.go
	}
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%w: %v", &timeoutError{what: fmt.Sprintf("connecting to server %q (after %v)", s.name, s.cfg.connectTimeout)}, err)
	}
	cancel()
	var stale *connection
	s.mu.Lock()
	switch {
	case err != nil:
		if s.closed {
			err = ErrClosed
		} else {
			err = newMastraError(IDConnectFailed, fmt.Sprintf("Failed to connect to MCP server %s: %v", s.name, err),
				map[string]any{"name": s.name}, err)
		}
	case s.closed:
		stale, conn, err = conn, nil, ErrClosed
	default:
		s.conn = conn
		s.open[conn] = struct{}{}
		s.wg.Add(1)
		go s.watch(conn)
	}
	s.dial = nil
	d.conn, d.err = conn, err
	close(d.done)
	s.mu.Unlock()
	switch {
	case stale != nil:
		stale.session.Close()
		s.acks.forget(stale.session)
	case conn != nil:
		s.logger.Debug("connected to MCP server", "server", s.name, "protocolVersion", conn.initResult().ProtocolVersion)
	case !errors.Is(err, ErrClosed):
		s.logger.Error("MCPClient errored connecting to MCP server", "server", s.name, "error", err)
	}
}

// connect opens a session over the configured transport.
func (s *server) connect(ctx context.Context) (*connection, error) {
	var (
		sess *mcp.ClientSession
		st   = &connState{}
		err  error
	)
	switch s.cfg.kind {
	case kindStdio:
		sess, err = s.mcp.Connect(ctx, s.wrapTasks(&stdioTransport{cfg: s.cfg, state: st, logger: s.logger, progress: s.dispatchProgress}), nil)
	case kindHTTP:
		sess, st, err = s.dialHTTP(ctx)
	default:
		var t mcp.Transport
		if t, err = s.cfg.NewTransport(); err == nil {
			if t == nil {
				err = errors.New("NewTransport returned a nil transport")
			} else {
				sess, err = s.mcp.Connect(ctx, s.wrapTasks(t), nil)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return &connection{session: sess, state: st, done: make(chan struct{})}, nil
}

// watch marks conn dead when its session ends, so the next use reconnects.
func (s *server) watch(conn *connection) {
	defer s.wg.Done()
	_ = conn.session.Wait()
	// Closing an ended session releases the SDK's subscriptions/listen
	// goroutines, opened when list-changed handlers are set.
	conn.session.Close()
	s.acks.forget(conn.session)
	close(conn.done)
	s.mu.Lock()
	if s.conn == conn {
		s.conn = nil
	}
	delete(s.open, conn)
	s.mu.Unlock()
}

// closeLater closes an abandoned connection in the background (closing a
// stdio server can take seconds). Call with s.mu held.
func (s *server) closeLater(c *connection) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		c.session.Close()
	}()
}

// reconnect replaces failed (unless someone already did) and returns the
// new connection: Mastra's forceReconnect.
func (s *server) reconnect(ctx context.Context, failed *connection) (*connection, error) {
	s.mu.Lock()
	drop := failed != nil && s.conn == failed
	if drop {
		s.conn = nil
	}
	s.mu.Unlock()
	if drop {
		failed.session.Close()
	}
	return s.get(ctx)
}

// disconnect closes the current connection; the next use reconnects.
func (s *server) disconnect() {
	s.mu.Lock()
	conn := s.conn
	s.conn = nil
	s.mu.Unlock()
	if conn != nil {
		conn.session.Close()
	}
}

// close disconnects for good and waits for the server's goroutines (and,
// on stdio, for the child processes).
func (s *server) close() {
	s.mu.Lock()
	s.closed = true
	s.conn = nil
	for c := range s.open {
		s.closeLater(c)
	}
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// instructions returns the live connection's instructions, "" when not
// connected.
func (s *server) instructions() string {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil || conn.dead() {
		return ""
	}
	return conn.initResult().Instructions
}

// onLog forwards the server's log notifications to the logger.
func (s *server) onLog(ctx context.Context, req *mcp.LoggingMessageRequest) {
	p := req.Params
	level := slog.LevelInfo
	switch p.Level {
	case "debug":
		level = slog.LevelDebug
	case "warning":
		level = slog.LevelWarn
	case "error", "critical", "alert", "emergency":
		level = slog.LevelError
	}
	s.logger.Log(ctx, level, "[MCP SERVER LOG]", "server", s.name, "logger", p.Logger, "data", p.Data)
}
