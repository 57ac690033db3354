package mcpclient

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskTransport wraps a transport so that tools/call answers that created
// a task (resultType "task", the task's fields at the top level) reach the
// SDK as a CallToolResult with no content and the task under
// _meta[taskMetaKey]: the SDK decodes every tools/call answer into a
// CallToolResult, which would drop the task's fields.
type taskTransport struct{ mcp.Transport }

func (t taskTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &taskConn{Connection: c, calls: map[jsonrpc.ID]bool{}}, nil
}

// wrapTasks wraps t when the server has tasks configured.
func (s *server) wrapTasks(t mcp.Transport) mcp.Transport {
	if s.cfg.Tasks == nil {
		return t
	}
	return taskTransport{t}
}

// taskConn remembers the ids of tools/call requests it writes and
// rewrites their answers.
type taskConn struct {
	mcp.Connection
	mu    sync.Mutex
	calls map[jsonrpc.ID]bool
}

func (c *taskConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == "tools/call" {
		c.mu.Lock()
		c.calls[req.ID] = true
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		call := c.calls[resp.ID]
		delete(c.calls, resp.ID)
		c.mu.Unlock()
		if call && resp.Result != nil {
			resp.Result = moveTaskToMeta(resp.Result)
		}
	}
	return msg, err
}

// moveTaskToMeta rewrites a CreateTaskResult as described at
// taskTransport; any other result is returned as it is.
func moveTaskToMeta(raw json.RawMessage) json.RawMessage {
	var probe struct {
		ResultType string         `json:"resultType"`
		Meta       map[string]any `json:"_meta"`
	}
	if json.Unmarshal(raw, &probe) != nil || probe.ResultType != "task" {
		return raw
	}
	meta := probe.Meta
	if meta == nil {
		meta = map[string]any{}
	}
	meta[taskMetaKey] = raw
	out, err := json.Marshal(map[string]any{"content": []any{}, "_meta": meta})
	if err != nil {
		return raw
	}
	return out
}
