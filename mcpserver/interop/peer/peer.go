// Package peer finds the real MCP peers (Node 22 and the npm packages
// pinned in mcpserver/interop, installed by its setup.sh) for the interop
// tests. Tests that need them skip when they are not installed, or fail
// when GOMASTRA_REQUIRE_MCP_INTEROP=1 (CI sets it after running setup.sh).
package peer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// RequireEnv makes missing peers a test failure instead of a skip.
const RequireEnv = "GOMASTRA_REQUIRE_MCP_INTEROP"

// Peers are the installed peers.
type Peers struct {
	// Dir is mcpserver/interop; Node is the Node 22 binary.
	Dir, Node string
}

// Find returns the installed peers, or skips (fails under RequireEnv) tb.
func Find(tb testing.TB) *Peers {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("peer: cannot locate the interop directory")
	}
	dir := filepath.Dir(filepath.Dir(file))
	p := &Peers{Dir: dir, Node: filepath.Join(dir, "nodebin", "node_modules", ".bin", "node")}
	for _, need := range []string{p.Node, filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "package.json")} {
		if _, err := os.Stat(need); err != nil {
			msg := "MCP interop peers are not installed (run mcpserver/interop/setup.sh): " + err.Error()
			if os.Getenv(RequireEnv) == "1" {
				tb.Fatal(msg)
			}
			tb.Skip(msg)
		}
	}
	return p
}

// Command runs a Node script (relative to Dir, or a path under
// node_modules) with Node 22 first on PATH, in Dir.
func (p *Peers) Command(ctx context.Context, script string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, p.Node, append([]string{script}, args...)...)
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(p.Node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return cmd
}
