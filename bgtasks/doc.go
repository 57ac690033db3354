// Package bgtasks runs tool calls as background tasks, as Mastra's
// BackgroundTaskManager does: an agent's run enqueues a call and goes
// on; the Manager runs it apart from the run, within global and
// per-agent concurrency limits, with a timeout, retries, cancellation,
// suspension and resumption by task id, and publishes each task's
// lifecycle as Mastra's background-task-* chunks.
//
// A task is a record (Task) in a Store: in memory (NewMemoryStore) or
// in a database (storage/sqlite, storage/postgres), where Managers of
// several processes share the tasks. A task's executor is the
// Executor its Enqueue gave, or what Config.Resolve finds from the
// record (by tool and agent), which is how a task outlives its process:
//
//   - a Manager claims a Pending task atomically (ClaimTasks), so it
//     runs in one Manager at a time, and holds it by a lease it renews;
//   - when its process dies, the lease lapses and any Manager takes the
//     task up: again (a retry) while it has retries left, else it fails
//     with "Worker process terminated before task completed";
//   - every change of a record is checked against its version, so a
//     finished task is never run again, and an execution whose task was
//     taken from it (cancelled, recovered) records nothing.
//
// The statuses are Mastra's: pending, running, suspended, completed,
// failed, cancelled, timed_out. So are the defaults: 10 tasks running
// at once in all, 5 per agent, a 5 minute timeout, no retries, queueing
// when no slot is free.
package bgtasks
