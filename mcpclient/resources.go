package mcpclient

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListResources returns each server's resources (every page). A server
// that does not offer resources has none; a server that fails is left out,
// logged, and its error returned.
func (c *Client) ListResources(ctx context.Context) (map[string][]*mcp.Resource, map[string]error) {
	return collect(ctx, c, "resources", func(ctx context.Context, conn *connection) ([]*mcp.Resource, error) {
		var out []*mcp.Resource
		for r, err := range conn.session.Resources(ctx, nil) {
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	})
}

// ListResourceTemplates returns each server's resource templates, as
// ListResources does.
func (c *Client) ListResourceTemplates(ctx context.Context) (map[string][]*mcp.ResourceTemplate, map[string]error) {
	return collect(ctx, c, "resource templates", func(ctx context.Context, conn *connection) ([]*mcp.ResourceTemplate, error) {
		var out []*mcp.ResourceTemplate
		for r, err := range conn.session.ResourceTemplates(ctx, nil) {
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	})
}

// ReadResource reads one resource of a server. A failure is a
// *mastra.Error with ID IDReadResourceFailed wrapping the cause.
func (c *Client) ReadResource(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error) {
	s, err := c.server(server)
	if err != nil {
		return nil, err
	}
	res, err := withConn(ctx, s, fmt.Sprintf("reading resource %q of server %q", uri, server),
		func(rctx context.Context, conn *connection) (*mcp.ReadResourceResult, error) {
			return s.readResource(rctx, conn, &mcp.ReadResourceParams{URI: uri}) // elicitrounds.go
		})
	if err != nil {
		return nil, newMastraError(IDReadResourceFailed, err.Error(), map[string]any{"serverName": server, "uri": uri}, err)
	}
	return res, nil
}

// collect runs a listing on every server in parallel. A server answering
// "method not found" has an empty list.
func collect[T any](ctx context.Context, c *Client, what string, list func(context.Context, *connection) ([]T, error)) (map[string][]T, map[string]error) {
	out := map[string][]T{}
	results := make(chan struct {
		name string
		v    []T
	}, len(c.servers))
	errs := c.eachServer(ctx, func(ctx context.Context, s *server) error {
		v, err := withConn(ctx, s, fmt.Sprintf("listing the %s of server %q", what, s.name), list)
		if err != nil && !isMethodNotFound(err) {
			return err
		}
		if v == nil {
			v = []T{}
		}
		results <- struct {
			name string
			v    []T
		}{s.name, v}
		return nil
	})
	close(results)
	for r := range results {
		out[r.name] = r.v
	}
	failed := map[string]error{}
	for _, name := range c.names {
		if err := errs[name]; err != nil {
			c.logger.Error("Failed to list "+what+" from server:", "server", name, "error", err)
			failed[name] = err
		}
	}
	return out, failed
}
