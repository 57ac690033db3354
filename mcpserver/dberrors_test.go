package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/dberrtest"
	"github.com/gomastra/mastra/storage/sqlite"
)

// TestStorageFailureStaysInTheLog: an agent tool whose run fails on
// storage (the database closed during the run) is a tool error whose
// text is not the driver's; the driver's text is logged.
func TestStorageFailureStaysInTheLog(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "mastra.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logged dberrtest.Log
	s, err := New(Config{Name: "Breaker", Version: "1.0.0", Logger: logged.Logger(),
		Agents: map[string]*agent.Agent{"breaker": dberrtest.BreakerAgent(t, st, logged.Logger(), st.Close)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	res, err := connect(t, s, clientOptions{}).CallTool(context.Background(),
		&mcp.CallToolParams{Name: "ask_breaker", Arguments: map[string]any{"message": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if !res.IsError {
		t.Errorf("not a tool error: %s", raw)
	}
	dberrtest.CheckNoLeak(t, "ask_breaker", string(raw), []string{"database is closed", "sqlite"})
	if !strings.Contains(logged.String(), "database is closed") {
		t.Errorf("the database's error is not logged: %s", logged.String())
	}
}
