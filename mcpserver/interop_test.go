package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/mcpserver/interop/peer"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
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
	t.Run("features", testInteropFeatures)
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

// featuresServer serves resources (listed, binary, templated; "touch"
// announces an update), prompts (one with a required argument, one asking
// for a topic) and completions, for interop/checks-features.mjs.
func featuresServer(t testing.TB) *Server {
	t.Helper()
	var srv *Server
	touch := tools.New(tools.Config[struct {
		URI string `json:"uri"`
	}, string]{ID: "touch", Description: "Announces that a resource changed",
		Execute: func(ctx tools.Context, in struct {
			URI string `json:"uri"`
		}) (string, error) {
			return "touched", srv.NotifyResourceUpdated(ctx, in.URI)
		}})
	srv, err := New(Config{ID: "features", Name: "Features", Version: "1.0.0", Logger: discardLogger(), RequestStateKey: stateKey,
		Tools: tools.Set{"touch": touch},
		Resources: &Resources{
			List: func(context.Context) ([]*mcp.Resource, error) {
				return []*mcp.Resource{{URI: "docs://readme", Name: "readme", MIMEType: "text/markdown"}, {URI: "docs://logo", Name: "logo", MIMEType: "image/png"}}, nil
			},
			Templates: func(context.Context) ([]*mcp.ResourceTemplate, error) {
				return []*mcp.ResourceTemplate{{URITemplate: "docs://pages/{name}", Name: "page"}}, nil
			},
			Read: func(_ context.Context, uri string) ([]*mcp.ResourceContents, error) {
				switch {
				case uri == "docs://readme":
					return []*mcp.ResourceContents{{Text: "# Readme"}}, nil
				case uri == "docs://logo":
					return []*mcp.ResourceContents{{Blob: []byte{0x89, 'P', 'N', 'G'}}}, nil
				case strings.HasPrefix(uri, "docs://pages/"):
					return []*mcp.ResourceContents{{Text: "page " + strings.TrimPrefix(uri, "docs://pages/")}}, nil
				}
				return nil, ErrResourceNotFound
			},
		},
		Prompts: &Prompts{
			List: func(context.Context) ([]*mcp.Prompt, error) {
				return []*mcp.Prompt{{Name: "review", Arguments: []*mcp.PromptArgument{{Name: "language", Required: true}}}, {Name: "brief"}}, nil
			},
			Messages: func(_ context.Context, req *PromptRequest) ([]*mcp.PromptMessage, error) {
				text := "Review this " + req.Args["language"] + " code."
				if req.Prompt.Name == "brief" {
					if req.ResumeData == nil {
						return nil, req.Suspend(Question{Message: "Which topic?"})
					}
					var answer struct {
						Topic string `json:"topic"`
					}
					if err := json.Unmarshal(req.ResumeData, &answer); err != nil {
						return nil, err
					}
					text = "Write a brief on " + answer.Topic
				}
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}, nil
			},
			ResumeSchema: `{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`,
		},
		Complete: func(_ context.Context, req CompletionRequest) ([]string, error) {
			var out []string
			for _, l := range []string{"Go", "Gleam", "Rust"} {
				if req.Prompt == "review" && strings.HasPrefix(l, req.Value) {
					out = append(out, l)
				}
			}
			return out, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// The official TypeScript clients list and read resources (text, binary,
// templated), subscribe and hear an update (the 1.x client, which
// subscribes with resources/subscribe), list and get prompts (answering
// one's question) and complete an argument, over streamable HTTP.
func testInteropFeatures(t *testing.T) {
	p := peer.Find(t)
	api := server.New(mastra.New(mastra.Config{Logger: discardLogger()}), server.Options{Routes: Routes(featuresServer(t)), Logger: discardLogger()})
	ts := serveHTTP(t, api)
	for _, client := range []string{"client-sdk.mjs", "client-modern.mjs"} {
		t.Run(strings.TrimSuffix(client, ".mjs"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := p.Command(ctx, client, "--http", ts.URL+"/api/mcp/features/mcp", "--features")
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
			t.Logf("%s: %d feature checks passed, %d failed", rep.Client, rep.Passed, rep.Failed)
			if rep.Passed == 0 || (err != nil && rep.Failed == 0) {
				t.Errorf("%s: %d checks, exit %v\nstderr: %s", client, rep.Passed, err, stderr.String())
			}
		})
	}
}
