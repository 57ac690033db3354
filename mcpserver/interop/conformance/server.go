// Package conformance builds the MCP server that the official conformance
// suite (@modelcontextprotocol/conformance) drives in its server
// scenarios, out of ordinary gomastra tools served by package mcpserver.
//
// Each scenario expects a tool, resource or prompt of a given name and
// behaviour. Those a Mastra tool or MCPServer can express are here: text
// results, errors, logging and progress through mcpserver.RequestFrom,
// elicitation through suspend and resume (under a key of the tool's
// choosing with mcpserver.Question), JSON Schema 2020-12 input schemas,
// and resources, templates, subscriptions, prompts (one asking for input)
// and completions through mcpserver.Resources, Prompts and Complete
// (features.go). Those it cannot are absent and listed, with the reason,
// in ../conformance-baseline.yml: results that are images, audio or
// embedded resources (a Mastra tool's result is JSON), sampling and roots
// requests, and transport tricks a tool cannot reach (closing its SSE
// stream, returning a JSON-RPC error code).
package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// Options configure New.
type Options struct {
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// HTTP configures the streamable HTTP transport.
	HTTP mcpserver.HTTPOptions
}

// New returns the conformance server.
func New(opts Options) (*mcpserver.Server, error) {
	set := tools.Set{}
	catalog := &promptCatalog{} // features.go
	add := func(name, description string, input string, execute func(ctx tools.Context, in map[string]any) (any, error), resume string) error {
		cfg := tools.DynamicConfig{ID: name, Description: description,
			Execute: func(ctx tools.Context, in any) (any, error) {
				m, _ := in.(map[string]any)
				return execute(ctx, m)
			}}
		var err error
		if input != "" {
			if cfg.InputSchema, err = schema.FromJSON([]byte(input)); err != nil {
				return fmt.Errorf("%s input schema: %w", name, err)
			}
		}
		if resume != "" {
			if cfg.ResumeSchema, err = schema.FromJSON([]byte(resume)); err != nil {
				return fmt.Errorf("%s resume schema: %w", name, err)
			}
		}
		t, err := tools.NewDynamic(cfg)
		if err != nil {
			return err
		}
		set[name] = t
		return nil
	}
	text := func(s string) func(tools.Context, map[string]any) (any, error) {
		return func(tools.Context, map[string]any) (any, error) { return s, nil }
	}
	for _, tc := range []struct {
		name, description, input, resume string
		execute                          func(tools.Context, map[string]any) (any, error)
	}{
		{"test_simple_text", "Tests simple text content response", "", "", text("This is a simple text response for testing.")},
		{"test_error_handling", "Tests error response handling", "", "", func(tools.Context, map[string]any) (any, error) {
			return nil, errors.New("this tool intentionally returns an error for testing")
		}},
		{"test_tool_with_logging", "Tests tool that emits log messages during execution", "", "", logThrice},
		{"test_tool_with_progress", "Tests tool that reports progress notifications", "", "", progressThrice},
		{"test_elicitation", "Tests server-initiated elicitation (user input request)",
			`{"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},"required":["message"]}`,
			`{"type":"object","properties":{"username":{"type":"string","description":"Your preferred username"}},"required":["username"]}`,
			askOnce(func(in map[string]any) string { s, _ := in["message"].(string); return s })},
		{"test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034", "", defaultsForm,
			askOnce(func(map[string]any) string { return "Test defaults for primitives" })},
		{"test_elicitation_sep1330_enums", "Tests elicitation with enum schema improvements per SEP-1330", "", enumsForm,
			askOnce(func(map[string]any) string { return "Test enum schemas" })},
		{"json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)", schema202012, "",
			func(_ tools.Context, in map[string]any) (any, error) {
				b, _ := json.Marshal(in)
				return "JSON Schema 2020-12 tool called with: " + string(b), nil
			}},
		{"test_x_mcp_header", "Tests SEP-2243 Mcp-Param-* server-side validation",
			`{"type":"object","properties":{"region":{"type":"string","description":"mirrored into Mcp-Param-Region","x-mcp-header":"Region"},"level":{"type":"integer","description":"non-mirrored argument"}}}`, "",
			func(_ tools.Context, in map[string]any) (any, error) {
				return fmt.Sprintf("region=%v", orEmpty(in["region"])), nil
			}},
		{"test_streaming_elicitation", "Streams a plain result; the response stream carries no independent requests (SEP-2575)", "", "",
			text("stream observed: result frames only, no top-level requests")},
		{"test_logging_tool", "Attempts to emit a log message, dropped unless the client asked for a log level (SEP-2575)", "", "", logOnce},
		{"test_input_required_result_elicitation", "MRTR (SEP-2322): asks for the caller name", "", nameForm,
			greetByName},
		{"test_input_required_result_request_state", "MRTR (SEP-2322): round-trips requestState alongside an input request", "", okForm,
			confirmed(func(map[string]any) string { return "Please confirm" })},
		{"test_input_required_result_tampered_state", "MRTR (SEP-2322): rejects retries whose requestState fails integrity verification", "", okForm,
			confirmed(func(map[string]any) string { return "Please confirm" })},
		{"test_input_required_result_multi_round", "MRTR (SEP-2322): two input rounds before completing", "", "", twoRounds},
		{"test_input_required_result_capabilities", "MRTR (SEP-2322): only asks what the client can answer", "", nameForm, greetByName},
		{"test_trigger_prompt_change", "Adds a prompt, announcing the changed list (SEP-2575)", "", "", catalog.trigger},
	} {
		if err := add(tc.name, tc.description, tc.input, tc.execute, tc.resume); err != nil {
			return nil, err
		}
	}
	taskOpts, err := addTaskTools(add) // tasks.go
	if err != nil {
		return nil, err
	}
	srv, err := mcpserver.New(mcpserver.Config{
		ID: "conformance", Name: "mcp-conformance-test-server", Version: "1.0.0",
		Description:     "gomastra tools for the MCP conformance suite",
		Tools:           set,
		Resources:       resources(),
		Prompts:         catalog.prompts(),
		Complete:        complete,
		Logger:          opts.Logger,
		RequestStateKey: []byte("gomastra conformance server requestState key"),
		HTTP:            opts.HTTP,
		Tasks:           taskOpts,
	})
	catalog.srv = srv
	return srv, err
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}

func logThrice(ctx tools.Context, _ map[string]any) (any, error) {
	r, ok := mcpserver.RequestFrom(ctx)
	if !ok {
		return nil, errors.New("not called over MCP")
	}
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			time.Sleep(50 * time.Millisecond)
		}
		if err := r.Log(ctx, "info", msg, nil); err != nil {
			return nil, err
		}
	}
	return "Tool with logging executed successfully", nil
}

func logOnce(ctx tools.Context, _ map[string]any) (any, error) {
	if r, ok := mcpserver.RequestFrom(ctx); ok {
		if err := r.Log(ctx, "info", "test_logging_tool executed", nil); err != nil {
			return nil, err
		}
	}
	return "Log attempted; framework gates on _meta.../logLevel.", nil
}

func progressThrice(ctx tools.Context, _ map[string]any) (any, error) {
	r, ok := mcpserver.RequestFrom(ctx)
	if !ok {
		return nil, errors.New("not called over MCP")
	}
	for _, p := range []float64{0, 50, 100} {
		if err := r.Progress(ctx, p, 100, fmt.Sprintf("Completed step %.0f of 100", p)); err != nil {
			return nil, err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Sprint(r.Meta["progressToken"]), nil
}

// askOnce suspends with the message, then reports the answer.
func askOnce(message func(map[string]any) string) func(tools.Context, map[string]any) (any, error) {
	return func(ctx tools.Context, in map[string]any) (any, error) {
		if ctx.ResumeData() == nil {
			return nil, ctx.Suspend(map[string]any{"message": message(in)})
		}
		return "Elicitation result: action=accept, content=" + string(ctx.ResumeData()), nil
	}
}

func confirmed(message func(map[string]any) string) func(tools.Context, map[string]any) (any, error) {
	return func(ctx tools.Context, in map[string]any) (any, error) {
		if ctx.ResumeData() == nil {
			return nil, ctx.Suspend(map[string]any{"message": message(in)})
		}
		return "state-ok: requestState received and confirmation accepted", nil
	}
}

func greetByName(ctx tools.Context, _ map[string]any) (any, error) {
	var answer struct {
		Name string `json:"name"`
	}
	if ctx.ResumeData() == nil {
		return nil, ctx.Suspend(mcpserver.Question{Message: "What is your name?", InputKey: "user_name"})
	}
	if err := json.Unmarshal(ctx.ResumeData(), &answer); err != nil {
		return nil, err
	}
	return "Hello, " + answer.Name + "!", nil
}

// twoRounds asks for a name, then a colour; the first answer travels in
// the second suspension's payload.
func twoRounds(ctx tools.Context, _ map[string]any) (any, error) {
	var asked struct {
		Round int    `json:"round"`
		Name  string `json:"name"`
	}
	var answer struct {
		Name  string `json:"name"`
		Color string `json:"color"`
	}
	if p := ctx.SuspendPayload(); p != nil {
		if err := json.Unmarshal(p, &asked); err != nil {
			return nil, err
		}
	}
	if d := ctx.ResumeData(); d != nil {
		if err := json.Unmarshal(d, &answer); err != nil {
			return nil, err
		}
	}
	switch asked.Round {
	case 0:
		return nil, ctx.Suspend(map[string]any{"round": 1, "message": "Step 1: What is your name?"}, tools.WithResumeSchema(nameForm))
	case 1:
		return nil, ctx.Suspend(map[string]any{"round": 2, "name": answer.Name, "message": "Step 2: What is your favorite color?"},
			tools.WithResumeSchema(`{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`))
	}
	return fmt.Sprintf("Multi-round complete: %s likes %s", asked.Name, answer.Color), nil
}

const (
	nameForm = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	okForm   = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`

	defaultsForm = `{"type":"object","properties":{
		"name":{"type":"string","description":"User name","default":"John Doe"},
		"age":{"type":"integer","description":"User age","default":30},
		"score":{"type":"number","description":"User score","default":95.5},
		"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
		"verified":{"type":"boolean","description":"Verification status","default":true}}}`

	enumsForm = `{"type":"object","properties":{
		"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},
		"titledSingle":{"type":"string","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},
		"legacyEnum":{"type":"string","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},
		"untitledMulti":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","enum":["option1","option2","option3"]}},
		"titledMulti":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","anyOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]}}}}`

	schema202012 = `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
		"properties": {
			"name": {"type": "string"},
			"address": {"$ref": "#/$defs/address"},
			"contactMethod": {"type": "string", "enum": ["phone", "email"]},
			"phone": {"type": "string"},
			"email": {"type": "string"}
		},
		"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
		"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
		"then": {"required": ["phone"]},
		"else": {"required": ["email"]},
		"additionalProperties": false
	}`
)
