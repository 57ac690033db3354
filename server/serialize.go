package server

import (
	"cmp"
	"context"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// draft202012 is the $schema Mastra's serialized tool schemas carry;
// draft07 the one of its workflow info's schemas.
const (
	draft202012 = "https://json-schema.org/draft/2020-12/schema"
	draft07     = "http://json-schema.org/draft-07/schema#"
)

// schemaJSONAs renders s as the JSON Schema Mastra's server shows for a
// Zod schema: "$schema" first, keywords in Zod's order, in the given
// draft: draft202012 (a tool's schemas), or draft07, the draft Mastra's
// workflow info writes its schemas in (its $defs are then definitions,
// and a tuple's prefixItems an items array). Members are written as
// compat.Marshal wrote them (wire.AppendAsIs), strings escaped as
// wire.Marshal escapes them.
func schemaJSONAs(s schema.Schema, draft string) ([]byte, error) {
	js := s.JSONSchema()
	if js == nil {
		return []byte(`{"$schema":"` + draft + `"}`), nil
	}
	raw, err := compat.Marshal(js)
	if err != nil {
		return nil, err
	}
	v, err := wire.Decode(raw, wire.KeepDuplicates)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*wire.Object)
	if !ok { // true/false schema
		return raw, nil
	}
	if !o.Has("$schema") {
		o.Prepend("$schema", draft)
	}
	if draft == draft07 {
		toDraft07(o)
	}
	wire.SortSchema(o)
	return wire.AppendAsIs(nil, o, wire.StringifyGo), nil
}

// toDraft07 rewrites a draft 2020-12 schema's keywords that draft-07
// spells otherwise: $defs (and the references into them) become
// definitions; prefixItems becomes an items array, the items beside it
// additionalItems. It walks subschemas only (a property named $defs
// stays). Values other than an *wire.Object are left alone.
func toDraft07(v any) {
	s, ok := v.(*wire.Object)
	if !ok {
		return
	}
	tuple := s.Has("prefixItems")
	for i, k := range s.Keys {
		wire.EachSubschema(k, s.Vals[i], toDraft07)
		switch {
		case k == "$defs":
			s.Keys[i] = "definitions"
		case k == "$ref":
			if ref, ok := s.Vals[i].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
				s.Vals[i] = "#/definitions/" + strings.TrimPrefix(ref, "#/$defs/")
			}
		case k == "items" && tuple:
			s.Keys[i] = "additionalItems"
		case k == "prefixItems":
			s.Keys[i] = "items"
		}
	}
}

// superjsonSchemaAs is the superjson string of s's JSON Schema in the
// given draft: "{\"json\":{...}}", as a JSON string value.
func superjsonSchemaAs(s schema.Schema, draft string) ([]byte, error) {
	js, err := schemaJSONAs(s, draft)
	if err != nil {
		return nil, err
	}
	return superjsonOf(js), nil
}

// superjsonOf is the superjson string of a JSON text.
func superjsonOf(js []byte) []byte {
	text := make([]byte, 0, len(js)+9)
	text = append(text, `{"json":`...)
	text = append(text, js...)
	text = append(text, '}')
	return wire.AppendString(nil, string(text), wire.StringifyGo)
}

// namedSchema is a schema and the key it is shown under.
type namedSchema struct {
	key string
	s   schema.Schema
}

// newObject starts a JSON object of the server's answers (wire.GoMode).
func newObject() *wire.ObjectWriter { return wire.NewObjectWriter(nil, wire.GoMode) }

// addSchemas adds each schema that is set to o, in order, as its superjson
// string in draft 2020-12 (see superjsonSchemaAs).
func addSchemas(o *wire.ObjectWriter, schemas []namedSchema) error {
	return addSchemasAs(o, schemas, draft202012)
}

// addSchemasAs is addSchemas in the given draft.
func addSchemasAs(o *wire.ObjectWriter, schemas []namedSchema, draft string) error {
	for _, f := range schemas {
		if f.s == nil {
			continue
		}
		b, err := superjsonSchemaAs(f.s, draft)
		if err != nil {
			return err
		}
		o.Raw(f.key, b)
	}
	return nil
}

// serializedTools caches serializeTool's answers: a tool is immutable,
// so its JSON never changes. Keys are weak, and an entry goes when its
// tool is collected (tools made per request by a ToolsFunc come and go).
var serializedTools sync.Map // weak.Pointer[tools.Tool] → []byte

// serializeTool is Mastra's SerializedTool: the tool's plain properties
// with its schemas as superjson strings. The bytes are shared: do not
// modify them.
func serializeTool(t *tools.Tool) ([]byte, error) {
	key := weak.Make(t)
	if b, ok := serializedTools.Load(key); ok {
		return b.([]byte), nil
	}
	b, err := buildSerializedTool(t)
	if err != nil {
		return nil, err
	}
	if _, loaded := serializedTools.LoadOrStore(key, b); !loaded {
		runtime.AddCleanup(t, func(k weak.Pointer[tools.Tool]) { serializedTools.Delete(k) }, key)
	}
	return b, nil
}

func buildSerializedTool(t *tools.Tool) ([]byte, error) {
	o := newObject()
	o.Str("id", t.ID())
	o.Str("description", t.Description())
	if t.Title() != "" {
		o.Str("title", t.Title())
	}
	if err := addSchemas(o, []namedSchema{{"inputSchema", t.InputSchema()}, {"outputSchema", t.OutputSchema()},
		{"requestContextSchema", t.RequestContextSchema()}}); err != nil {
		return nil, err
	}
	o.Bool("requireApproval", t.RequireApproval())
	if st := t.Strict(); st != nil {
		o.Bool("strict", *st)
	}
	if po := t.ProviderOptions(); len(po) > 0 {
		o.Value("providerOptions", po)
	}
	if ex := t.InputExamples(); len(ex) > 0 {
		o.Value("inputExamples", ex)
	}
	if mcp := t.MCP(); mcp != nil {
		o.Value("mcp", mcp)
	}
	if err := o.Err(); err != nil {
		return nil, err
	}
	return o.Bytes(), nil
}

// serializeTools renders key → SerializedTool in keys' order.
func serializeTools(keys []string, set map[string]*tools.Tool) ([]byte, error) {
	o := newObject()
	for _, k := range keys {
		b, err := serializeTool(set[k])
		if err != nil {
			return nil, err
		}
		o.Raw(k, b)
	}
	return o.Bytes(), nil
}

// agentInfo is the JSON of GET /agents/:agentId (withID false) and of
// one entry of GET /agents (withID true), in Mastra's key order. Fields
// gomastra has no counterpart for are given their empty values (skills,
// workspace and browser tools, processors, legacy default options).
func agentInfo(ctx context.Context, a *agent.Agent, rc *tools.RequestContext, withID bool) ([]byte, error) {
	own, err := a.OwnTools(ctx, rc)
	if err != nil {
		return nil, err
	}
	toolsJSON, err := serializeTools(slices.Sorted(maps.Keys(own)), own)
	if err != nil {
		return nil, err
	}
	provider, modelID := "", ""
	if m, err := a.Model(ctx, rc); err == nil && m != nil {
		provider, modelID = m.Provider(), m.ModelID()
	}
	o := newObject()
	if withID {
		o.Str("id", a.ID())
	}
	o.Str("name", a.Name())
	o.Str("description", a.Description())
	o.Str("instructions", a.Instructions())
	subAgents := agentAgentsJSON(a)
	if withID {
		o.Raw("agents", subAgents)
		o.Raw("tools", toolsJSON)
	} else {
		o.Raw("tools", toolsJSON)
		o.Raw("agents", subAgents)
	}
	o.Raw("workflows", agentWorkflowsJSON(a))
	o.Raw("skills", []byte("[]"))
	o.Raw("workspaceTools", []byte("[]"))
	o.Raw("browserTools", []byte("[]"))
	o.Bool("hasBrowser", false)
	o.Raw("inputProcessors", inputProcessorsJSON(a))
	o.Raw("outputProcessors", []byte("[]"))
	o.Str("provider", provider)
	o.Str("modelId", modelID)
	o.Str("modelVersion", "v3")
	o.Bool("supportsMemory", a.Storage() != nil)
	o.Raw("defaultOptions", []byte("{}"))
	o.Raw("defaultGenerateOptionsLegacy", []byte("{}"))
	o.Raw("defaultStreamOptionsLegacy", []byte("{}"))
	o.Str("source", "code")
	if withID {
		o.Bool("hasDraft", false)
	}
	return o.Bytes(), nil
}

// agentAgentsJSON is an agent's "agents": sub-agent key → {id, name}.
func agentAgentsJSON(a *agent.Agent) []byte {
	subs := a.SubAgents()
	o := newObject()
	for _, k := range slices.Sorted(maps.Keys(subs)) {
		o.Raw(k, newObject().Str("id", subs[k].ID()).Str("name", subs[k].Name()).Bytes())
	}
	return o.Bytes()
}

// agentWorkflowsJSON is an agent's "workflows": key → {name, steps: step
// id → {id, description?}} (Mastra lists the top-level steps).
func agentWorkflowsJSON(a *agent.Agent) []byte {
	wfs := a.Workflows()
	o := newObject()
	for _, k := range slices.Sorted(maps.Keys(wfs)) {
		steps := newObject()
		for _, n := range wfs[k].Graph() {
			for _, st := range n.Steps {
				step := newObject().Str("id", st.ID())
				if d := st.Description(); d != "" {
					step.Str("description", d)
				}
				steps.Raw(st.ID(), step.Bytes())
			}
		}
		o.Raw(k, newObject().Str("name", cmp.Or(wfs[k].ID(), "Unnamed workflow")).Raw("steps", steps.Bytes()).Bytes())
	}
	return o.Bytes()
}

// inputProcessorsJSON lists an agent's input processors as Mastra
// does: its processors combined into one processor workflow,
// [{id: "<agentId>-input-processor", name: <the same>}], or [] when it
// has none.
func inputProcessorsJSON(a *agent.Agent) []byte {
	if len(a.Processors()) == 0 {
		return []byte("[]")
	}
	id := a.ID() + "-input-processor"
	return append(append([]byte{'['}, newObject().Str("id", id).Str("name", id).Bytes()...), ']')
}

// Mastra's workflow info writes its schemas in draft-07 (see
// schemaJSONAs); a mapping's pseudo-step takes anything (z.any()), a
// sleep's the empty object (z.object({})).
var (
	anyStepSchema   = superjsonOf([]byte(`{"$schema":"` + draft07 + `"}`))
	emptyStepSchema = superjsonOf([]byte(`{"$schema":"` + draft07 + `","type":"object","properties":{},"additionalProperties":false}`))
)

// stepInfo is one entry of a workflow's steps (all false) or allSteps
// (all true), in Mastra's key order: id, description?, inputSchema,
// outputSchema, resumeSchema?, suspendSchema?, stateSchema?, then in
// allSteps isWorkflow, then component ("WORKFLOW" for a nested
// workflow).
func stepInfo(s *workflows.Step, all bool) ([]byte, error) {
	o := newObject()
	o.Str("id", s.ID())
	if s.Description() != "" {
		o.Str("description", s.Description())
	}
	if err := addSchemasAs(o, []namedSchema{{"inputSchema", s.InputSchema()}, {"outputSchema", s.OutputSchema()},
		{"resumeSchema", s.ResumeSchema()}, {"suspendSchema", s.SuspendSchema()}, {"stateSchema", s.StateSchema()}}, draft07); err != nil {
		return nil, err
	}
	if all {
		o.Bool("isWorkflow", s.Nested() != nil)
	}
	if s.Nested() != nil {
		o.Str("component", "WORKFLOW")
	}
	return o.Bytes(), nil
}

// pseudoStepInfo is the entry of a mapping's or a sleep's step.
func pseudoStepInfo(id string, schema []byte, all bool) []byte {
	o := newObject().Str("id", id).Raw("inputSchema", schema).Raw("outputSchema", schema)
	if all {
		o.Bool("isWorkflow", false)
	}
	return o.Bytes()
}

// workflowSteps collects a workflow's steps (top level, Mastra's
// workflow.steps: its steps, mappings and sleeps) and all steps (nested
// workflows' steps too, keyed "<outer>.<inner>"), in graph order.
func workflowSteps(w *workflows.Workflow, prefix string, top, all *wire.ObjectWriter, seen map[string]bool) error {
	add := func(id string, topEntry, allEntry []byte) {
		if top != nil {
			top.Raw(id, topEntry)
		}
		all.Raw(prefix+id, allEntry)
	}
	for _, n := range w.Graph() {
		switch n.Kind {
		case "mapping", "sleep":
			if seen[prefix+n.ID] {
				continue
			}
			seen[prefix+n.ID] = true
			schema := anyStepSchema
			if n.Kind == "sleep" {
				schema = emptyStepSchema
			}
			add(n.ID, pseudoStepInfo(n.ID, schema, false), pseudoStepInfo(n.ID, schema, true))
			continue
		}
		for _, s := range n.Steps {
			key := prefix + s.ID()
			if seen[key] {
				continue
			}
			seen[key] = true
			topEntry, err := stepInfo(s, false)
			if err != nil {
				return err
			}
			allEntry, err := stepInfo(s, true)
			if err != nil {
				return err
			}
			add(s.ID(), topEntry, allEntry)
			if nested := s.Nested(); nested != nil {
				if err := workflowSteps(nested, key+".", nil, all, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// workflowOptions are Mastra's default workflow options as its info
// shows them (the options that are not functions).
const workflowOptions = `{"validateInputs":true,"emitStepEvents":true}`

// workflowInfo is the JSON of GET /workflows/:workflowId, in Mastra's key
// order: name, description?, origin, steps, allSteps, stepGraph,
// inputSchema, outputSchema, stateSchema?, options, isProcessorWorkflow.
func workflowInfo(w *workflows.Workflow) ([]byte, error) {
	steps, all := newObject(), newObject()
	if err := workflowSteps(w, "", steps, all, map[string]bool{}); err != nil {
		return nil, err
	}
	o := newObject()
	o.Str("name", w.ID())
	if w.Description() != "" {
		o.Str("description", w.Description())
	}
	o.Str("origin", "code")
	o.Raw("steps", steps.Bytes())
	o.Raw("allSteps", all.Bytes())
	o.Raw("stepGraph", w.SerializedStepGraph())
	if err := addSchemasAs(o, []namedSchema{{"inputSchema", w.InputSchema()}, {"outputSchema", w.OutputSchema()},
		{"stateSchema", w.StateSchema()}}, draft07); err != nil {
		return nil, err
	}
	o.Raw("options", []byte(workflowOptions))
	o.Bool("isProcessorWorkflow", false)
	return o.Bytes(), nil
}

// partialWorkflowInfo is a workflow's info with ?partial=true: name,
// description?, stepCount, stepGraph, options, empty steps and allSteps,
// origin (Mastra's partial info, without schemas).
func partialWorkflowInfo(w *workflows.Workflow) []byte {
	count := 0
	seen := map[string]bool{}
	for _, n := range w.Graph() {
		ids := []string{n.ID}
		if n.Kind != "mapping" && n.Kind != "sleep" {
			ids = ids[:0]
			for _, s := range n.Steps {
				ids = append(ids, s.ID())
			}
		}
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				count++
			}
		}
	}
	o := newObject()
	o.Str("name", w.ID())
	if w.Description() != "" {
		o.Str("description", w.Description())
	}
	o.Int("stepCount", count)
	o.Raw("stepGraph", w.SerializedStepGraph())
	o.Raw("options", []byte(workflowOptions))
	o.Raw("steps", []byte("{}"))
	o.Raw("allSteps", []byte("{}"))
	o.Str("origin", "code")
	return o.Bytes()
}
