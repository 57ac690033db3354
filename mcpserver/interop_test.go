package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/mcpserver/interop/peer"
	"github.com/gomastra/mastra/server"
)

// clientReport is what interop/checks.mjs prints.
type clientReport struct {
	Client         string `json:"client"`
	Passed, Failed int
	Checks         []struct {
		Name   string `json:"name"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"checks"`
}

// The official TypeScript clients drive the server: @modelcontextprotocol/sdk
// (protocol 2025-11-25, sessions, elicitation/create) and
// @modelcontextprotocol/client (2026-07-28, input_required), each over
// streamable HTTP (the API server's /api/mcp/my-server/mcp) and over stdio
// (this test binary re-executed as the server). They list the tools and
// call a typed tool, a text tool, an unknown tool, invalid input, a
// failing tool, ask_<agent>, run_<workflow> and a suspending tool
// (answered, then declined).
func TestInteropTypeScriptClients(t *testing.T) {
	p := peer.Find(t)
	s := fixtureServer(t)
	api := server.New(mastra.New(mastra.Config{Logger: discardLogger()}), server.Options{Routes: Routes(s), Logger: discardLogger()})
	ts := serveHTTP(t, api)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, client := range []string{"client-sdk.mjs", "client-modern.mjs"} {
		for _, tr := range []struct {
			name string
			args []string
		}{{"http", []string{"--http", ts.URL + "/api/mcp/my-server/mcp"}}, {"stdio", []string{"--stdio", exe}}} {
			t.Run(strings.TrimSuffix(client, ".mjs")+"/"+tr.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				cmd := p.Command(ctx, client, tr.args...)
				cmd.Env = append(cmd.Env, stdioChildEnv+"=1")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				var rep clientReport
				if jerr := json.Unmarshal(bytes.TrimSpace(out), &rep); jerr != nil {
					t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", client, err, out, stderr.String())
				}
				for _, c := range rep.Checks {
					if !c.OK {
						t.Errorf("%s %s: %s", rep.Client, c.Name, c.Detail)
					}
				}
				t.Logf("%s over %s: %d checks passed, %d failed", rep.Client, tr.name, rep.Passed, rep.Failed)
				if err != nil && rep.Failed == 0 {
					t.Errorf("%s exited with %v\nstderr: %s", client, err, stderr.String())
				}
			})
		}
	}
}
