// Package agent runs Mastra's agent tool loop: the model is called with
// the agent's instructions, the conversation and its tools; the tool calls
// it makes are validated and executed through package tools; their results
// go back to the model; and so on until the model answers without calling
// a tool, a client tool is called, or the step limit is reached. Stream
// yields Mastra's chunks (package stream) as they happen; Generate drains
// the same stream into the final output.
//
// The loop streams text and tool-call chunks (with the synthesised
// tool-call at input-streaming-end), reports validation errors as tool
// results and returned errors, panics, unknown tools and malformed
// arguments as tool-error chunks the model can act on, runs parallel calls
// under ToolCallConcurrency with results in call order, ends on client
// tools with finishReason "tool-calls", honours maxSteps and stop
// conditions, and calls hooks (Config.Hooks, WithHooks) and the tools'
// lifecycle callbacks. Steps, step-finish and finish payloads and
// Generate's Output have Mastra's shapes (read typed through its Calls,
// Results and Waiting; TextStream gives a stream's text). Sub-agents are "agent-<key>"
// tools (Config.Agents, AgentTool) and workflows "workflow-<key>" tools
// (Config.Workflows); structured output (WithStructuredOutput,
// GenerateObject) works together with tools.
//
// A run can wait for a person. A call that needs approval (a tool's
// RequireApproval or NeedsApproval, or the run's WithRequireToolApproval
// or WithToolApprovalFunc) or whose tool calls ctx.Suspend ends the run
// with finish reason "suspended", and Output.Waiting describes the
// waiting call. ApproveToolCall and DeclineToolCall (streaming) or
// ApproveToolCallGenerate and DeclineToolCallGenerate answer an approval;
// ResumeStream or ResumeGenerate runs a suspended call again, from the
// top, with resume data. The run's snapshot
// is kept in Config.Storage, so that another process sharing the storage
// can resume it and a run cut short by a crash can be recovered; without
// Storage, runs resume in this process only. With Storage and
// Config.Memory, WithMemory keeps the conversation in a thread.
//
// The Examples show each of these: streaming, hooks, approval,
// suspension, client tools, sub-agents, workflows as tools and
// structured output.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"regexp"
	"slices"
	"sort"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
	"github.com/gomastra/mastra/workflows"
)

// Config describes an agent.
type Config struct {
	ID          string
	Name        string
	Description string
	// Instructions become the system message.
	Instructions string
	// Model is the model the agent calls; ModelFunc, when set, chooses
	// it per run from the request context instead (Mastra's model as a
	// function).
	Model     model.LanguageModel
	ModelFunc func(ctx context.Context, rc *tools.RequestContext) (model.LanguageModel, error)
	// Tools are the agent's tools; keys are the model-facing names.
	Tools tools.Set
	// Agents are sub-agents, offered to the model as "agent-<key>" tools.
	Agents map[string]*Agent
	// Workflows are offered to the model as "workflow-<key>" tools
	// (workflows.Tool).
	Workflows map[string]*workflows.Workflow
	// ToolsFunc, when set, adds tools chosen per run from the request
	// context (Mastra's tools as a function); they come after Tools.
	ToolsFunc func(ctx context.Context, rc *tools.RequestContext) (tools.Set, error)
	// MaxSteps bounds the model calls of a run (default 5).
	MaxSteps int
	// ToolCallConcurrency bounds parallel tool calls (default 10).
	ToolCallConcurrency int
	// Hooks wrap tool calls; a run's WithHooks overrides them per key.
	Hooks Hooks
	// Storage keeps the agent's resumable runs (suspended, or in progress
	// when a process dies) and, with Memory, its threads. Without it,
	// runs resume only in this process.
	Storage storage.Store
	// Memory, with Storage, keeps conversations by thread (WithMemory).
	Memory *MemoryOptions
	// Processors run before each model call (Mastra's input processors).
	Processors []StepProcessor
	// Signals add their tools (after Tools) and processors (after
	// Processors).
	Signals []Signal
	// Transform is the agent's transform policy for tool payloads shown
	// to people (display) and kept in stored conversations (transcript),
	// never for the model; a run's WithTransform wins over it. See
	// package tools/transform.
	Transform *transform.Policy
	Logger    *slog.Logger
	// Tracer makes the run's spans (default: the global provider's, and
	// none at all when no provider is installed).
	Tracer trace.Tracer
	// Engine carries out the runs' effects: model calls, tool calls,
	// saves (default: LocalEngine, in this process).
	Engine Engine
	// Events keeps each run's event log: every run appends every chunk
	// it yields, in order, and ends the log when it ends (see Observe).
	// Default: Storage when it implements storage.RunEvents (a log that
	// other processes sharing the store can read and abort through),
	// else a log in this process's memory.
	Events storage.RunEvents
	// EventRetention is how long a run's log is kept after the run ends
	// (default 30 s, as Mastra keeps its replay cache; negative: kept
	// until removed by other means). Logs of runs that never ended are
	// removed after a day without appends. The in-process log (no
	// Events, no Storage keeping run events) keeps, within that time,
	// the 100 newest ended logs a reader may come back to (its reader
	// left before the end: Follow, Start, Detach; or Observe read it
	// while it ran) and the 4 newest of the others, dropping the oldest
	// first.
	EventRetention time.Duration
	// Background configures which tools may run as background tasks
	// (see BackgroundTasks); they run only once the agent has a
	// background-task manager (UseBackgroundTasks).
	Background *BackgroundTasks
}

// Agent is an agent. It is safe for concurrent use: runs share nothing
// but the configuration.
type Agent struct {
	cfg        Config
	agentTools tools.Set // agent-<key> tools, built once
	// signalTools and processors are the signals' tools and every
	// processor, in order.
	signalTools tools.Set
	processors  []StepProcessor
	// memoryTool is updateWorkingMemory, when the agent has working
	// memory; offered to the runs that may write their memory.
	memoryTool *tools.Tool
	// recallIndexes are the vector indexes semantic recall has made sure of.
	recallIndexes vectorIndexes
	// local keeps runs when no Storage is configured.
	local    storage.Runs
	registry tools.RegistrySlot // what the agent's tools reach as ctx.Mastra()
	// subThreads serialises delegations to this agent on one sub-thread.
	subThreads threadLocks
	// background is the agent's background-task manager, if any.
	background backgroundSlot
	// log keeps the runs' events; active are the runs executing here;
	// sweep paces the removal of old logs.
	log    eventLog
	active activeRuns
	sweep  sweeper
	// launcher, when set, runs the agent's runs elsewhere.
	launcher launcherSlot
}

// New returns an agent. It reports an error for a missing id or model,
// for tool names that collide once sanitised, and for a workflow in
// Workflows that has not been committed (it could never run).
func New(cfg Config) (*Agent, error) {
	if cfg.ID == "" {
		return nil, errors.New("agent: an agent needs an ID")
	}
	if cfg.Model == nil && cfg.ModelFunc == nil {
		return nil, fmt.Errorf("agent %s: no model", cfg.ID)
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 5
	}
	if cfg.ToolCallConcurrency <= 0 {
		cfg.ToolCallConcurrency = 10
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if _, err := sanitizeTools(cfg.Tools); err != nil {
		return nil, fmt.Errorf("agent %s: %w", cfg.ID, err)
	}
	if err := checkWorkflows(cfg.Workflows); err != nil {
		return nil, fmt.Errorf("agent %s: %w", cfg.ID, err)
	}
	a := &Agent{cfg: cfg, agentTools: tools.Set{}, signalTools: tools.Set{}, processors: append([]StepProcessor(nil), cfg.Processors...), local: storage.NewMemoryRuns(), log: eventLogOf(cfg)}
	for _, sig := range cfg.Signals {
		for k, t := range sig.Tools() {
			a.signalTools[k] = t
		}
		a.processors = append(a.processors, sig.Processors()...)
	}
	for k, sub := range cfg.Agents {
		if sub == nil {
			continue
		}
		a.agentTools["agent-"+k] = AgentTool(k, sub)
	}
	for k, w := range cfg.Workflows {
		if w == nil {
			continue
		}
		a.agentTools["workflow-"+k] = workflows.Tool(k, w)
	}
	if cfg.Memory != nil && cfg.Memory.WorkingMemory != nil {
		t, err := a.newWorkingMemoryTool(cfg.Memory.WorkingMemory)
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", cfg.ID, err)
		}
		a.memoryTool = t
	}
	if cfg.Memory != nil && cfg.Memory.SemanticRecall != nil {
		if err := cfg.Memory.SemanticRecall.check(); err != nil {
			return nil, fmt.Errorf("agent %s: %w", cfg.ID, err)
		}
	}
	return a, nil
}

// checkWorkflows refuses a workflow that has not been committed: its
// tool would fail on every call.
func checkWorkflows(ws map[string]*workflows.Workflow) error {
	keys := slices.Sorted(maps.Keys(ws))
	for _, k := range keys {
		if w := ws[k]; w != nil && !w.Committed() {
			return fmt.Errorf("workflow %q (%s) is not committed: call its Commit before giving it to the agent", k, w.ID())
		}
	}
	return nil
}

// engine is the agent's Engine.
func (a *Agent) engine() Engine {
	if a.cfg.Engine != nil {
		return a.cfg.Engine
	}
	return LocalEngine{}
}

// ID returns the agent's id.
func (a *Agent) ID() string { return a.cfg.ID }

// Name returns the agent's name (its id when it has none).
func (a *Agent) Name() string {
	if a.cfg.Name == "" {
		return a.cfg.ID
	}
	return a.cfg.Name
}

// Description returns the agent's description.
func (a *Agent) Description() string { return a.cfg.Description }

// Instructions returns the agent's instructions.
func (a *Agent) Instructions() string { return a.cfg.Instructions }

// Model returns the agent's model, resolved for rc when it is chosen per
// request (ModelFunc).
func (a *Agent) Model(ctx context.Context, rc *tools.RequestContext) (model.LanguageModel, error) {
	return a.resolveModel(ctx, runOptions{requestContext: rc})
}

// Tools returns the tools a run with request context rc offers, by
// model-facing name: the agent's own, its ToolsFunc's, its signals',
// and its agent-<key> and workflow-<key> tools.
func (a *Agent) Tools(ctx context.Context, rc *tools.RequestContext) (map[string]*tools.Tool, error) {
	if rc == nil {
		rc = tools.NewRequestContext(nil)
	}
	return a.runTools(ctx, runOptions{requestContext: rc})
}

// RunTool returns the tool a run of the agent calls name: one of Tools,
// or the memory's updateWorkingMemory. An engine that runs a run's tool
// calls apart from the run (in another process) finds them so.
func (a *Agent) RunTool(ctx context.Context, rc *tools.RequestContext, name string) (*tools.Tool, error) {
	if name == WorkingMemoryToolName && a.memoryTool != nil {
		return a.memoryTool, nil
	}
	set, err := a.Tools(ctx, rc)
	if err != nil {
		return nil, err
	}
	return set[name], nil
}

// OwnTools returns the tools the agent was configured with (Tools and
// ToolsFunc's, not its sub-agents' and workflows'), by key: what Mastra's
// agent routes list as the agent's tools.
func (a *Agent) OwnTools(ctx context.Context, rc *tools.RequestContext) (map[string]*tools.Tool, error) {
	all, err := a.Tools(ctx, rc)
	if err != nil {
		return nil, err
	}
	for k := range a.agentTools {
		delete(all, k)
	}
	return all, nil
}

// Storage returns the agent's storage, or nil.
func (a *Agent) Storage() storage.Store { return a.cfg.Storage }

// SubAgents returns the agent's sub-agents by key (offered to the model
// as agent-<key>); a copy.
func (a *Agent) SubAgents() map[string]*Agent { return maps.Clone(a.cfg.Agents) }

// Workflows returns the agent's workflows by key (offered to the model
// as workflow-<key>); a copy.
func (a *Agent) Workflows() map[string]*workflows.Workflow { return maps.Clone(a.cfg.Workflows) }

// Processors returns the agent's step processors, in order; a copy.
func (a *Agent) Processors() []StepProcessor { return slices.Clone(a.cfg.Processors) }

var (
	unsafeToolName = regexp.MustCompile(`[^a-zA-Z0-9_-]`)
	validToolName  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,62}$`)
)

// SanitizeToolName makes a record key acceptable to every provider, as
// Mastra's formatTools does: a valid key (a letter or '_' first, then
// letters, digits, '_' and '-', at most 63 characters) is kept; otherwise
// invalid characters become '_', a '_' is prefixed when the first
// character is not a letter or '_', and the result is cut to 63.
func SanitizeToolName(name string) string {
	if validToolName.MatchString(name) {
		return name
	}
	s := unsafeToolName.ReplaceAllString(name, "_")
	if s == "" || !(s[0] == '_' || s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		s = "_" + s
	}
	if len(s) > 63 {
		s = s[:63]
	}
	return s
}

// sanitizeTools maps model-facing names to tools, refusing collisions.
func sanitizeTools(set tools.Set) (map[string]*tools.Tool, error) {
	out := make(map[string]*tools.Tool, len(set))
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if set[k] == nil {
			continue
		}
		name := SanitizeToolName(k)
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("AGENT_TOOL_NAME_COLLISION: Two or more tools resolve to the same name %q (from %q)", name, k)
		}
		out[name] = set[k]
	}
	return out, nil
}

// runOptions are a run's options.
type runOptions struct {
	engine          Engine
	maxSteps        int
	toolChoice      model.ToolChoice
	requestContext  *tools.RequestContext
	instructions    *string
	runID           string
	clientTools     tools.Set
	settings        model.CallSettings
	hooks           Hooks
	stopWhen        []StopCondition
	activeTools     []string
	toolsets        []tools.Set
	prepareStep     func(ctx context.Context, s PrepareStep) (*StepOverrides, error)
	onStepFinish    func(ctx context.Context, step Step)
	onFinish        func(ctx context.Context, out *Output)
	structured      *StructuredOutput
	context         []model.Message
	transform       *transform.Policy
	providerOpts    model.ProviderOptions
	requireApproval bool
	approvalFunc    func(ctx context.Context, req ApprovalRequest) (bool, error)
	readOnly        bool
	toolCallID      string
	autoResume      bool
	threadID        string
	resourceID      string
	untilIdle       time.Duration // WithUntilIdle's maxIdle; 0: off
}

// Option sets a run option.
type Option func(*runOptions)

// WithMaxSteps bounds the model calls of this run.
func WithMaxSteps(n int) Option { return func(o *runOptions) { o.maxSteps = n } }

// WithToolChoice sets the tool choice of this run.
func WithToolChoice(c model.ToolChoice) Option { return func(o *runOptions) { o.toolChoice = c } }

// WithRequestContext passes a request context to the tools.
func WithRequestContext(rc *tools.RequestContext) Option {
	return func(o *runOptions) { o.requestContext = rc }
}

// WithInstructions replaces the agent's instructions for this run.
func WithInstructions(s string) Option { return func(o *runOptions) { o.instructions = &s } }

// WithRunID sets the run id (default: a new one).
func WithRunID(id string) Option { return func(o *runOptions) { o.runID = id } }

// WithClientTools adds tools the client runs: calling one ends the run
// with finishReason "tool-calls".
func WithClientTools(set tools.Set) Option { return func(o *runOptions) { o.clientTools = set } }

// WithContextMessages adds messages the model sees before the input
// (Mastra's context option): background the run should know, which is
// neither the request's input nor its output.
func WithContextMessages(msgs ...model.Message) Option {
	return func(o *runOptions) { o.context = append(o.context, msgs...) }
}

// WithMemory names the run's memory thread and resource. Tools read them
// from the request context (tools.ThreadIDKey, tools.ResourceIDKey),
// which the run sets from here and never from a client; sub-agents get
// threads and resources of their own derived from them.
func WithMemory(threadID, resourceID string) Option {
	return func(o *runOptions) { o.threadID, o.resourceID = threadID, resourceID }
}

// WithProviderOptions passes provider-specific options to every model
// call of the run, keyed by provider name (Mastra's providerOptions, for
// example {"openai": {"reasoningEffort": "low"}}).
func WithProviderOptions(po model.ProviderOptions) Option {
	return func(o *runOptions) { o.providerOpts = po }
}

// WithSettings sets the model call settings.
func WithSettings(s model.CallSettings) Option { return func(o *runOptions) { o.settings = s } }

func (a *Agent) options(opts []Option) runOptions {
	o := runOptions{maxSteps: a.cfg.MaxSteps}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxSteps <= 0 {
		o.maxSteps = a.cfg.MaxSteps
	}
	if o.requestContext == nil {
		o.requestContext = tools.NewRequestContext(nil)
	}
	if o.threadID != "" {
		_ = o.requestContext.Set(tools.ThreadIDKey, o.threadID)
	}
	if o.resourceID != "" {
		_ = o.requestContext.Set(tools.ResourceIDKey, o.resourceID)
	}
	if o.runID == "" {
		o.runID = newID()
	}
	o.hooks = a.cfg.Hooks.merge(o.hooks)
	return o
}

// resolveModel is the run's model: ModelFunc's choice, else Model.
func (a *Agent) resolveModel(ctx context.Context, o runOptions) (model.LanguageModel, error) {
	if a.cfg.ModelFunc == nil {
		return a.cfg.Model, nil
	}
	m, err := a.cfg.ModelFunc(ctx, o.requestContext)
	if err != nil {
		return nil, fmt.Errorf("agent %s: model: %w", a.cfg.ID, err)
	}
	if m == nil {
		return nil, fmt.Errorf("agent %s: the model function returned no model", a.cfg.ID)
	}
	return m, nil
}

// runTools is the tool set of one run: the agent's tools, then client
// tools (a later source wins on a name clash, as Mastra's assembly order).
func (a *Agent) runTools(ctx context.Context, o runOptions) (map[string]*tools.Tool, error) {
	own, err := a.ownTools(ctx, o)
	if err != nil {
		return nil, err
	}
	return a.withClientTools(own, o.clientTools)
}

// ownTools is the run's tools before the request's client tools: Config's,
// the signals', ToolsFunc's and the toolsets', a later source winning.
func (a *Agent) ownTools(ctx context.Context, o runOptions) (tools.Set, error) {
	set := tools.Set{}
	for k, t := range a.cfg.Tools {
		set[k] = t
	}
	for k, t := range a.signalTools {
		set[k] = t
	}
	if a.memoryTool != nil && a.memoryWrites(o) {
		set[WorkingMemoryToolName] = a.memoryTool
	}
	if a.cfg.ToolsFunc != nil {
		dynamic, err := a.cfg.ToolsFunc(ctx, o.requestContext)
		if err != nil {
			return nil, fmt.Errorf("agent %s: tools: %w", a.cfg.ID, err)
		}
		for k, t := range dynamic {
			set[k] = t
		}
	}
	for _, ts := range o.toolsets {
		for k, t := range ts {
			set[k] = t
		}
	}
	return set, nil
}

// withClientTools lays client, then the agent-<key> tools, over own and
// gives the tools their model-facing names; own is not changed.
func (a *Agent) withClientTools(own, client tools.Set) (map[string]*tools.Tool, error) {
	set := make(tools.Set, len(own)+len(client)+len(a.agentTools))
	for k, t := range own {
		set[k] = t
	}
	for k, t := range client {
		set[k] = t
	}
	for k, t := range a.agentTools {
		set[k] = t
	}
	return sanitizeTools(set)
}
