package mcpclient

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// withConn runs one request on the server's connection (connecting first if
// needed), bounded by the server's Timeout, and words its failure (see
// requestError). When the connection broke (see retryable) it reconnects
// once and runs the request once more, as Mastra does.
func withConn[T any](ctx context.Context, s *server, what string, fn func(rctx context.Context, conn *connection) (T, error)) (T, error) {
	var zero T
	attempt := func(conn *connection) (T, error) {
		rctx, cancel := context.WithTimeout(ctx, s.cfg.timeout)
		defer cancel()
		v, err := fn(rctx, conn)
		if err != nil {
			return zero, s.requestError(ctx, rctx, conn, what, err)
		}
		return v, nil
	}
	conn, err := s.get(ctx)
	if err != nil {
		return zero, err
	}
	v, err := attempt(conn)
	if err == nil || !s.retryable(ctx, conn, err) {
		return v, err
	}
	s.logger.Debug("transport error; reconnecting to retry", "server", s.name, "request", what, "error", err)
	conn, rerr := s.reconnect(ctx, conn)
	if rerr != nil {
		s.logger.Error("reconnection failed after a transport error", "server", s.name, "request", what,
			"originalError", err, "reconnectError", rerr)
		return zero, rerr
	}
	s.logger.Debug("retrying after reconnection", "server", s.name, "request", what)
	return attempt(conn)
}

// isMethodNotFound reports a server that does not offer a method (a server
// without resources or prompts, say).
func isMethodNotFound(err error) bool {
	var wire *jsonrpc.Error
	return errors.As(err, &wire) && wire.Code == jsonrpc.CodeMethodNotFound
}
