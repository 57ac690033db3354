package mastra

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// Config configures a [Mastra] registry: Mastra's `new Mastra({...})`
// options: its tools, workflows, agents and logger. Storage belongs to
// the agents and workflows that use it (agent.Config.Storage,
// workflows.Config.Storage) and server options to package server. More
// fields may come, so construct Config with field names, never
// positionally.
type Config struct {
	// Tools are registered with AddTool(tool, key) in sorted key order
	// (Go maps have no order, unlike the JavaScript object literal Mastra
	// walks). Nil entries are skipped. An empty key falls back to the
	// tool's ID. The same type as agent.Config.Tools.
	Tools tools.Set
	// Workflows are registered with AddWorkflow under their keys (nil
	// entries skipped); they must be committed.
	Workflows map[string]*workflows.Workflow
	// Agents are registered with AddAgent under their keys (nil entries
	// skipped).
	Agents map[string]*agent.Agent
	// Logger is the registry's logger; nil means slog.Default().
	Logger *slog.Logger
	// BackgroundTasks, when set, enables background tasks: New starts a
	// manager of this configuration for the registry's agents, as
	// EnableBackgroundTasks does, and panics when it cannot (a
	// configuration without a Store).
	BackgroundTasks *bgtasks.Config
}

// Mastra is the registry: the Go counterpart of Mastra's `Mastra` class.
// Tools are kept under registry keys; the order of keys is the order
// in which a JavaScript object would list them (see [Mastra.ToolKeys]).
//
// A *Mastra is safe for concurrent use. The zero value is an empty
// registry that logs to slog.Default().
type Mastra struct {
	logger *slog.Logger

	mu sync.RWMutex
	// tools are the tools, their keys in JavaScript property order;
	// workflows and agents are the other sections.
	tools     keyed[*tools.Tool]
	workflows keyed[*workflows.Workflow]
	agents    keyed[*agent.Agent]
	// background is the background-task manager, nil until enabled.
	background *bgtasks.Manager
}

var _ tools.Registry = (*Mastra)(nil)

// New returns a registry holding cfg's tools, workflows and agents, in
// that order, each section in sorted key order (see [Config]). Nil
// entries are skipped. An entry that AddTool, AddWorkflow or AddAgent
// refuses (a key that falls back to a taken id, a workflow not
// committed) is skipped and the error logged at level Warn on the
// registry's logger; call the Add methods to handle such errors.
func New(cfg Config) *Mastra {
	m := &Mastra{logger: cfg.Logger}
	for _, key := range slices.Sorted(maps.Keys(cfg.Tools)) {
		if t := cfg.Tools[key]; t != nil {
			m.logRefused(m.AddTool(t, key))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(cfg.Workflows)) {
		if w := cfg.Workflows[key]; w != nil {
			m.logRefused(m.AddWorkflow(w, key))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(cfg.Agents)) {
		if a := cfg.Agents[key]; a != nil {
			m.logRefused(m.AddAgent(a, key))
		}
	}
	if cfg.BackgroundTasks != nil {
		if _, err := m.EnableBackgroundTasks(context.Background(), *cfg.BackgroundTasks); err != nil {
			panic(err)
		}
	}
	return m
}

// logRefused logs an entry of Config that New could not register.
func (m *Mastra) logRefused(err error) {
	if err != nil {
		m.Logger().Warn("mastra: entry not registered", "error", err)
	}
}

// keyed is a registry section: entries by key, and the keys in Mastra's
// order. Its methods are called with Mastra.mu held.
type keyed[T any] struct {
	items map[string]T
	keys  []string
}

// add registers v, a <kind>, under key; the first entry under a key
// wins, a later one is ErrDuplicateKey.
func (k *keyed[T]) add(kind, key string, v T) error {
	if key == "" {
		return fmt.Errorf("%w: %s", ErrEmptyKey, kind)
	}
	if _, ok := k.items[key]; ok {
		return fmt.Errorf("%w: %s %q", ErrDuplicateKey, kind, key)
	}
	if k.items == nil {
		k.items = map[string]T{}
	}
	k.items[key] = v
	k.keys = insertKey(k.keys, key)
	return nil
}

// get returns the entry under key, or the not-found error: id, text
// "<text prefix><key> not found", details {status: 404, <detail>: key,
// <plural>: the keys}.
func (k *keyed[T]) get(key, id, textPrefix, detail, plural string) (T, error) {
	if v, ok := k.items[key]; ok {
		return v, nil
	}
	var zero T
	return zero, &Error{
		ID: id, Domain: DomainMastra, Category: CategoryUser,
		Message: textPrefix + key + " not found",
		Details: map[string]any{"status": 404, detail: key, plural: strings.Join(k.keys, ", ")},
	}
}

func (k *keyed[T]) list() map[string]T {
	out := make(map[string]T, len(k.items))
	maps.Copy(out, k.items)
	return out
}

// AddAgent registers a under key (its ID when key is empty) and makes
// m the registry a's tools reach as ctx.Mastra() ([agent.Agent.UseRegistry]).
// A nil agent is [ErrNilAgent]; a key already taken is [ErrDuplicateKey]
// and leaves the first agent in place (and a's registry unchanged).
func (m *Mastra) AddAgent(a *agent.Agent, key string) error {
	if a == nil {
		return ErrNilAgent
	}
	key = cmp.Or(key, a.ID())
	m.mu.Lock()
	err := m.agents.add("agent", key, a)
	bg := m.background
	m.mu.Unlock()
	if err == nil {
		a.UseRegistry(m)
		if bg != nil {
			a.UseBackgroundTasks(bg)
		}
	}
	return err
}

// GetAgent returns the agent registered under key. When there is none it
// returns an *Error matching [ErrAgentNotFound]: ID [IDGetAgentNotFound],
// text "Agent with name <key> not found", details {"status": 404,
// "agentName": key, "agents": the keys}.
func (m *Mastra) GetAgent(key string) (*agent.Agent, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.agents.get(key, IDGetAgentNotFound, "Agent with name ", "agentName", "agents")
}

// ListAgents returns a copy of the registered agents by key.
func (m *Mastra) ListAgents() map[string]*agent.Agent {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.agents.list()
}

// AgentKeys returns the agents' keys in Mastra's order.
func (m *Mastra) AgentKeys() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return append([]string(nil), m.agents.keys...)
}

// AddWorkflow registers w under key (its ID when key is empty) and
// makes m the registry w's steps reach as ctx.Mastra()
// ([workflows.Workflow.UseRegistry]). A nil workflow is [ErrNilWorkflow],
// one whose Commit has not succeeded [ErrWorkflowNotCommitted]; a key
// already taken is [ErrDuplicateKey] and leaves the first workflow in
// place.
func (m *Mastra) AddWorkflow(w *workflows.Workflow, key string) error {
	if w == nil {
		return ErrNilWorkflow
	}
	if !w.Committed() {
		return fmt.Errorf("%w: %s", ErrWorkflowNotCommitted, cmp.Or(key, w.ID()))
	}
	key = cmp.Or(key, w.ID())
	m.mu.Lock()
	err := m.workflows.add("workflow", key, w)
	m.mu.Unlock()
	if err == nil {
		w.UseRegistry(m)
	}
	return err
}

// GetWorkflow returns the workflow registered under key. When there is
// none it returns an *Error matching [ErrWorkflowNotFound]: ID
// [IDGetWorkflowNotFound], text "Workflow with ID <key> not found",
// details {"status": 404, "workflowId": key, "workflows": the keys}.
func (m *Mastra) GetWorkflow(key string) (*workflows.Workflow, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.workflows.get(key, IDGetWorkflowNotFound, "Workflow with ID ", "workflowId", "workflows")
}

// ListWorkflows returns a copy of the registered workflows by key.
func (m *Mastra) ListWorkflows() map[string]*workflows.Workflow {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.workflows.list()
}

// WorkflowKeys returns the workflows' keys in Mastra's order.
func (m *Mastra) WorkflowKeys() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return append([]string(nil), m.workflows.keys...)
}

// Logger returns the registry's logger, never nil.
func (m *Mastra) Logger() *slog.Logger {
	if m.logger != nil {
		return m.logger
	}
	return slog.Default()
}

// AddTool registers tool under key, or under tool.ID() when key is empty.
// A nil tool is an *Error with ID [IDAddToolUndefined] (matching
// [ErrNilTool]), Mastra's text and details {"status": 400, "key": key}
// (key only when not empty). An empty key with an empty tool id is
// [ErrEmptyKey]. A key already taken is [ErrDuplicateKey]: the first
// registration stays, as in Mastra (which skips the later one silently).
func (m *Mastra) AddTool(tool *tools.Tool, key string) error {
	if tool == nil {
		return nilToolError(key)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tools.add("tool", cmp.Or(key, tool.ID()), tool)
}

// RemoveTool unregisters the tool under key and reports whether there was
// one.
func (m *Mastra) RemoveTool(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tools.items[key]; !ok {
		return false
	}
	delete(m.tools.items, key)
	m.tools.keys = slices.DeleteFunc(m.tools.keys, func(k string) bool { return k == key })
	return true
}

// GetTool returns the tool registered under the key name. When there is
// none it returns an *Error matching [ErrToolNotFound]: ID
// [IDGetToolByNameNotFound], text "Tool with name <name> not found",
// details {"status": 404, "toolName": name, "tools": "<keys joined by ", ">"}.
func (m *Mastra) GetTool(name string) (*tools.Tool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if t, ok := m.tools.items[name]; ok {
		return t, nil
	}
	return nil, m.notFound(IDGetToolByNameNotFound, "name", "toolName", name)
}

// GetToolByID returns the first tool, in [Mastra.ToolKeys] order, whose
// ID() is id; failing that, the tool registered under the key id;
// failing that, the first of the agents' static tools whose ID() is id
// (agents in [Mastra.AgentKeys] order, as Mastra registers an agent's
// tools under their ids). When there is none it returns an *Error matching [ErrToolNotFound]: ID
// [IDGetToolByIDNotFound], text "Tool with id <id> not found", details
// {"status": 404, "toolId": id, "tools": "<keys joined by ", ">"}.
func (m *Mastra) GetToolByID(id string) (*tools.Tool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, k := range m.tools.keys {
		if t := m.tools.items[k]; t.ID() == id {
			return t, nil
		}
	}
	if t, ok := m.tools.items[id]; ok {
		return t, nil
	}
	if t := m.agentToolByID(id); t != nil {
		return t, nil
	}
	return nil, m.notFound(IDGetToolByIDNotFound, "id", "toolId", id)
}

// notFound is the error of a failed tool lookup: "Tool with <by> <value>
// not found", details {status: 404, <detail>: value, tools: the keys}.
// The caller holds m.mu.
func (m *Mastra) notFound(id, by, detail, value string) *Error {
	return &Error{
		ID:       id,
		Domain:   DomainMastra,
		Category: CategoryUser,
		Message:  "Tool with " + by + " " + value + " not found",
		Details: map[string]any{
			"status": 404,
			detail:   value,
			"tools":  strings.Join(m.tools.keys, ", "),
		},
	}
}

// ListTools returns a copy of the registry, key to tool. Changing the map
// does not change the registry. An empty registry gives an empty, non-nil
// map: Mastra's listTools() returns {} then (its type says `| undefined`,
// but the registry object always exists), which encodes as JSON {} here
// too.
func (m *Mastra) ListTools() map[string]*tools.Tool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.tools.list()
}

// ToolKeys returns the registry keys in the order Mastra lists them
// (Object.keys): keys that are array indices ("0", "1", … up to
// 4294967294, no leading zeros) first in ascending numeric order, then
// every other key in insertion order. A key that is removed and added
// again moves to the end. The slice is a fresh copy, empty (not nil) when
// the registry is. The "tools" detail of the not-found errors and
// GetToolByID's search use this order.
func (m *Mastra) ToolKeys() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return append(make([]string, 0, len(m.tools.keys)), m.tools.keys...)
}

// insertKey adds a new key to keys, kept in JavaScript property order.
func insertKey(keys []string, key string) []string {
	n, ok := arrayIndex(key)
	if !ok {
		return append(keys, key)
	}
	i := 0
	for ; i < len(keys); i++ {
		k, isIdx := arrayIndex(keys[i])
		if !isIdx || k > n {
			break
		}
	}
	return slices.Insert(keys, i, key)
}

// arrayIndex reports whether s is a JavaScript array index: the canonical
// decimal form of an integer in [0, 2^32-2]. Such property keys are listed
// before all others by Object.keys, in numeric order.
func arrayIndex(s string) (uint32, bool) {
	if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > 1<<32-2 {
		return 0, false
	}
	return uint32(n), true
}

func nilToolError(key string) *Error {
	details := map[string]any{"status": 400}
	if key != "" {
		details["key"] = key
	}
	return &Error{
		ID:       IDAddToolUndefined,
		Domain:   DomainMastra,
		Category: CategoryUser,
		Message: "Cannot add tool: tool is null. This may occur if config was spread " +
			"({ ...config }) and the original object had getters or non-enumerable properties.",
		Details: details,
	}
}
