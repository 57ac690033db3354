package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SubscribeResource asks the server to notify the client when the resource
// at uri changes (Mastra's client.resources.subscribe); register the
// handler with OnResourceUpdated. It returns once the server has the
// subscription in place, so an update sent after it returns reaches the
// handler. The subscription lasts until
// UnsubscribeResource: each new connection to the server (after
// ReconnectServer, a broken connection, a restarted stdio server) renews
// it before it is used, logging a renewal the server refuses. A server that does not offer
// subscriptions answers with an error, and nothing is kept.
func (c *Client) SubscribeResource(ctx context.Context, server, uri string) error {
	return c.subscription(ctx, server, uri, true)
}

// UnsubscribeResource ends a SubscribeResource subscription (Mastra's
// client.resources.unsubscribe).
func (c *Client) UnsubscribeResource(ctx context.Context, server, uri string) error {
	return c.subscription(ctx, server, uri, false)
}

// subscription subscribes to uri, or unsubscribes, on the live connection
// and records it for the connections to come. A subscription is recorded
// once there is a connection and before it is asked for, so a connection
// made meanwhile renews it too (subscribing twice is harmless), and
// forgotten when the server refuses it.
func (c *Client) subscription(ctx context.Context, server, uri string, subscribe bool) error {
	verb := "unsubscribing from"
	if subscribe {
		verb = "subscribing to"
	}
	if uri == "" {
		return fmt.Errorf("mcpclient: %s a resource of server %q: the URI is empty", verb, server)
	}
	s, err := c.server(server)
	if err != nil {
		return err
	}
	_, err = withConn(ctx, s, fmt.Sprintf("%s resource %q of server %q", verb, uri, server),
		func(rctx context.Context, conn *connection) (struct{}, error) {
			s.subs.set(uri, subscribe)
			if subscribe {
				return struct{}{}, s.subscribeOn(rctx, conn, uri)
			}
			return struct{}{}, s.unsubscribeOn(rctx, conn, uri)
		})
	if err != nil && subscribe {
		s.subs.set(uri, false)
	}
	return err
}

// subscriptions are the resource URIs a server's client is subscribed to.
type subscriptions struct {
	mu   sync.Mutex
	uris map[string]struct{}
}

// set records uri as subscribed to, or not.
func (ss *subscriptions) set(uri string, on bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !on {
		delete(ss.uris, uri)
		return
	}
	if ss.uris == nil {
		ss.uris = map[string]struct{}{}
	}
	ss.uris[uri] = struct{}{}
}

// list returns the subscribed URIs, sorted.
func (ss *subscriptions) list() []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Sorted(maps.Keys(ss.uris))
}

// renewSubscriptions subscribes conn, a new connection, to every resource
// subscribed to, before the connection is used: each request bounded by
// the server's request timeout and by ctx (the connection attempt's). The
// server's refusals are logged; they do not fail the connection.
func (s *server) renewSubscriptions(ctx context.Context, conn *connection) {
	for _, uri := range s.subs.list() {
		rctx, cancel := context.WithTimeout(ctx, s.cfg.timeout)
		err := s.subscribeOn(rctx, conn, uri)
		cancel()
		if err != nil {
			s.logger.Warn("MCP resource subscription not renewed", "server", s.name, "uri", uri, "error", err)
		}
	}
}

// subscribeOn subscribes conn to uri and returns once the subscription is
// in place: the server answered resources/subscribe, or, on a session
// that listens (protocol 2026-07-28 and later), acknowledged the
// subscriptions/listen request. A listening server's refusal, or no
// acknowledgement before ctx ends, is an error, and conn forgets the
// subscription.
func (s *server) subscribeOn(ctx context.Context, conn *connection, uri string) error {
	if !conn.listens() {
		return conn.session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	}
	ack, fresh := s.acks.expect(conn.session, uri)
	if fresh {
		if err := conn.session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			s.acks.drop(conn.session, uri)
			return err
		}
	}
	var err error
	select {
	case <-ack.done:
		if !ack.granted {
			err = errors.New("the server does not offer resource subscriptions")
		}
	case <-ctx.Done():
		err = fmt.Errorf("the server did not acknowledge the subscription: %w", ctx.Err())
	}
	if err != nil {
		_ = s.unsubscribeOn(ctx, conn, uri)
	}
	return err
}

// unsubscribeOn ends conn's subscription to uri.
func (s *server) unsubscribeOn(ctx context.Context, conn *connection, uri string) error {
	if conn.listens() {
		s.acks.drop(conn.session, uri)
	}
	return conn.session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
}
