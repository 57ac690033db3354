package agent_test

import (
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/internal/crashtest/agentcrash"
)

// These tests prove that runs survive their process, on SQLite: a child
// process (this test binary, re-executed into TestDurableChild) runs an
// agent on a real store and is killed with SIGKILL at a chosen point; the
// run is then found and finished by another process. The scenarios are
// agentcrash's; the storage/postgres module runs them on PostgreSQL.

// durable starts the children: TestDurableChild, its payload (a
// crashtest.Env) in GOMASTRA_DURABLE_CHILD.
var durable = crashtest.Harness{Test: "TestDurableChild", EnvVar: "GOMASTRA_DURABLE_CHILD"}

// TestDurableChild is the child process's body; it does nothing in a
// normal test run.
func TestDurableChild(t *testing.T) { agentcrash.Child(t, durable, crashtest.SQLite) }

func TestDurableRuns(t *testing.T) { agentcrash.Run(t, durable, crashtest.SQLite) }
