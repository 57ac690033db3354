package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mastra "github.com/gomastra/mastra"
	"github.com/gomastra/mastra/tools"
)

func TestNewRejectsBadConfig(t *testing.T) {
	mem := inMemory(newTestServer())
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no servers", Config{}, "Config.Servers is empty"},
		{"no transport", Config{Servers: map[string]ServerConfig{"a": {}}}, "either a Command, a URL or a NewTransport"},
		{"two transports", Config{Servers: map[string]ServerConfig{"a": {Command: "x", URL: "http://127.0.0.1/"}}}, "only one of"},
		{"relative URL", Config{Servers: map[string]ServerConfig{"a": {URL: "/mcp"}}}, "not an absolute http(s) URL"},
		{"ftp URL", Config{Servers: map[string]ServerConfig{"a": {URL: "ftp://127.0.0.1/"}}}, "not an absolute http(s) URL"},
		{"stdio option on URL", Config{Servers: map[string]ServerConfig{"a": {URL: "http://127.0.0.1/", Args: []string{"x"}}}}, "Command servers only"},
		{"header on stdio", Config{Servers: map[string]ServerConfig{"a": {Command: "x", Headers: map[string][]string{"A": {"b"}}}}}, "URL servers only"},
		{"bad OnToolError", Config{Servers: map[string]ServerConfig{"a": {Command: "x", OnToolError: "ignore"}}}, `OnToolError must be "throw" or "return"`},
		{"negative timeout", Config{Timeout: -1, Servers: map[string]ServerConfig{"a": mem}}, "must not be negative"},
		{"negative server timeout", Config{Servers: map[string]ServerConfig{"a": {Command: "x", Timeout: -time.Second}}}, "must not be negative"},
		{"empty name", Config{Servers: map[string]ServerConfig{"": mem}}, "needs a name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New: err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestListToolsNamespacesByServer(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"alpha": inMemory(newTestServer()),
		"beta":  {URL: httpServer(t, newTestServer()).URL},
	}})
	set, errs := c.ListToolsWithErrors(ctxT(t))
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	var keys []string
	for k, tool := range set {
		keys = append(keys, k)
		if tool.ID() != k {
			t.Errorf("tool under %q has id %q", k, tool.ID())
		}
	}
	sort.Strings(keys)
	for _, want := range []string{"alpha_add", "alpha_weather", "beta_add", "beta_weather", "beta_fail"} {
		if _, ok := set[want]; !ok {
			t.Errorf("missing %q in %v", want, keys)
		}
	}
	if got := len(set); got != 2*11 {
		t.Errorf("got %d tools, want 22: %v", got, keys)
	}

	add := set["alpha_add"]
	if add.Description() != "Adds two numbers" {
		t.Errorf("description = %q", add.Description())
	}
	in, _ := json.Marshal(add.InputSchema().JSONSchema())
	if !strings.Contains(string(in), `"a":{"type":"number","description":"first number"}`) {
		t.Errorf("input schema = %s", in)
	}
	if add.OutputSchema() != nil || add.HasToModelOutput() {
		t.Errorf("add has no output schema, but OutputSchema=%v HasToModelOutput=%v", add.OutputSchema(), add.HasToModelOutput())
	}
	wantAnn := &tools.MCPAnnotations{Title: "Add", ReadOnlyHint: ptr(true), DestructiveHint: ptr(false)}
	if diff := cmp.Diff(wantAnn, add.MCP().Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}

	w := set["beta_weather"]
	if w.OutputSchema() == nil || !w.HasToModelOutput() {
		t.Fatal("weather should publish its output schema and map results for the model")
	}
	out, _ := json.Marshal(w.OutputSchema().JSONSchema())
	if !strings.Contains(string(out), `"temperature"`) {
		t.Errorf("output schema = %s", out)
	}
	if s := w.Strict(); s == nil || !*s {
		t.Errorf("strict from _meta.mastra.strict = %v", s)
	}
	wantMeta := map[string]any{"ui": map[string]any{"resourceUri": "ui://weather", "serverId": "beta"}, "mastra": map[string]any{"strict": true}}
	if diff := cmp.Diff(wantMeta, w.MCP().Meta); diff != "" {
		t.Errorf("meta (-want +got):\n%s", diff)
	}
	if set["alpha_hang"].MCP() != nil {
		t.Errorf("a tool without annotations or _meta has MCP options %+v", set["alpha_hang"].MCP())
	}
}

func TestListToolsetsKeepServerNames(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"alpha": inMemory(newTestServer()),
		"beta":  inMemory(newTestServer()),
	}})
	sets := c.ListToolsets(ctxT(t))
	if len(sets) != 2 {
		t.Fatalf("got toolsets %v", sets)
	}
	for server, set := range sets {
		add, ok := set["add"]
		if !ok {
			t.Fatalf("toolset %q has no add", server)
		}
		if add.ID() != server+"_add" {
			t.Errorf("toolset %q: add has id %q", server, add.ID())
		}
	}
	one, err := c.ServerTools(ctxT(t), "beta")
	if err != nil || one["add"] == nil || one["add"].ID() != "beta_add" {
		t.Fatalf("ServerTools: %v, %v", one, err)
	}
	if _, err := c.ServerTools(ctxT(t), "gamma"); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("ServerTools(gamma): %v", err)
	}
}

func TestListToolsSkipsFailedServers(t *testing.T) {
	rec := &logRecorder{}
	c := newClient(t, Config{Logger: rec.logger(), Servers: map[string]ServerConfig{
		"good":    inMemory(newTestServer()),
		"missing": {Command: "/nonexistent/mcp-server-binary"},
	}})
	set, errs := c.ListToolsWithErrors(ctxT(t))
	if set["good_add"] == nil {
		t.Fatalf("the good server's tools are missing: %v", set)
	}
	for k := range set {
		if strings.HasPrefix(k, "missing_") {
			t.Errorf("tool %q of the failed server", k)
		}
	}
	err := errs["missing"]
	var me *mastra.Error
	if !errors.As(err, &me) || me.ID != IDConnectFailed {
		t.Fatalf("error = %#v, want a *mastra.Error %s", err, IDConnectFailed)
	}
	if !strings.HasPrefix(me.Message, "Failed to connect to MCP server missing: ") || !strings.Contains(me.Message, "/nonexistent/mcp-server-binary") {
		t.Errorf("text = %q", me.Message)
	}
	if _, ok := errs["good"]; ok || len(errs) != 1 {
		t.Errorf("errors = %v", errs)
	}
	if !rec.contains("Failed to list tools from server:") {
		t.Error("the failure was not logged")
	}
	if got := c.ListTools(ctxT(t)); got["good_add"] == nil || len(got) != len(set) {
		t.Errorf("ListTools = %d tools, want %d", len(got), len(set))
	}
	if err := c.Connect(ctxT(t)); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Connect = %v, want the missing server's error", err)
	}
}

func executeJSON(t *testing.T, tool *tools.Tool, args string) (*tools.Result, error) {
	t.Helper()
	return tool.Execute(ctxT(t), json.RawMessage(args), nil)
}

func TestCallReturnsTheEnvelope(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{"m": inMemory(newTestServer())}})
	set := c.ListTools(ctxT(t))
	res, err := executeJSON(t, set["m_add"], `{"a":2,"b":3}`)
	if err != nil {
		t.Fatal(err)
	}
	env, ok := res.Output.(*mcp.CallToolResult)
	if !ok {
		t.Fatalf("output is %T, want *mcp.CallToolResult", res.Output)
	}
	if len(env.Content) != 1 || env.Content[0].(*mcp.TextContent).Text != "The sum of 2 and 3 is 5." {
		t.Errorf("content = %+v", env.Content)
	}
	raw, _ := res.JSON()
	if !strings.Contains(string(raw), `"content":[{"type":"text","text":"The sum of 2 and 3 is 5."}]`) {
		t.Errorf("JSON = %s", raw)
	}
}

func TestInputIsValidatedBeforeTheCall(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{"m": inMemory(newTestServer())}})
	res, err := executeJSON(t, c.ListTools(ctxT(t))["m_add"], `{"a":"two","b":3}`)
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil {
		t.Fatalf("output = %#v, want a validation error", res.Output)
	}
	if !strings.HasPrefix(ve.Message, "Tool input validation failed for m_add.") || !strings.Contains(ve.Message, "- a: ") {
		t.Errorf("message = %q", ve.Message)
	}
}

func TestIsErrorThrowAndReturn(t *testing.T) {
	srv := newTestServer()
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"thrower":  inMemory(srv),
		"returner": func() ServerConfig { sc := inMemory(srv); sc.OnToolError = ToolErrorReturn; return sc }(),
	}})
	set := c.ListTools(ctxT(t))

	_, err := executeJSON(t, set["thrower_fail"], `{}`)
	var me *mastra.Error
	if !errors.As(err, &me) {
		t.Fatalf("err = %#v, want a *mastra.Error", err)
	}
	want := &mastra.Error{ID: IDToolExecutionFailed, Domain: mastra.DomainMCP, Category: mastra.CategoryThirdParty,
		Message: "boom: the database is down\ntry later", Details: map[string]any{"toolName": "fail", "serverName": "thrower"}}
	if diff := cmp.Diff(want, me); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}

	res, err := executeJSON(t, set["returner_fail"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	env, ok := res.Output.(*mcp.CallToolResult)
	if !ok || !env.IsError {
		t.Fatalf("output = %#v, want the isError envelope", res.Output)
	}
	if got := toolErrorText(nil); got != "MCP tool execution failed" {
		t.Errorf("fallback text = %q", got)
	}
}

func TestStructuredOutput(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{"m": inMemory(newTestServer())}})
	set := c.ListTools(ctxT(t))
	ctx := ctxT(t)

	res, err := executeJSON(t, set["m_weather"], `{"location":"Oslo"}`)
	if err != nil {
		t.Fatal(err)
	}
	sr, ok := res.Output.(*StructuredResult)
	if !ok {
		t.Fatalf("output = %T, want *StructuredResult", res.Output)
	}
	if diff := cmp.Diff(map[string]any{"temperature": 21.5, "conditions": "sunny in Oslo"}, sr.Value); diff != "" {
		t.Errorf("value (-want +got):\n%s", diff)
	}
	raw, _ := res.JSON()
	if string(raw) != `{"conditions":"sunny in Oslo","temperature":21.5}` {
		t.Errorf("JSON = %s", raw)
	}
	mo, err := set["m_weather"].ModelOutput(ctx, "m_weather", res.Output, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mo.Type != "text" || mo.Value != sr.Content[0].(*mcp.TextContent).Text || !strings.Contains(mo.Value.(string), `"conditions":"sunny in Oslo"`) {
		t.Errorf("model output = %+v, want the text content", mo)
	}

	// No text content: the model gets the structured value as JSON.
	res, err = executeJSON(t, set["m_silent_weather"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	mo, err = set["m_silent_weather"].ModelOutput(ctx, "m_silent_weather", res.Output, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mo.Type != "json" || !cmp.Equal(mo.Value, map[string]any{"temperature": 3.0}) {
		t.Errorf("model output = %+v, want the structured value as json", mo)
	}
	// A stored result (decoded JSON, no content) maps to JSON too.
	mo, _ = set["m_silent_weather"].ModelOutput(ctx, "m_silent_weather", map[string]any{"temperature": 3.0}, nil)
	if mo.Type != "json" {
		t.Errorf("model output of a stored result = %+v", mo)
	}

	// Structured content that does not match the output schema.
	res, err = executeJSON(t, set["m_bad_weather"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil {
		t.Fatalf("output = %#v, want a validation error", res.Output)
	}
	wantMsg := "Tool output validation failed for bad_weather. The tool returned invalid output:\n" +
		"- temperature: Invalid input: expected number, received string\n\n" +
		"Returned output: {\n  \"temperature\": \"hot\"\n}"
	if ve.Message != wantMsg {
		t.Errorf("message:\n%s\nwant:\n%s", ve.Message, wantMsg)
	}
	raw, _ = res.JSON()
	if !strings.Contains(string(raw), `"validationErrors":{"errors":[],"fields":{"temperature":{"errors":["Invalid input: expected number, received string"],"fields":{}}}}`) {
		t.Errorf("JSON = %s", raw)
	}
	if mo, _ := set["m_bad_weather"].ModelOutput(ctx, "", res.Output, nil); mo != nil {
		t.Errorf("a validation error is not mapped, got %+v", mo)
	}
}

func TestApprovalSettings(t *testing.T) {
	srv := newTestServer()
	var seen []ApprovalRequest
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"open": inMemory(srv),
		"all":  func() ServerConfig { sc := inMemory(srv); sc.RequireToolApproval = true; return sc }(),
		"policy": func() ServerConfig {
			sc := inMemory(srv)
			sc.ToolApproval = func(_ context.Context, req ApprovalRequest) (bool, error) {
				seen = append(seen, req)
				if req.Annotations == nil {
					return true, nil // no hints: assume the worst
				}
				if req.Annotations.ReadOnlyHint {
					return false, nil
				}
				return req.Annotations.DestructiveHint == nil || *req.Annotations.DestructiveHint, nil
			}
			return sc
		}(),
	}})
	set := c.ListTools(ctxT(t))
	ctx := ctxT(t)
	rc := tools.NewRequestContext(map[string]any{"user": "ada"})

	if set["open_add"].RequireApproval() || set["open_add"].HasApprovalFunc() {
		t.Error("open server's tool requires approval")
	}
	if !set["all_add"].RequireApproval() || set["all_add"].HasApprovalFunc() {
		t.Error("all server's tool should require approval statically")
	}
	for _, tt := range []struct {
		tool string
		args any
		want bool
	}{
		{"policy_add", map[string]any{"a": 1.0, "b": 2.0}, false},
		{"policy_fail", map[string]any{}, true},
		{"policy_hang", map[string]any{}, true},
	} {
		got, err := set[tt.tool].NeedsApproval(ctx, tt.args, rc)
		if err != nil || got != tt.want {
			t.Errorf("%s: NeedsApproval = %v, %v; want %v", tt.tool, got, err, tt.want)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("policy called %d times", len(seen))
	}
	first := seen[0]
	if first.ToolName != "add" || !cmp.Equal(first.Args, map[string]any{"a": 1.0, "b": 2.0}) || first.RequestContext != rc {
		t.Errorf("request = %+v", first)
	}
	if first.Annotations == nil || !first.Annotations.ReadOnlyHint || first.Annotations.Title != "Add" {
		t.Errorf("annotations = %+v", first.Annotations)
	}
	if !set["policy_add"].RequireApproval() || !set["policy_add"].HasApprovalFunc() {
		t.Error("policy tools should carry the approval function")
	}
}

func TestServerInstructionsAndGuidance(t *testing.T) {
	srv := newTestServer()
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"fwd": func() ServerConfig { sc := inMemory(srv); sc.ForwardInstructions = true; return sc }(),
		"short": func() ServerConfig {
			sc := inMemory(srv)
			sc.ForwardInstructions = true
			sc.InstructionsMaxLength = 9
			return sc
		}(),
		"quiet": inMemory(srv),
	}})
	if got := c.ServerInstructions(); got["fwd"] != "" {
		t.Errorf("instructions before connecting = %v", got)
	}
	set := c.ListTools(ctxT(t))
	got := c.ServerInstructions()
	if got["fwd"] != "  Use add for sums. Always be brief.  " || got["quiet"] == "" {
		t.Errorf("instructions = %q", got)
	}
	want := "## Guidance from MCP server \"fwd\"\n\nUse add for sums. Always be brief.\n\n" +
		"## Guidance from MCP server \"short\"\n\nUse add f"
	if g := c.Guidance(set); g != want {
		t.Errorf("guidance:\n%q\nwant\n%q", g, want)
	}
	if g := c.Guidance(tools.Set{"x": set["fwd_add"], "y": set["quiet_add"]}); g != "## Guidance from MCP server \"fwd\"\n\nUse add for sums. Always be brief." {
		t.Errorf("guidance for one forwarding server's tool = %q", g)
	}
	if g := c.Guidance(tools.Set{"q": set["quiet_add"]}); g != "" {
		t.Errorf("guidance without forwarding servers = %q", g)
	}
}

func TestResourcesAndPrompts(t *testing.T) {
	toolsOnly := mcp.NewServer(&mcp.Implementation{Name: "tools-only"}, nil)
	mcp.AddTool(toolsOnly, &mcp.Tool{Name: "noop"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return textResult("ok"), nil, nil
	})
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"full": {URL: httpServer(t, newTestServer()).URL},
		"bare": inMemory(toolsOnly),
	}})
	ctx := ctxT(t)

	res, errs := c.ListResources(ctx)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if len(res["full"]) != 1 || res["full"][0].URI != "test://readme" || res["bare"] == nil || len(res["bare"]) != 0 {
		t.Errorf("resources = %v", res)
	}
	tpl, errs := c.ListResourceTemplates(ctx)
	if len(errs) != 0 || len(tpl["full"]) != 1 || tpl["full"][0].URITemplate != "test://items/{id}" {
		t.Errorf("templates = %v, %v", tpl, errs)
	}
	read, err := c.ReadResource(ctx, "full", "test://items/42")
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "item 42" {
		t.Fatalf("ReadResource = %+v, %v", read, err)
	}
	_, err = c.ReadResource(ctx, "full", "test://nothing")
	var me *mastra.Error
	if !errors.As(err, &me) || me.ID != IDReadResourceFailed {
		t.Errorf("reading a missing resource: %v", err)
	}

	prompts, errs := c.ListPrompts(ctx)
	if len(errs) != 0 || len(prompts["full"]) != 1 || prompts["full"][0].Name != "greet" || len(prompts["bare"]) != 0 {
		t.Errorf("prompts = %v, %v", prompts, errs)
	}
	p, err := c.GetPrompt(ctx, "full", "greet", map[string]string{"name": "Ada"})
	if err != nil || p.Messages[0].Content.(*mcp.TextContent).Text != "Hello, Ada!" {
		t.Fatalf("GetPrompt = %+v, %v", p, err)
	}
	if _, err := c.GetPrompt(ctx, "full", "nope", nil); !errors.As(err, &me) || me.ID != IDGetPromptFailed {
		t.Errorf("unknown prompt: %v", err)
	}
	if _, err := c.GetPrompt(ctx, "elsewhere", "greet", nil); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: %v", err)
	}
}

func TestCloseIsFinalAndDisconnectIsNot(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{"m": inMemory(newTestServer())}})
	set := c.ListTools(ctxT(t))
	c.Disconnect()
	if _, err := executeJSON(t, set["m_add"], `{"a":1,"b":1}`); err != nil {
		t.Fatalf("call after Disconnect: %v", err)
	}
	if err := c.ReconnectServer(ctxT(t), "m"); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	if _, err := executeJSON(t, set["m_add"], `{"a":1,"b":1}`); !errors.Is(err, ErrClosed) {
		t.Errorf("call after Close: %v", err)
	}
	if _, errs := c.ListToolsWithErrors(ctxT(t)); !errors.Is(errs["m"], ErrClosed) {
		t.Errorf("listing after Close: %v", errs)
	}
	if _, err := c.ReadResource(ctxT(t), "m", "test://readme"); !errors.Is(err, ErrClosed) {
		t.Errorf("reading after Close: %v", err)
	}
	if err := c.ReconnectServer(ctxT(t), "m"); !errors.Is(err, ErrClosed) {
		t.Errorf("ReconnectServer after Close: %v", err)
	}
}
