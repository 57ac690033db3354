package builtin

import (
	"maps"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// TaskSignalProviderID is the provider's id (Mastra's "task-signals").
const TaskSignalProviderID = "task-signals"

// TaskSignalProvider bundles the four task tools and the
// [TaskStateProcessor] as one agent.Signal, Mastra's TaskSignalProvider:
// registering the tools without the processor would let the model lose the
// list between turns. Add it with agent.Config.Signals and run the agent
// with agent.WithMemory, since the task list belongs to a memory thread.
// It is safe for concurrent use.
type TaskSignalProvider struct {
	tools     tools.Set
	processor *TaskStateProcessor
}

var _ agent.Signal = (*TaskSignalProvider)(nil)

// NewTaskSignalProvider returns the provider; its tools and processor keep
// the task list in store (see [TaskTools] and [TaskStateProcessor]).
func NewTaskSignalProvider(store storage.ThreadState) *TaskSignalProvider {
	return &TaskSignalProvider{tools: TaskTools(store), processor: NewTaskStateProcessor(store)}
}

// ID returns "task-signals".
func (p *TaskSignalProvider) ID() string { return TaskSignalProviderID }

// Tools returns task_write, task_update, task_complete and task_check (a
// new map each time; the tools are shared).
func (p *TaskSignalProvider) Tools() tools.Set { return maps.Clone(p.tools) }

// Processors returns the provider's TaskStateProcessor.
func (p *TaskSignalProvider) Processors() []agent.StepProcessor {
	return []agent.StepProcessor{p.processor}
}

// Processor returns the provider's TaskStateProcessor.
func (p *TaskSignalProvider) Processor() *TaskStateProcessor { return p.processor }
