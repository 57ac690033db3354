package mcpclient

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawElicitingServer speaks the wire format by hand, so that it can send
// elicitation/create whatever the client declared: its tool "ask" sends
// one and reports the client's raw answer on elicitAnswer.
type rawElicitingServer struct {
	t            *testing.T
	elicitAnswer chan string
}

func newRawElicitingServer(t *testing.T) *rawElicitingServer {
	return &rawElicitingServer{t: t, elicitAnswer: make(chan string, 1)}
}

// transport is a NewTransport for the client: one connection served on a
// goroutine that ends when the client closes it.
func (r *rawElicitingServer) transport() (mcp.Transport, error) {
	ct, st := mcp.NewInMemoryTransports()
	conn, err := st.Connect(context.Background())
	if err != nil {
		return nil, err
	}
	go r.serve(conn)
	return ct, nil
}

func (r *rawElicitingServer) serve(conn mcp.Connection) {
	ctx := context.Background()
	defer conn.Close()
	reply := func(id jsonrpc.ID, result any) {
		b, _ := json.Marshal(result)
		_ = conn.Write(ctx, &jsonrpc.Response{ID: id, Result: b})
	}
	var pendingCall jsonrpc.ID
	elicitID, _ := jsonrpc.MakeID("elicit-1")
	for {
		msg, err := conn.Read(ctx)
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			switch m.Method {
			case "server/discover":
				_ = conn.Write(ctx, &jsonrpc.Response{ID: m.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no"}})
			case "initialize":
				reply(m.ID, map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
					"serverInfo": map[string]any{"name": "raw", "version": "1"}})
			case "tools/list":
				reply(m.ID, map[string]any{"tools": []any{map[string]any{"name": "ask", "inputSchema": map[string]any{"type": "object"}}}})
			case "tools/call":
				pendingCall = m.ID
				params, _ := json.Marshal(map[string]any{"message": "Name?", "requestedSchema": seatSchema})
				_ = conn.Write(ctx, &jsonrpc.Request{ID: elicitID, Method: "elicitation/create", Params: params})
			default:
				if m.ID.IsValid() {
					reply(m.ID, map[string]any{})
				}
			}
		case *jsonrpc.Response:
			b, _ := jsonrpc.EncodeMessage(m)
			r.elicitAnswer <- string(b)
			reply(pendingCall, map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}})
		}
	}
}
