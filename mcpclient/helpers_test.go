package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// The test binary doubles as a stdio MCP server: run with childEnv set to
// a mode it serves newTestServer on stdin/stdout instead of running tests.
const (
	childModeEnv   = "GOMASTRA_MCPCLIENT_CHILD"
	crashMarkerEnv = "GOMASTRA_MCPCLIENT_CRASH_MARKER"
	crashLogEnv    = "GOMASTRA_MCPCLIENT_CRASH_LOG"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childModeEnv); mode != "" {
		os.Exit(runChild(mode))
	}
	goleak.VerifyTestMain(m)
}

// runChild serves the test server over stdio. Modes: "plain"; "garbage"
// (non-JSON-RPC lines around every message); "exit" (exits at once with
// status 7); "silent" (reads stdin, never answers); "deaf" (never answers
// and ignores stdin closing and SIGTERM).
func runChild(mode string) int {
	switch mode {
	case "exit":
		return 7
	case "silent":
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0
	case "deaf":
		signal.Ignore(syscall.SIGTERM)
		_, _ = io.Copy(io.Discard, os.Stdin)
		select {}
	}
	srv := newTestServer()
	var t mcp.Transport = &mcp.StdioTransport{}
	if mode == "garbage" {
		t = &mcp.IOTransport{Reader: os.Stdin, Writer: &garbageWriter{w: os.Stdout}}
	}
	if err := srv.Run(context.Background(), t); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "child server:", err)
		return 1
	}
	return 0
}

// garbageWriter writes junk lines (log output, a half JSON value, JSON that
// is not JSON-RPC, a blank line) before every message.
type garbageWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (g *garbageWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, err := io.WriteString(g.w, "starting up... debug output on stdout\n{not json\n{\"hello\":\"world\"}\n\n"); err != nil {
		return 0, err
	}
	return g.w.Write(p)
}
func (g *garbageWriter) Close() error { return nil }

// Tool inputs and outputs of the test server.
type (
	addIn struct {
		A float64 `json:"a" jsonschema:"first number"`
		B float64 `json:"b" jsonschema:"second number"`
	}
	weatherIn struct {
		Location string `json:"location"`
	}
	weatherOut struct {
		Temperature float64 `json:"temperature"`
		Conditions  string  `json:"conditions"`
	}
	sizeIn struct {
		Bytes int `json:"bytes"`
	}
	progressIn struct {
		Steps int `json:"steps"`
	}
)

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func ptr[T any](v T) *T { return &v }

// newTestServer is the MCP server the tests talk to, in process, over
// HTTP, or as a child process.
func newTestServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "1.2.3"},
		&mcp.ServerOptions{Instructions: "  Use add for sums. Always be brief.  "})

	mcp.AddTool(srv, &mcp.Tool{Name: "add", Description: "Adds two numbers",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(false), Title: "Add"}},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
			return textResult(fmt.Sprintf("The sum of %g and %g is %g.", in.A, in.B, in.A+in.B)), nil, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "weather", Description: "Weather with structured output",
		Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://weather"}, "mastra": map[string]any{"strict": true}}},
		func(_ context.Context, _ *mcp.CallToolRequest, in weatherIn) (*mcp.CallToolResult, weatherOut, error) {
			return nil, weatherOut{Temperature: 21.5, Conditions: "sunny in " + in.Location}, nil
		})

	// Declares an output schema its results do not meet.
	srv.AddTool(&mcp.Tool{Name: "bad_weather", Description: "Structured output of the wrong shape",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"]}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: `{"temperature":"hot"}`}},
				StructuredContent: map[string]any{"temperature": "hot"},
			}, nil
		})

	// Structured output without text content.
	srv.AddTool(&mcp.Tool{Name: "silent_weather", Description: "Structured output only",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"temperature":{"type":"number"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"temperature": 3.0}}, nil
		})

	srv.AddTool(&mcp.Tool{Name: "fail", Description: "Always reports an error",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{
				&mcp.TextContent{Text: "boom: the database is down"}, &mcp.TextContent{Text: "try later"}}}, nil
		})

	srv.AddTool(&mcp.Tool{Name: "hang", Description: "Never answers", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "progress", Description: "Reports progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, in progressIn) (*mcp.CallToolResult, any, error) {
			token := req.Params.GetProgressToken()
			for i := 1; i <= in.Steps && token != nil; i++ {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i)})
			}
			return textResult(fmt.Sprintf("done after %d steps (token sent: %v)", in.Steps, token != nil)), nil, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "huge", Description: "Returns a large text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in sizeIn) (*mcp.CallToolResult, any, error) {
			return textResult(strings.Repeat("x", in.Bytes)), nil, nil
		})

	srv.AddTool(&mcp.Tool{Name: "pid", Description: "The server's process id", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult(fmt.Sprint(os.Getpid())), nil
		})

	// crash exits the server process (stdio children only). With
	// crashMarkerEnv set it crashes only while the marker file is absent,
	// creating it: a server that crashes once.
	srv.AddTool(&mcp.Tool{Name: "crash", Description: "Exits the process", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if os.Getenv(childModeEnv) == "" {
				return textResult("not a child process"), nil
			}
			if log := os.Getenv(crashLogEnv); log != "" {
				f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
				if err == nil {
					fmt.Fprintln(f, os.Getpid())
					f.Close()
				}
			}
			if marker := os.Getenv(crashMarkerEnv); marker != "" {
				if _, err := os.Stat(marker); err == nil {
					return textResult("survived"), nil
				}
				_ = os.WriteFile(marker, nil, 0o600)
			}
			os.Exit(3)
			return nil, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "getenv", Description: "Reads environment variables"},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Names []string `json:"names"`
		}) (*mcp.CallToolResult, map[string]any, error) {
			out := map[string]any{}
			for _, n := range in.Names {
				if v, ok := os.LookupEnv(n); ok {
					out[n] = v
				}
			}
			return nil, out, nil
		})

	srv.AddResource(&mcp.Resource{URI: "test://readme", Name: "readme", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello resource"}}}, nil
		})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://items/{id}", Name: "item"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "item " + strings.TrimPrefix(req.Params.URI, "test://items/")}}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greets someone", Arguments: []*mcp.PromptArgument{{Name: "name", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Hello, " + req.Params.Arguments["name"] + "!"}}}}, nil
		})
	return srv
}

// mcpAddEcho adds an echo tool named name to srv.
func mcpAddEcho(srv *mcp.Server, name string) {
	mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "Echoes"},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Text string `json:"text"`
		}) (*mcp.CallToolResult, any, error) {
			return textResult("echo: " + in.Text), nil, nil
		})
}

// inMemory is a ServerConfig reaching srv in process.
func inMemory(srv *mcp.Server) ServerConfig {
	return ServerConfig{NewTransport: func() (mcp.Transport, error) {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}}
}

// httpServer serves srv over streamable HTTP on 127.0.0.1.
func httpServer(t testing.TB, srv *mcp.Server) *httptest.Server {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// stdioChild is a ServerConfig starting this test binary as a stdio server.
func stdioChild(t testing.TB, mode string, env map[string]string) ServerConfig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{childModeEnv: mode}
	for k, v := range env {
		e[k] = v
	}
	return ServerConfig{Command: exe, Env: e, Stderr: io.Discard}
}

// newClient builds a client and closes it when the test ends.
func newClient(t testing.TB, cfg Config) *Client {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quietLogger()
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// logRecorder is a logger that keeps its messages.
type logRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logRecorder) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.msgs = append(l.msgs, string(p))
		return len(p), nil
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (l *logRecorder) contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// ctxT is a context ending with the test (bounded, so a bug fails instead of
// hanging).
func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
