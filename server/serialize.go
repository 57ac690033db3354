package server

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"runtime"
	"slices"
	"sort"
	"sync"
	"weak"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// draft202012 is the $schema Mastra's serialized tool schemas carry.
const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// schemaKeyOrder is the order in which Zod 4's toJSONSchema writes the
// keywords of one schema node (the type first, then its type's keywords,
// then metadata). Keywords not listed keep their relative order after the
// listed structural ones and before the metadata.
var schemaKeyOrder = func() map[string]int {
	keys := []string{
		"$schema", "$id", "$ref", "$comment", "type", "const", "enum",
		"minLength", "maxLength", "format", "contentEncoding", "contentMediaType", "pattern",
		"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
		"minItems", "maxItems", "uniqueItems", "prefixItems", "items", "additionalItems",
		"contains", "minContains", "maxContains",
		"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
		"minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
		"anyOf", "oneOf", "allOf", "not", "if", "then", "else",
	}
	m := make(map[string]int, len(keys)+10)
	for i, k := range keys {
		m[k] = i
	}
	unknown := len(keys)
	for i, k := range []string{"default", "title", "description", "examples", "deprecated", "readOnly", "writeOnly", "$defs", "definitions"} {
		m[k] = unknown + 1 + i
	}
	m[""] = unknown // placeholder rank for keywords not listed
	return m
}()

func schemaKeyRank(k string) int {
	if r, ok := schemaKeyOrder[k]; ok {
		return r
	}
	return schemaKeyOrder[""]
}

// subschemaMaps are keywords whose value is an object of schemas;
// subschemaLists those whose value is an array of schemas; subschemaOne
// those whose value is one schema.
var (
	subschemaMaps  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}
	subschemaLists = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "prefixItems": true}
	subschemaOne   = map[string]bool{"items": true, "additionalProperties": true, "additionalItems": true, "contains": true,
		"propertyNames": true, "not": true, "if": true, "then": true, "else": true, "unevaluatedItems": true, "unevaluatedProperties": true}
)

// reorderSchema puts every schema node's keywords in Zod's order.
func reorderSchema(s *ordered) {
	if s == nil || s.kind != 'o' {
		return
	}
	idx := make([]int, len(s.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return schemaKeyRank(s.keys[idx[a]]) < schemaKeyRank(s.keys[idx[b]]) })
	keys := make([]string, len(idx))
	vals := make([]*ordered, len(idx))
	for i, j := range idx {
		keys[i], vals[i] = s.keys[j], s.vals[j]
	}
	s.keys, s.vals = keys, vals
	for i, k := range s.keys {
		v := s.vals[i]
		switch {
		case subschemaMaps[k] && v.kind == 'o':
			for _, sub := range v.vals {
				reorderSchema(sub)
			}
		case subschemaLists[k] && v.kind == 'a':
			for _, sub := range v.arr {
				reorderSchema(sub)
			}
		case k == "items" && v.kind == 'a':
			for _, sub := range v.arr {
				reorderSchema(sub)
			}
		case subschemaOne[k]:
			reorderSchema(v)
		}
	}
}

// schemaJSON renders s as the JSON Schema (draft 2020-12) Mastra's
// server shows for a Zod schema: "$schema" first, keywords in Zod's order.
func schemaJSON(s schema.Schema) ([]byte, error) {
	js := s.JSONSchema()
	if js == nil {
		return []byte(`{"$schema":"` + draft202012 + `"}`), nil
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
		o.vals = append([]*ordered{{kind: 's', raw: appendJSString(nil, draft202012)}}, o.vals...)
	}
	reorderSchema(o)
	return o.appendTo(nil), nil
}

// superjsonSchema is the superjson string of s's JSON Schema:
// "{\"json\":{...}}", as a JSON string value.
func superjsonSchema(s schema.Schema) ([]byte, error) {
	js, err := schemaJSON(s)
	if err != nil {
		return nil, err
	}
	text := make([]byte, 0, len(js)+9)
	text = append(text, `{"json":`...)
	text = append(text, js...)
	text = append(text, '}')
	return appendJSString(nil, string(text)), nil
}

// namedSchema is a schema and the key it is shown under.
type namedSchema struct {
	key string
	s   schema.Schema
}

// addSchemas adds each schema that is set to o, in order, as its superjson
// string (see superjsonSchema).
func addSchemas(o *object, schemas []namedSchema) error {
	for _, f := range schemas {
		if f.s == nil {
			continue
		}
		b, err := superjsonSchema(f.s)
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

// stepInfo is one entry of a workflow's steps / allSteps.
func stepInfo(s *workflows.Step) ([]byte, error) {
	o := newObject()
	o.str("id", s.ID())
	if s.Description() != "" {
		o.str("description", s.Description())
	}
	if err := addSchemas(o, []namedSchema{{"stateSchema", s.StateSchema()}, {"inputSchema", s.InputSchema()}, {"outputSchema", s.OutputSchema()},
		{"resumeSchema", s.ResumeSchema()}, {"suspendSchema", s.SuspendSchema()}}); err != nil {
		return nil, err
	}
	if s.Nested() != nil {
		o.boolean("isWorkflow", true)
	}
	return o.bytes(), nil
}

// workflowSteps collects a workflow's steps (top level) and all steps
// (nested workflows' steps too, keyed "<outer>.<inner>"), in graph order.
func workflowSteps(w *workflows.Workflow, prefix string, top *object, all *object, seen map[string]bool) error {
	for _, n := range w.Graph() {
		for _, s := range n.Steps {
			key := prefix + s.ID()
			if seen[key] {
				continue
			}
			seen[key] = true
			b, err := stepInfo(s)
			if err != nil {
				return err
			}
			if top != nil {
				top.raw(s.ID(), b)
			}
			all.raw(key, b)
			if nested := s.Nested(); nested != nil {
				if err := workflowSteps(nested, key+".", nil, all, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// stepGraph is Mastra's serialized step graph of w.
func stepGraph(w *workflows.Workflow) ([]byte, error) {
	stepJSON := func(s *workflows.Step) ([]byte, error) {
		o := newObject()
		o.str("id", s.ID())
		if s.Description() != "" {
			o.str("description", s.Description())
		}
		if nested := s.Nested(); nested != nil {
			o.str("component", "WORKFLOW")
			g, err := stepGraph(nested)
			if err != nil {
				return nil, err
			}
			o.raw("serializedStepFlow", g)
		}
		return o.bytes(), nil
	}
	entry := func(s *workflows.Step) ([]byte, error) {
		sj, err := stepJSON(s)
		if err != nil {
			return nil, err
		}
		return newObject().str("type", "step").raw("step", sj).bytes(), nil
	}
	out := []byte{'['}
	for i, n := range w.Graph() {
		if i > 0 {
			out = append(out, ',')
		}
		o := newObject().str("type", n.Kind)
		switch n.Kind {
		case "step", "loop", "foreach":
			if len(n.Steps) > 0 {
				sj, err := stepJSON(n.Steps[0])
				if err != nil {
					return nil, err
				}
				o.raw("step", sj)
			}
			if n.Kind == "loop" {
				o.str("loopType", n.LoopType)
			}
			if n.Kind == "foreach" {
				o.raw("opts", newObject().raw("concurrency", []byte(jsonInt(n.Concurrency))).bytes())
			}
		case "parallel", "conditional":
			list := []byte{'['}
			for j, s := range n.Steps {
				if j > 0 {
					list = append(list, ',')
				}
				e, err := entry(s)
				if err != nil {
					return nil, err
				}
				list = append(list, e...)
			}
			o.raw("steps", append(list, ']'))
		case "sleep":
			o.str("id", n.ID)
			o.raw("duration", []byte(jsonInt(int(n.Duration.Milliseconds()))))
		case "mapping":
			o = newObject().str("type", "step").raw("step", newObject().str("id", n.ID).bytes())
		}
		out = append(out, o.bytes()...)
	}
	return append(out, ']'), nil
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// workflowInfo is the JSON of GET /workflows/:workflowId.
func workflowInfo(w *workflows.Workflow) ([]byte, error) {
	steps, all := newObject(), newObject()
	if err := workflowSteps(w, "", steps, all, map[string]bool{}); err != nil {
		return nil, err
	}
	graph, err := stepGraph(w)
	if err != nil {
		return nil, err
	}
	o := newObject()
	o.str("name", w.ID())
	if w.Description() != "" {
		o.str("description", w.Description())
	}
	o.raw("steps", steps.bytes())
	o.raw("allSteps", all.bytes())
	o.raw("stepGraph", graph)
	if err := addSchemas(o, []namedSchema{{"inputSchema", w.InputSchema()}, {"outputSchema", w.OutputSchema()},
		{"stateSchema", w.StateSchema()}}); err != nil {
		return nil, err
	}
	o.raw("options", []byte("{}"))
	return o.bytes(), nil
}
