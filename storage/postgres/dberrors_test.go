package postgres

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gomastra/mastra/internal/badidtest"
	"github.com/gomastra/mastra/internal/dberrtest"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
)

// cutProxy forwards TCP connections to a PostgreSQL server until Cut,
// which closes its listener and every connection: a network lost
// between a Store and its database.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	cut    bool
}

func newCutProxy(t testing.TB, target string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { _ = p.Cut() })
	go p.accept()
	return p
}

func (p *cutProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil || !p.track(c, s) {
			c.Close()
			if s != nil {
				s.Close()
			}
			continue
		}
		go func() { _, _ = io.Copy(s, c); s.Close() }()
		go func() { _, _ = io.Copy(c, s); c.Close() }()
	}
}

// track keeps c and s for Cut; false once cut.
func (p *cutProxy) track(c, s net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		return false
	}
	p.conns = append(p.conns, c, s)
	return true
}

// Cut stops forwarding: no new connection, and the open ones closed.
func (p *cutProxy) Cut() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	return p.ln.Close()
}

// proxiedStore opens a Store on a fresh database through a cutProxy.
// The proxy's address and the database's name are texts no answer may
// carry.
func proxiedStore(t *testing.T) (*Store, *cutProxy, []string) {
	cfg, err := pgx.ParseConfig(pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(cfg.Host, "/") {
		t.Skip("the test server is on a Unix socket: no TCP to cut")
	}
	p := newCutProxy(t, net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port)))
	u := url.URL{Scheme: "postgres", User: url.UserPassword(cfg.User, cfg.Password), Host: p.ln.Addr().String(),
		Path: "/" + cfg.Database, RawQuery: "sslmode=disable"}
	st, err := Open(t.Context(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st, p, []string{p.ln.Addr().String(), cfg.Database, "postgres", "pgx", "SQLSTATE",
		"failed to connect", "dial", "connection refused", "conn closed", "closed pool", "EOF"}
}

// TestLostConnectionsStayInTheLog: a Store whose network to PostgreSQL
// is cut, and then a closed Store, fail with a storage.DatabaseError;
// a running server answers Mastra's generic 500 (an error part on the
// chat route) without pgx's text, which names the server and database,
// and logs it.
func TestLostConnectionsStayInTheLog(t *testing.T) {
	st, p, leaks := proxiedStore(t)
	var logged dberrtest.Log
	m := badidtest.BadIDApp(st)
	h := server.New(m, server.Options{Logger: logged.Logger(),
		Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{Logger: logged.Logger()})}})
	if err := p.Cut(); err != nil {
		t.Fatal(err)
	}
	_, err := st.GetRun(t.Context(), "r1")
	var de *storage.DatabaseError
	if !errors.As(err, &de) || err.Error() != "storage: get run failed" {
		t.Errorf("GetRun on a cut network: %v (%T)", err, err)
	}
	dberrtest.CheckGeneric500(t, h, dberrtest.BadIDAppRequests, leaks)
	if !strings.Contains(logged.String(), "postgres: list runs") {
		t.Errorf("the driver's error is not logged: %s", logged.String())
	}
	st.Close()
	dberrtest.CheckGeneric500(t, h, dberrtest.BadIDAppRequests, leaks)
	if !strings.Contains(logged.String(), "closed pool") {
		t.Errorf("the closed pool's error is not logged: %s", logged.String())
	}
}

// TestPostgresFailureMidStream: the network to PostgreSQL cut while a
// run streams ends the agent's SSE stream with an error chunk, and the
// chat route's with an error part, without pgx's text, which is logged.
func TestPostgresFailureMidStream(t *testing.T) {
	for _, req := range dberrtest.MidStream {
		t.Run(req.Target, func(t *testing.T) {
			st, p, leaks := proxiedStore(t)
			var logged dberrtest.Log
			m := dberrtest.BreakerApp(t, st, logged.Logger(), p.Cut)
			h := server.New(m, server.Options{Logger: logged.Logger(),
				Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{Logger: logged.Logger()})}})
			dberrtest.CheckErrorChunk(t, h, req, leaks)
			if !strings.Contains(logged.String(), "postgres: ") {
				t.Errorf("the driver's error is not logged: %s", logged.String())
			}
		})
	}
}
