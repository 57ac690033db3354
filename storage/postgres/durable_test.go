package postgres_test

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/internal/crashtest/agentcrash"
	"github.com/gomastra/mastra/internal/crashtest/workflowcrash"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
)

// These tests prove that agent and workflow runs survive their process on
// PostgreSQL: the durable-run scenarios of agentcrash and workflowcrash
// (which the root module runs on SQLite), here on databases from
// pgtest.DSN, including those where two processes race for one run.

// pgBackend is PostgreSQL for the scenarios: a fresh database per test,
// which several processes may share.
var pgBackend = crashtest.Backend{
	Name: "postgres",
	New:  pgtest.DSN,
	Open: func(ctx context.Context, dsn string) (storage.Store, error) {
		s, err := postgres.Open(ctx, dsn)
		if err != nil {
			return nil, err
		}
		return s, nil
	},
	MultiProcess: true,
}

// The children of the scenarios: the test function each re-executes this
// test binary into, with its payload (a crashtest.Env) in the variable.
var (
	agentChild    = crashtest.Harness{Test: "TestDurableAgentChild", EnvVar: "GOMASTRA_DURABLE_AGENT_CHILD"}
	workflowChild = crashtest.Harness{Test: "TestDurableWorkflowChild", EnvVar: "GOMASTRA_DURABLE_WORKFLOW_CHILD"}
)

// TestDurableAgentChild is the agent scenarios' child process's body; it
// does nothing in a normal test run.
func TestDurableAgentChild(t *testing.T) { agentcrash.Child(t, agentChild, pgBackend) }

func TestDurableAgentRuns(t *testing.T) { agentcrash.Run(t, agentChild, pgBackend) }

// TestDurableWorkflowChild is the workflow scenarios' child process's
// body; it does nothing in a normal test run.
func TestDurableWorkflowChild(t *testing.T) { workflowcrash.Child(t, workflowChild, pgBackend) }

func TestDurableWorkflowRuns(t *testing.T) { workflowcrash.Run(t, workflowChild, pgBackend) }

// BenchmarkSuspendResume measures an agent's suspend→resume round trip on
// PostgreSQL (see agentcrash.BenchSuspendResume). The scratch cluster
// runs with fsync off.
func BenchmarkSuspendResume(b *testing.B) { agentcrash.BenchSuspendResume(b, pgBackend) }
