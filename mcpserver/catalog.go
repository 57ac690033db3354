package mcpserver

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// exposedTool is one tool the server offers: the runtime tool under its
// MCP name, with the wire description computed once.
type exposedTool struct {
	name string
	tool *tools.Tool
	// input and output are the advertised JSON Schemas; output is nil
	// when results are plain text (no output schema, or one that is not
	// an object schema).
	input, output json.RawMessage
	meta          map[string]any
	annotations   *mcp.ToolAnnotations
	// toolType is "agent" or "workflow" for ask_/run_ tools ("" for
	// tools).
	toolType string
	// resumeForm is the tool's resume schema as an input-request form
	// (nil when the tool has none).
	resumeForm json.RawMessage
}

// buildCatalog turns cfg's tools, agents and workflows into the exposed
// tools, in exposure order, as Mastra's MCPServer exposes them: tools
// under their keys (client tools skipped with a warning), agents as
// ask_<key>, workflows as run_<key>, and on a name clash the earlier
// entry wins (warning).
func buildCatalog(cfg *Config, log *slog.Logger) ([]*exposedTool, []Skipped, error) {
	var out []*exposedTool
	var skipped []Skipped
	taken := map[string]bool{}
	for _, key := range ordered(slices.Collect(maps.Keys(cfg.Tools)), cfg.Order.Tools) {
		t := cfg.Tools[key]
		if t == nil || t.IsClientTool() {
			log.Warn("Tool has no execute function, skipping", "tool", key)
			continue
		}
		e, err := exposeTool(key, t)
		if err != nil {
			if skip(cfg, log, &skipped, key, err) {
				continue
			}
			return nil, nil, err
		}
		out = append(out, e)
		taken[key] = true
	}
	for _, key := range ordered(slices.Collect(maps.Keys(cfg.Agents)), cfg.Order.Agents) {
		a := cfg.Agents[key]
		if a == nil {
			return nil, nil, configError("agent %q is nil", key)
		}
		name := "ask_" + key
		t, err := askTool(name, key, a)
		if err != nil {
			if skip(cfg, log, &skipped, name, err) {
				continue
			}
			return nil, nil, err
		}
		if taken[name] {
			log.Warn(fmt.Sprintf("Tool '%s' already exists; agent '%s' is not exposed.", name, key))
			continue
		}
		e, err := exposeTool(name, t)
		if err != nil {
			return nil, nil, err
		}
		e.input = askInputJSON
		out = append(out, e)
		taken[name] = true
	}
	for _, key := range ordered(slices.Collect(maps.Keys(cfg.Workflows)), cfg.Order.Workflows) {
		w := cfg.Workflows[key]
		if w == nil {
			return nil, nil, configError("workflow %q is nil", key)
		}
		name := "run_" + key
		t, err := runTool(name, key, w)
		if err != nil {
			if skip(cfg, log, &skipped, name, err) {
				continue
			}
			return nil, nil, err
		}
		if taken[name] {
			log.Warn(fmt.Sprintf("Tool '%s' already exists; workflow '%s' is not exposed.", name, key))
			continue
		}
		e, err := exposeTool(name, t)
		if err != nil {
			return nil, nil, err
		}
		if e.input, err = renderInputSchema(name, t, draft07); err != nil {
			return nil, nil, err
		}
		out = append(out, e)
		taken[name] = true
	}
	log.Debug(fmt.Sprintf("%d tools registered", len(out)))
	return out, skipped, nil
}

// Skipped is a tool, agent or workflow a server with
// Config.SkipUnservable left out: its MCP tool name and why.
type Skipped struct {
	Name   string
	Reason error
}

// skip tells whether an entry that cannot be exposed is skipped
// (Config.SkipUnservable), and records it in skipped when it is.
func skip(cfg *Config, log *slog.Logger, skipped *[]Skipped, name string, err error) bool {
	if !cfg.SkipUnservable {
		return false
	}
	log.Debug("mcpserver: not exposed", "tool", name, "err", err)
	*skipped = append(*skipped, Skipped{Name: name, Reason: err})
	return true
}

// exposeTool describes t as the MCP tool name.
func exposeTool(name string, t *tools.Tool) (*exposedTool, error) {
	e := &exposedTool{name: name, tool: t}
	var err error
	if e.input, err = renderInputSchema(name, t, draft202012); err != nil {
		return nil, err
	}
	if out, err := renderSchema(t.OutputSchema(), draft202012); err != nil {
		return nil, fmt.Errorf("mcpserver: tool %q: output schema: %w", name, err)
	} else if schemaType(out) == "object" {
		e.output = out
	}
	if rs := t.ResumeSchema(); rs != nil {
		if e.resumeForm, err = resumeFormOf(name, rs); err != nil {
			return nil, err
		}
	}
	if m := t.MCP(); m != nil {
		e.toolType = m.ToolType
		if a := m.Annotations; a != nil {
			e.annotations = &mcp.ToolAnnotations{
				Title: a.Title, DestructiveHint: a.DestructiveHint, OpenWorldHint: a.OpenWorldHint,
				ReadOnlyHint: a.ReadOnlyHint != nil && *a.ReadOnlyHint, IdempotentHint: a.IdempotentHint != nil && *a.IdempotentHint,
			}
		}
		if len(m.Meta) > 0 {
			e.meta = maps.Clone(m.Meta)
		}
	}
	if strict := t.Strict(); strict != nil {
		e.meta = withStrictMeta(e.meta, *strict)
	}
	return e, nil
}

// renderInputSchema is t's advertised input schema: an open empty object
// for a tool without one; otherwise it must be an object schema.
func renderInputSchema(name string, t *tools.Tool, dialect string) (json.RawMessage, error) {
	in, err := renderSchema(t.InputSchema(), dialect)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: tool %q: input schema: %w", name, err)
	}
	if in == nil {
		return emptyObjectSchema, nil
	}
	if schemaType(in) != "object" {
		return nil, configError("tool '%s' does not describe a valid MCP tool (input schemas must be objects)", name)
	}
	return in, nil
}

// withStrictMeta adds Mastra's {"mastra": {"strict": strict}} to a tool's
// _meta, keeping what the mastra entry already holds.
func withStrictMeta(meta map[string]any, strict bool) map[string]any {
	out := maps.Clone(meta)
	if out == nil {
		out = map[string]any{}
	}
	m, _ := out["mastra"].(map[string]any)
	m = maps.Clone(m)
	if m == nil {
		m = map[string]any{}
	}
	m["strict"] = strict
	out["mastra"] = m
	return out
}

// schemaType is a rendered schema's "type" when it is a string.
func schemaType(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var probe struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return ""
	}
	s, _ := probe.Type.(string)
	return s
}

// ordered lists keys: those in order first (when present), then the rest
// sorted.
func ordered(keys, order []string) []string {
	present := make(map[string]bool, len(keys))
	for _, k := range keys {
		present[k] = true
	}
	out := make([]string, 0, len(keys))
	for _, k := range order {
		if present[k] {
			out = append(out, k)
			delete(present, k)
		}
	}
	return append(out, slices.Sorted(maps.Keys(present))...)
}
