package mcpserver

import "time"

// TasksExtension is the MCP extension id of tasks: a client declares it
// (capabilities.extensions, or per request in
// _meta["io.modelcontextprotocol/clientCapabilities"]) to be answered with
// a task id for a long-running tool call, and the server advertises it.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskSupport says whether calls of a tool run as MCP tasks.
type TaskSupport string

const (
	// TaskOptional runs a call as a task when the client declared
	// [TasksExtension], and synchronously otherwise.
	TaskOptional TaskSupport = "optional"
	// TaskRequired runs a call as a task; a client that did not declare
	// [TasksExtension] gets a JSON-RPC error -32021 (missing required
	// client capability) naming it.
	TaskRequired TaskSupport = "required"
)

// TasksOptions configure MCP tasks (the io.modelcontextprotocol/tasks
// extension): a call of a task tool is answered at once with a task id
// while the tool runs in the background, and the client polls tasks/get
// until the task is completed (the tool's result, isError included),
// failed (a JSON-RPC error), or cancelled (tasks/cancel). A task whose tool
// suspends is input_required until the client answers with tasks/update.
type TasksOptions struct {
	// Tools maps exposed tool names (a tool's key, "ask_<agent>",
	// "run_<workflow>") to their task support. Tools not listed never
	// run as tasks. An unknown name is an error of New.
	Tools map[string]TaskSupport
	// TTL is how long a finished task stays readable with tasks/get
	// after it ended, and how long a task waits for input before it is
	// cancelled (default 1 hour). It is sent to clients as ttlMs.
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients
	// (pollIntervalMs; default 1 second).
	PollInterval time.Duration
	// MaxTasks bounds the tasks kept at once, running or finished
	// (default 1000). When it is reached a TaskOptional call runs
	// synchronously and a TaskRequired call fails with a JSON-RPC
	// internal error; finished tasks are dropped oldest first before that.
	MaxTasks int
}

// Task defaults.
const (
	defaultTaskTTL          = time.Hour
	defaultTaskPollInterval = time.Second
	defaultMaxTasks         = 1000
)

// withDefaults is o with unset fields at their defaults.
func (o TasksOptions) withDefaults() TasksOptions {
	if o.TTL <= 0 {
		o.TTL = defaultTaskTTL
	}
	if o.PollInterval <= 0 {
		o.PollInterval = defaultTaskPollInterval
	}
	if o.MaxTasks <= 0 {
		o.MaxTasks = defaultMaxTasks
	}
	return o
}

// check rejects task support values other than optional and required.
func (o TasksOptions) check(exposed map[string]*exposedTool) error {
	for name, sup := range o.Tools {
		if sup != TaskOptional && sup != TaskRequired {
			return configError("Tasks.Tools[%q]: task support %q is neither %q nor %q", name, sup, TaskOptional, TaskRequired)
		}
		if _, ok := exposed[name]; !ok {
			return configError("Tasks.Tools[%q]: no exposed tool has that name", name)
		}
	}
	return nil
}
