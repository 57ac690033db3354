package server_test

import (
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/reconnecttest"
	"github.com/gomastra/mastra/server"
)

// TestObserveRouteReconnectLosesAndRepeatsNothing: clients of
// POST /api/agents/{agentId}/observe that drop the SSE connection at
// random frames (closing it, or cancelling the request) and reconnect
// with {runId, offset: last index + 1} read exactly the frames of an
// uninterrupted client (but deliveryAttempt, which marks live frames).
func TestObserveRouteReconnectLosesAndRepeatsNothing(t *testing.T) {
	a, err := agent.New(reconnecttest.Config(nil, 100*time.Microsecond))
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	srv := server.New(mastra.New(mastra.Config{Agents: map[string]*agent.Agent{reconnecttest.AgentID: a}, Logger: quiet}), server.Options{Logger: quiet})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	r := reconnecttest.Replicas{Runner: a, Observer: a, Read: reconnecttest.HTTPObserve(ts.URL + "/api/agents/" + reconnecttest.AgentID + "/observe")}
	tally := reconnecttest.Run(t, r, reconnecttest.Options{Trials: reconnecttest.Trials(), Concurrency: 16, Seed: 14})
	t.Log(tally)
	if tally.Lost != 0 || tally.Repeated != 0 || tally.Altered != 0 {
		t.Errorf("reconnecting clients: %v", tally)
	}
	if tally.Drops < tally.Trials || tally.LiveDrops == 0 {
		t.Errorf("the trials did not drop as planned (live drops are needed too): %v", tally)
	}
}
