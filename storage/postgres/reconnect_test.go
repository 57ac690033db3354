package postgres_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/reconnecttest"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage/postgres"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
)

// TestReplicaReconnectLosesAndRepeatsNothing: agent A (its own Store)
// runs the runs; readers of agent B (same configuration, its own Store
// over the same database) drop their reading at random events and
// reconnect with Observe at the last index seen + 1, and read exactly
// what an uninterrupted reader of B reads.
func TestReplicaReconnectLosesAndRepeatsNothing(t *testing.T) {
	dsn := pgtest.DSN(t)
	r := reconnecttest.Replicas{Runner: replicaAgent(t, dsn), Observer: replicaAgent(t, dsn)}
	tally := reconnecttest.Run(t, r, reconnecttest.Options{Trials: reconnecttest.Trials(), Concurrency: 16, Seed: 14})
	t.Log(tally)
	if tally.Lost != 0 || tally.Repeated != 0 || tally.Altered != 0 {
		t.Errorf("reconnecting readers: %v", tally)
	}
	if tally.Drops < tally.Trials || tally.LiveDrops == 0 {
		t.Errorf("the trials did not drop as planned (live drops are needed too): %v", tally)
	}
}

// TestReplicaObserveRouteReconnectLosesAndRepeatsNothing: the same
// across replicas over HTTP: clients of replica B's
// POST /api/agents/{agentId}/observe drop the SSE connection at random
// frames and post {runId, offset} again while replica A runs the runs
// (a quarter of the trials: the agent variant above has the count).
func TestReplicaObserveRouteReconnectLosesAndRepeatsNothing(t *testing.T) {
	dsn := pgtest.DSN(t)
	b := replicaAgent(t, dsn)
	quiet := slog.New(slog.DiscardHandler)
	srv := server.New(mastra.New(mastra.Config{Agents: map[string]*agent.Agent{reconnecttest.AgentID: b}, Logger: quiet}), server.Options{Logger: quiet})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	r := reconnecttest.Replicas{Runner: replicaAgent(t, dsn), Observer: b,
		Read: reconnecttest.HTTPObserve(ts.URL + "/api/agents/" + reconnecttest.AgentID + "/observe")}
	tally := reconnecttest.Run(t, r, reconnecttest.Options{Trials: reconnecttest.Trials() / 4, Concurrency: 16, Seed: 15})
	t.Log(tally)
	if tally.Lost != 0 || tally.Repeated != 0 || tally.Altered != 0 {
		t.Errorf("reconnecting clients: %v", tally)
	}
	if tally.Drops < tally.Trials || tally.LiveDrops == 0 {
		t.Errorf("the trials did not drop as planned (live drops are needed too): %v", tally)
	}
}

// replicaAgent is the scripted agent of the reconnect trials over its
// own Store of the database dsn: one replica.
func replicaAgent(t testing.TB, dsn string) *agent.Agent {
	t.Helper()
	return replicaAgentOf(t, openStore(t, dsn))
}

func replicaAgentOf(t testing.TB, st *postgres.Store) *agent.Agent {
	t.Helper()
	a, err := agent.New(reconnecttest.Config(st, 100*time.Microsecond))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func openStore(t testing.TB, dsn string) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
