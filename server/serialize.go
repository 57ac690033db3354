package server

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"weak"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/zodschema"
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

// reorderSchema puts every schema node's keywords in Zod's order.
func reorderSchema(s *ordered) {
	if s == nil || s.kind != 'o' {
		return
	}
	zodschema.SortMembers(s.keys, s.vals)
	for i, k := range s.keys {
		eachSubschema(k, s.vals[i], reorderSchema)
	}
}

// eachSubschema calls f on the schemas v, the value of keyword k, holds.
func eachSubschema(k string, v *ordered, f func(*ordered)) {
	switch zodschema.Holding(k, v.kind == 'o', v.kind == 'a') {
	case zodschema.HoldsMap:
		for _, sub := range v.vals {
			f(sub)
		}
	case zodschema.HoldsList:
		for _, sub := range v.arr {
			f(sub)
		}
	case zodschema.HoldsOne:
		f(v)
	}
}

// schemaJSONAs renders s as the JSON Schema Mastra's server shows for a
// Zod schema: "$schema" first, keywords in Zod's order, in the given
// draft: draft202012 (a tool's schemas), or draft07, the draft Mastra's
// workflow info writes its schemas in (its $defs are then definitions,
// and a tuple's prefixItems an items array).
func schemaJSONAs(s schema.Schema, draft string) ([]byte, error) {
	js := s.JSONSchema()
	if js == nil {
		return []byte(`{"$schema":"` + draft + `"}`), nil
	}
	raw, err := compat.Marshal(js)
	if err != nil {
		return nil, err
	}
	o, err := parseOrdered(raw)
	if err != nil {
		return nil, err
	}
	if o.kind != 'o' { // true/false schema
		return raw, nil
	}
	if o.get("$schema") == nil {
		o.keys = append([]string{"$schema"}, o.keys...)
		o.vals = append([]*ordered{{kind: 's', raw: appendJSString(nil, draft)}}, o.vals...)
	}
	if draft == draft07 {
		toDraft07(o)
	}
	reorderSchema(o)
	return o.appendTo(nil), nil
}

// toDraft07 rewrites a draft 2020-12 schema's keywords that draft-07
// spells otherwise: $defs (and the references into them) become
// definitions; prefixItems becomes an items array, the items beside it
// additionalItems. It walks subschemas only (a property named $defs
// stays).
func toDraft07(s *ordered) {
	if s == nil || s.kind != 'o' {
		return
	}
	tuple := s.get("prefixItems") != nil
	for i, k := range s.keys {
		v := s.vals[i]
		eachSubschema(k, v, toDraft07)
		switch {
		case k == "$defs":
			s.keys[i] = "definitions"
		case k == "$ref" && v.kind == 's':
			if ref, err := strconv.Unquote(string(v.raw)); err == nil && strings.HasPrefix(ref, "#/$defs/") {
				v.raw = appendJSString(nil, "#/definitions/"+strings.TrimPrefix(ref, "#/$defs/"))
			}
		case k == "items" && tuple:
			s.keys[i] = "additionalItems"
		case k == "prefixItems":
			s.keys[i] = "items"
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
	return appendJSString(nil, string(text))
}

// namedSchema is a schema and the key it is shown under.
type namedSchema struct {
	key string
	s   schema.Schema
}

// addSchemas adds each schema that is set to o, in order, as its superjson
// string in draft 2020-12 (see superjsonSchemaAs).
func addSchemas(o *object, schemas []namedSchema) error { return addSchemasAs(o, schemas, draft202012) }

// addSchemasAs is addSchemas in the given draft.
func addSchemasAs(o *object, schemas []namedSchema, draft string) error {
	for _, f := range schemas {
		if f.s == nil {
			continue
		}
		b, err := superjsonSchemaAs(f.s, draft)
		if err != nil {
			return err
		}
		o.raw(f.key, b)
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
	o.str("id", t.ID())
	o.str("description", t.Description())
	if t.Title() != "" {
		o.str("title", t.Title())
	}
	if err := addSchemas(o, []namedSchema{{"inputSchema", t.InputSchema()}, {"outputSchema", t.OutputSchema()},
		{"requestContextSchema", t.RequestContextSchema()}}); err != nil {
		return nil, err
	}
	o.boolean("requireApproval", t.RequireApproval())
	if st := t.Strict(); st != nil {
		o.boolean("strict", *st)
	}
	if po := t.ProviderOptions(); len(po) > 0 {
		if err := o.value("providerOptions", po); err != nil {
			return nil, err
		}
	}
	if ex := t.InputExamples(); len(ex) > 0 {
		if err := o.value("inputExamples", ex); err != nil {
			return nil, err
		}
	}
	if mcp := t.MCP(); mcp != nil {
		if err := o.value("mcp", mcp); err != nil {
			return nil, err
		}
	}
	return o.bytes(), nil
}

// serializeTools renders key → SerializedTool in keys' order.
func serializeTools(keys []string, set map[string]*tools.Tool) ([]byte, error) {
	o := newObject()
	for _, k := range keys {
		b, err := serializeTool(set[k])
		if err != nil {
			return nil, err
		}
		o.raw(k, b)
	}
	return o.bytes(), nil
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
		o.str("id", a.ID())
	}
	o.str("name", a.Name())
	o.str("description", a.Description())
	o.str("instructions", a.Instructions())
	subAgents := agentAgentsJSON(a)
	if withID {
		o.raw("agents", subAgents)
		o.raw("tools", toolsJSON)
	} else {
		o.raw("tools", toolsJSON)
		o.raw("agents", subAgents)
	}
	o.raw("workflows", agentWorkflowsJSON(a))
	o.raw("skills", []byte("[]"))
	o.raw("workspaceTools", []byte("[]"))
	o.raw("browserTools", []byte("[]"))
	o.boolean("hasBrowser", false)
	o.raw("inputProcessors", inputProcessorsJSON(a))
	o.raw("outputProcessors", []byte("[]"))
	o.str("provider", provider)
	o.str("modelId", modelID)
	o.str("modelVersion", "v3")
	o.boolean("supportsMemory", a.Storage() != nil)
	o.raw("defaultOptions", []byte("{}"))
	o.raw("defaultGenerateOptionsLegacy", []byte("{}"))
	o.raw("defaultStreamOptionsLegacy", []byte("{}"))
	o.str("source", "code")
	if withID {
		o.boolean("hasDraft", false)
	}
	return o.bytes(), nil
}

// agentAgentsJSON is an agent's "agents": sub-agent key → {id, name}.
func agentAgentsJSON(a *agent.Agent) []byte {
	subs := a.SubAgents()
	o := newObject()
	for _, k := range slices.Sorted(maps.Keys(subs)) {
		o.raw(k, newObject().str("id", subs[k].ID()).str("name", subs[k].Name()).bytes())
	}
	return o.bytes()
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
				step := newObject().str("id", st.ID())
				if d := st.Description(); d != "" {
					step.str("description", d)
				}
				steps.raw(st.ID(), step.bytes())
			}
		}
		o.raw(k, newObject().str("name", cmp.Or(wfs[k].ID(), "Unnamed workflow")).raw("steps", steps.bytes()).bytes())
	}
	return o.bytes()
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
	return append(append([]byte{'['}, newObject().str("id", id).str("name", id).bytes()...), ']')
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
	o.str("id", s.ID())
	if s.Description() != "" {
		o.str("description", s.Description())
	}
	if err := addSchemasAs(o, []namedSchema{{"inputSchema", s.InputSchema()}, {"outputSchema", s.OutputSchema()},
		{"resumeSchema", s.ResumeSchema()}, {"suspendSchema", s.SuspendSchema()}, {"stateSchema", s.StateSchema()}}, draft07); err != nil {
		return nil, err
	}
	if all {
		o.boolean("isWorkflow", s.Nested() != nil)
	}
	if s.Nested() != nil {
		o.str("component", "WORKFLOW")
	}
	return o.bytes(), nil
}

// pseudoStepInfo is the entry of a mapping's or a sleep's step.
func pseudoStepInfo(id string, schema []byte, all bool) []byte {
	o := newObject().str("id", id).raw("inputSchema", schema).raw("outputSchema", schema)
	if all {
		o.boolean("isWorkflow", false)
	}
	return o.bytes()
}

// workflowSteps collects a workflow's steps (top level, Mastra's
// workflow.steps: its steps, mappings and sleeps) and all steps (nested
// workflows' steps too, keyed "<outer>.<inner>"), in graph order.
func workflowSteps(w *workflows.Workflow, prefix string, top *object, all *object, seen map[string]bool) error {
	add := func(id string, topEntry, allEntry []byte) {
		if top != nil {
			top.raw(id, topEntry)
		}
		all.raw(prefix+id, allEntry)
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
	o.str("name", w.ID())
	if w.Description() != "" {
		o.str("description", w.Description())
	}
	o.str("origin", "code")
	o.raw("steps", steps.bytes())
	o.raw("allSteps", all.bytes())
	o.raw("stepGraph", w.SerializedStepGraph())
	if err := addSchemasAs(o, []namedSchema{{"inputSchema", w.InputSchema()}, {"outputSchema", w.OutputSchema()},
		{"stateSchema", w.StateSchema()}}, draft07); err != nil {
		return nil, err
	}
	o.raw("options", []byte(workflowOptions))
	o.boolean("isProcessorWorkflow", false)
	return o.bytes(), nil
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
	o.str("name", w.ID())
	if w.Description() != "" {
		o.str("description", w.Description())
	}
	o.raw("stepCount", []byte(jsonInt(count)))
	o.raw("stepGraph", w.SerializedStepGraph())
	o.raw("options", []byte(workflowOptions))
	o.raw("steps", []byte("{}"))
	o.raw("allSteps", []byte("{}"))
	o.str("origin", "code")
	return o.bytes()
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
