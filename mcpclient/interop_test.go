package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// The interop tests run the client against real peers installed by
// interop/setup.sh: @modelcontextprotocol/server-everything (over stdio,
// streamable HTTP and HTTP+SSE) and @modelcontextprotocol/conformance. They
// skip when the peers are not installed, unless GOMASTRA_REQUIRE_MCP_INTEROP=1.

const requireInteropEnv = "GOMASTRA_REQUIRE_MCP_INTEROP"

// interopPeers are the paths of the installed peers.
type interopPeers struct {
	node, loopback, everything, conformance string
}

func peers(t *testing.T) interopPeers {
	t.Helper()
	dir, err := filepath.Abs("interop")
	if err != nil {
		t.Fatal(err)
	}
	p := interopPeers{
		node:        filepath.Join(dir, "nodebin", "node_modules", ".bin", "node"),
		loopback:    filepath.Join(dir, "loopback.mjs"),
		everything:  filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		conformance: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
	}
	for _, f := range []string{p.node, p.everything, p.conformance} {
		if _, err := os.Stat(f); err != nil {
			if os.Getenv(requireInteropEnv) == "1" {
				t.Fatalf("interop peers not installed (%v); run mcpclient/interop/setup.sh", err)
			}
			t.Skipf("interop peers not installed (run mcpclient/interop/setup.sh): %v", err)
		}
	}
	return p
}

// loopbackOnly is an HTTP client that refuses to dial anything but a
// loopback address, checked before dialing.
func loopbackOnly(t *testing.T) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, err
		}
		for _, ip := range ips {
			if ip.IP.IsLoopback() {
				return dialer.DialContext(ctx, network, net.JoinHostPort(ip.IP.String(), port))
			}
		}
		return nil, fmt.Errorf("refusing to dial %s: not a loopback address", addr)
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// startNodeServer starts a Node peer on 127.0.0.1 and a free port and
// returns its address; the process is stopped when the test ends.
func startNodeServer(t *testing.T, p interopPeers, args ...string) string {
	t.Helper()
	cmd := exec.Command(p.node, append([]string{"--import", p.loopback}, args...)...)
	cmd.Env = append(os.Environ(), "PORT=0")
	cmd.Stdout = io.Discard
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	var drained sync.WaitGroup
	drained.Add(1)
	go func() {
		defer drained.Done()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "GOMASTRA_LISTENING "); ok {
				select {
				case addr <- a:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		drained.Wait()
	})
	select {
	case a := <-addr:
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("the Node server did not start listening")
		return ""
	}
}

func TestInteropEverythingStdio(t *testing.T) {
	p := peers(t)
	sc := ServerConfig{Command: p.node, Args: []string{p.everything, "stdio"}, Stderr: io.Discard}
	checkEverything(t, sc)
}

func TestInteropEverythingStreamableHTTP(t *testing.T) {
	p := peers(t)
	addr := startNodeServer(t, p, p.everything, "streamableHttp")
	checkEverything(t, ServerConfig{URL: "http://" + addr + "/mcp", HTTPClient: loopbackOnly(t)})
}

// The everything server's legacy HTTP+SSE mode answers the streamable POST
// with 404: the client falls back to SSE.
func TestInteropEverythingSSEFallback(t *testing.T) {
	p := peers(t)
	addr := startNodeServer(t, p, p.everything, "sse")
	rec := &logRecorder{}
	c := newClient(t, Config{Logger: rec.logger(), Servers: map[string]ServerConfig{
		"everything": {URL: "http://" + addr + "/sse", HTTPClient: loopbackOnly(t)},
	}})
	set, errs := c.ListToolsWithErrors(ctxT(t))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	res, err := executeJSON(t, set["everything_echo"], `{"message":"over sse"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, res.Output); got != "Echo: over sse" {
		t.Errorf("echo = %q", got)
	}
	if !rec.contains("falling back to HTTP+SSE") {
		t.Error("the client did not fall back to SSE")
	}
}

func textOf(t *testing.T, out any) string {
	t.Helper()
	env, ok := out.(*mcp.CallToolResult)
	if !ok {
		t.Fatalf("output is %T, want *mcp.CallToolResult", out)
	}
	var parts []string
	for _, c := range env.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// checkEverything lists and calls the everything server's tools,
// resources and prompts.
func checkEverything(t *testing.T, sc ServerConfig) {
	var approvals []ApprovalRequest
	sc.EnableProgressTracking = true
	sc.ToolApproval = func(_ context.Context, req ApprovalRequest) (bool, error) {
		approvals = append(approvals, req)
		return req.Annotations == nil || !req.Annotations.ReadOnlyHint, nil
	}
	sc.Timeout = 30 * time.Second
	sc.ConnectTimeout = 30 * time.Second
	c := newClient(t, Config{Servers: map[string]ServerConfig{"everything": sc}})
	ctx := ctxT(t)

	set, errs := c.ListToolsWithErrors(ctx)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	for _, name := range []string{"echo", "get-sum", "trigger-long-running-operation", "get-structured-content",
		"get-annotated-message", "get-tiny-image"} {
		if set["everything_"+name] == nil {
			t.Fatalf("tool %q missing; got %d tools", name, len(set))
		}
	}
	if c.ServerInstructions()["everything"] == "" {
		t.Error("no server instructions")
	}

	res, err := executeJSON(t, set["everything_echo"], `{"message":"hello from Go"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, res.Output); got != "Echo: hello from Go" {
		t.Errorf("echo = %q", got)
	}
	res, err = executeJSON(t, set["everything_get-sum"], `{"a":19,"b":23}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, res.Output); !strings.Contains(got, "42") {
		t.Errorf("get-sum = %q", got)
	}

	// Progress, written to the call's writer before the call returns.
	var progress []Progress
	inv := &tools.Invocation{Writer: tools.WriterFunc{OnWrite: func(v any) error {
		progress = append(progress, v.(Progress))
		return nil
	}}}
	res, err = set["everything_trigger-long-running-operation"].Execute(ctx, json.RawMessage(`{"duration":0.3,"steps":3}`), inv)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, res.Output); !strings.Contains(got, "Long running operation completed") {
		t.Errorf("long-running = %q", got)
	}
	if len(progress) != 3 || progress[2].Progress != 3 || progress[2].Total != 3 || progress[2].Tool != "trigger-long-running-operation" {
		t.Errorf("progress = %+v", progress)
	}

	// Structured content, validated and mapped for the model.
	sct := set["everything_get-structured-content"]
	if sct.OutputSchema() == nil {
		t.Error("get-structured-content publishes no output schema")
	}
	res, err = executeJSON(t, sct, `{"location":"Chicago"}`)
	if err != nil {
		t.Fatal(err)
	}
	sr, ok := res.Output.(*StructuredResult)
	if !ok {
		t.Fatalf("structured output = %#v", res.Output)
	}
	if v := sr.Value.(map[string]any); v["temperature"] != 36.0 || v["conditions"] != "Light rain / drizzle" {
		t.Errorf("structured value = %v", v)
	}
	if mo, err := sct.ModelOutput(ctx, "", res.Output, nil); err != nil || mo.Type != "text" || !strings.Contains(mo.Value.(string), "drizzle") {
		t.Errorf("model output = %+v, %v", mo, err)
	}
	res, err = executeJSON(t, sct, `{"location":"Paris"}`)
	if err != nil || res.ValidationError() == nil {
		t.Errorf("a location outside the enum: %#v, %v", res, err)
	}

	// Annotations, and an approval policy driven by them.
	ann := set["everything_get-sum"].MCP().Annotations
	if ann == nil || ann.Title != "" && ann.Title != "Get Sum Tool" || ann.ReadOnlyHint == nil || !*ann.ReadOnlyHint {
		t.Errorf("get-sum annotations = %+v", ann)
	}
	if need, err := set["everything_get-sum"].NeedsApproval(ctx, map[string]any{"a": 1.0, "b": 2.0}, nil); err != nil || need {
		t.Errorf("a read-only tool needs approval: %v %v", need, err)
	}
	if len(approvals) != 1 || approvals[0].ToolName != "get-sum" {
		t.Errorf("approval requests = %+v", approvals)
	}
	res, err = executeJSON(t, set["everything_get-annotated-message"], `{"messageType":"error","includeImage":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if env := res.Output.(*mcp.CallToolResult); len(env.Content) < 2 {
		t.Errorf("annotated message content = %+v", env.Content)
	}
	res, err = executeJSON(t, set["everything_get-tiny-image"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	var image bool
	for _, ct := range res.Output.(*mcp.CallToolResult).Content {
		if img, ok := ct.(*mcp.ImageContent); ok && img.MIMEType == "image/png" && len(img.Data) > 0 {
			image = true
		}
	}
	if !image {
		t.Error("get-tiny-image returned no PNG")
	}

	// Resources and prompts.
	resources, errs := c.ListResources(ctx)
	if len(errs) != 0 || len(resources["everything"]) == 0 {
		t.Fatalf("resources = %v, %v", resources, errs)
	}
	read, err := c.ReadResource(ctx, "everything", resources["everything"][0].URI)
	if err != nil || len(read.Contents) == 0 {
		t.Errorf("read %s: %+v, %v", resources["everything"][0].URI, read, err)
	}
	templates, errs := c.ListResourceTemplates(ctx)
	if len(errs) != 0 || len(templates["everything"]) == 0 {
		t.Errorf("templates = %v, %v", templates, errs)
	}
	read, err = c.ReadResource(ctx, "everything", "demo://resource/dynamic/text/1")
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text == "" {
		t.Errorf("dynamic resource: %+v, %v", read, err)
	}
	prompts, errs := c.ListPrompts(ctx)
	if len(errs) != 0 || len(prompts["everything"]) < 2 {
		t.Errorf("prompts = %v, %v", prompts, errs)
	}
	pr, err := c.GetPrompt(ctx, "everything", "args-prompt", map[string]string{"city": "Oslo"})
	if err != nil || len(pr.Messages) == 0 || !strings.Contains(pr.Messages[0].Content.(*mcp.TextContent).Text, "Oslo") {
		t.Errorf("args-prompt: %+v, %v", pr, err)
	}

	// An agent run calling the server's tool.
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "everything_get-sum", Args: `{"a":1,"b":41}`}}},
		mock.Step{Text: "42"},
	)
	a, err := agent.New(agent.Config{ID: "interop", Name: "Interop", Model: m, Tools: tools.Set{"everything_get-sum": set["everything_get-sum"]}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(ctx, "1+41?")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.ToolResults) != 1 {
		t.Fatalf("tool results = %+v", out.ToolResults)
	}
	raw, _ := json.Marshal(out.ToolResults[0])
	if !strings.Contains(string(raw), "42") {
		t.Errorf("agent tool result = %s", raw)
	}
}

func TestInteropEverythingInteractiveStdio(t *testing.T) {
	p := peers(t)
	checkEverythingInteractive(t, func() ServerConfig {
		return ServerConfig{Command: p.node, Args: []string{p.everything, "stdio"}, Stderr: io.Discard}
	})
}

func TestInteropEverythingInteractiveStreamableHTTP(t *testing.T) {
	p := peers(t)
	addr := startNodeServer(t, p, p.everything, "streamableHttp")
	checkEverythingInteractive(t, func() ServerConfig {
		return ServerConfig{URL: "http://" + addr + "/mcp", HTTPClient: loopbackOnly(t)}
	})
}

// checkEverythingInteractive runs what needs the everything server to call
// back: its elicitation tool answered by a handler and by suspending and
// resuming the call, and a resource subscription receiving an update.
func checkEverythingInteractive(t *testing.T, config func() ServerConfig) {
	ctx := ctxT(t)
	const elicitTool = "trigger-elicitation-request"

	// A handler answers; the requested schema's defaults fill the rest.
	sc := config()
	var asked *ElicitationRequest
	sc.ElicitationHandler = func(_ context.Context, req *ElicitationRequest) (*ElicitationResponse, error) {
		asked = req
		return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"name": "Ada Lovelace"}}, nil
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"everything": sc}})
	set, err := c.ServerTools(ctx, "everything")
	if err != nil {
		t.Fatal(err)
	}
	res, err := set[elicitTool].Execute(ctx, json.RawMessage(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, res.Output); !strings.Contains(got, "- Name: Ada Lovelace") || !strings.Contains(got, "- Favorite Integer: 42") {
		t.Errorf("handler answer: server said %q", got)
	}
	if asked == nil || asked.Tool != elicitTool || asked.RequestedSchema["required"] == nil {
		t.Errorf("the handler saw %+v", asked)
	}

	// No handler: the call suspends; resuming it answers the server.
	c2 := newClient(t, Config{Servers: map[string]ServerConfig{"everything": config()}})
	set, err = c2.ServerTools(ctx, "everything")
	if err != nil {
		t.Fatal(err)
	}
	for _, answer := range []struct{ data, want string }{
		{`{"action":"accept","content":{"name":"Grace Hopper","integer":7}}`, "- Favorite Integer: 7"},
		{`{"action":"decline"}`, "User declined"},
	} {
		inv := &tools.Invocation{RunID: "run", ToolCallID: "call-" + answer.want}
		res, err := set[elicitTool].Execute(ctx, json.RawMessage(`{}`), inv)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Suspended() {
			t.Fatalf("the call did not suspend: %+v", res.Output)
		}
		var p ElicitationSuspension
		if err := json.Unmarshal(res.Suspension.Payload, &p); err != nil || !strings.Contains(p.Message, "Please provide inputs") {
			t.Fatalf("payload %+v, %v", p, err)
		}
		inv.ResumeData, inv.SuspendPayload = json.RawMessage(answer.data), res.Suspension.Payload
		res, err = set[elicitTool].Execute(ctx, json.RawMessage(`{}`), inv)
		if err != nil {
			t.Fatal(err)
		}
		if got := textOf(t, res.Output); !strings.Contains(got, answer.want) {
			t.Errorf("resumed with %s: server said %q", answer.data, got)
		}
	}

	// A subscription: the server's simulated updates reach the handler.
	resources, errs := c2.ListResources(ctx)
	if len(errs) != 0 || len(resources["everything"]) == 0 {
		t.Fatalf("resources = %v, %v", resources, errs)
	}
	uri := resources["everything"][0].URI
	updates := make(chan ResourceUpdate, 16)
	if err := c2.OnResourceUpdated("everything", func(u ResourceUpdate) {
		select {
		case updates <- u:
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := c2.SubscribeResource(ctx, "everything", uri); err != nil {
		t.Fatal(err)
	}
	if _, err := set["toggle-subscriber-updates"].Execute(ctx, json.RawMessage(`{}`), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case u := <-updates:
		if u.Server != "everything" || u.URI != uri {
			t.Errorf("update %+v, want %s", u, uri)
		}
	case <-ctx.Done():
		t.Fatal("no resource update")
	}
	if _, err := set["toggle-subscriber-updates"].Execute(ctx, json.RawMessage(`{}`), nil); err != nil {
		t.Fatal(err)
	}
	if err := c2.UnsubscribeResource(ctx, "everything", uri); err != nil {
		t.Fatal(err)
	}
}
