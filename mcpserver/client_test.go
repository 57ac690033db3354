package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientOptions configure a test client.
type clientOptions struct {
	// elicit answers elicitation requests; nil declares no elicitation
	// capability.
	elicit func(*mcp.ElicitParams) *mcp.ElicitResult
	// legacy pins protocol 2025-11-25 (initialize, server-to-client
	// requests) instead of the SDK's newest.
	legacy bool
	// noMRTR turns off the client's automatic answering of
	// input_required results.
	noMRTR bool
}

// connect serves s over an in-memory transport and returns a Go SDK
// client session, closed at the end of the test.
func connect(t testing.TB, s *Server, o clientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := newClient(o).Connect(ctx, ct, sessionOptions(o))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func newClient(o clientOptions) *mcp.Client {
	opts := &mcp.ClientOptions{}
	if o.elicit != nil {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return o.elicit(req.Params), nil
		}
	}
	if o.noMRTR {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	return mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1.0.0"}, opts)
}

func sessionOptions(o clientOptions) *mcp.ClientSessionOptions {
	if o.legacy {
		return &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}
	return nil
}
