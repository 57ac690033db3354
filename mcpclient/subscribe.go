package mcpclient

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SubscribeResource asks the server to notify the client when the resource
// at uri changes (Mastra's client.resources.subscribe); register the
// handler with OnResourceUpdated. The subscription lives as long as the
// connection: after a reconnect (ReconnectServer, a restarted stdio
// server) subscribe again. A server that does not offer subscriptions
// answers with an error.
func (c *Client) SubscribeResource(ctx context.Context, server, uri string) error {
	return c.subscription(ctx, server, uri, "subscribing to", func(rctx context.Context, conn *connection) error {
		return conn.session.Subscribe(rctx, &mcp.SubscribeParams{URI: uri})
	})
}

// UnsubscribeResource ends a SubscribeResource subscription (Mastra's
// client.resources.unsubscribe).
func (c *Client) UnsubscribeResource(ctx context.Context, server, uri string) error {
	return c.subscription(ctx, server, uri, "unsubscribing from", func(rctx context.Context, conn *connection) error {
		return conn.session.Unsubscribe(rctx, &mcp.UnsubscribeParams{URI: uri})
	})
}

func (c *Client) subscription(ctx context.Context, server, uri, verb string, fn func(context.Context, *connection) error) error {
	if uri == "" {
		return fmt.Errorf("mcpclient: %s a resource of server %q: the URI is empty", verb, server)
	}
	s, err := c.server(server)
	if err != nil {
		return err
	}
	_, err = withConn(ctx, s, fmt.Sprintf("%s resource %q of server %q", verb, uri, server),
		func(rctx context.Context, conn *connection) (struct{}, error) {
			return struct{}{}, fn(rctx, conn)
		})
	return err
}
