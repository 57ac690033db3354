// Package temporal runs gomastra agent runs and workflow runs on
// Temporal, the durable execution engine, with its official Go SDK.
//
// An agent run is a Temporal workflow (AgentRunWorkflow) whose code is
// the agent's own loop, driven by an agent.ReplayingEngine: each model
// call and each tool call is an activity, the step's calls run side by
// side as workflow coroutines, the clock is the workflow's, and what the
// loop reads from memory is recorded in the workflow's history (by a
// local activity, run outside the workflow's coroutines, so that a slow
// read such as an embedder's call does not hold the workflow up). When a
// worker dies, another replays the run's history up to where it stopped
// and goes on: a model or tool call that had completed is not made
// again. A person's answer to a waiting call (an approval, a decline,
// resume data) and an abort arrive as signals.
//
// Models and tools' Execute functions run in activities, as ordinary Go
// code. The agent's hooks and a tool's OnInputAvailable, OnOutput and
// ToModelOutput run in the workflow once, their outcomes recorded in its
// history: a replay does not run them again. Step processors and
// transforms run again when the workflow is replayed: they must decide
// the same way from the same input (no clock, no I/O, no randomness),
// except for what a processor does through agent.StepInput.Record (an
// observational-memory observer's model call, say), which is recorded
// as memory reads are.
//
// A gomastra workflow run (package workflows) is a Temporal workflow
// (WorkflowWorkflowRun) that runs it a node at a time, each node an
// activity (workflows.Run.Advance) that runs the node and saves the run
// in the workflow's storage; a sleep node is a Temporal timer, a
// suspended run waits for the signal that its resume has been saved
// (SignalContinue). Callers use the workflows API unchanged, through the
// launchers Client.UseLaunchers gives the registry's workflows.
//
// Chunks reach readers through the run's event log in the agent's
// storage (Config.Storage: SQLite or PostgreSQL shared by the workers
// and the readers), so agent.Observe, the HTTP API and Mastra's clients
// read a run the same whichever engine runs it; a reader needs no
// worker. Text reaches the log once its model call has ended, not delta
// by delta as it is generated.
//
// Roles: a worker (NewWorker, or Register on a worker of your own) runs
// the registry's agents and workflows; a Client starts runs and signals
// them. Both
// take the same *mastra.Mastra, built by the app's main.
package temporal
