package temporal_test

import (
	"context"
	"net/http"
	"os"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/common/dynamicconfig"
	servertemporal "go.temporal.io/server/temporal"
	"go.temporal.io/server/temporaltest"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/loopback"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/temporal"
)

// TestMain keeps the tests on this machine: an HTTP request to any host
// but a loopback address fails before it dials (the Temporal server's
// version check is also turned off, see newServer).
func TestMain(m *testing.M) {
	http.DefaultTransport = loopback.Only(http.DefaultTransport)
	os.Exit(m.Run())
}

// newServer starts an in-process Temporal server for t, on 127.0.0.1.
func newServer(t testing.TB) *temporaltest.TestServer {
	tt, _ := t.(*testing.T)
	dc := dynamicconfig.StaticClient{
		dynamicconfig.EnableServerVersionCheck.Key():                []dynamicconfig.ConstrainedValue{{Value: false}},
		dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key(): []dynamicconfig.ConstrainedValue{{Value: true}},
	}
	ts := temporaltest.NewServer(temporaltest.WithT(tt),
		temporaltest.WithBaseServerOptions(servertemporal.WithDynamicConfigClient(dc)))
	if tt == nil {
		t.Cleanup(ts.Stop)
	}
	return ts
}

// newStore is a SQLite store in memory, closed with t.
func newStore(t testing.TB) *sqlite.Store {
	s, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// env is a Temporal server with workers of one registry and a client.
type env struct {
	ts     *temporaltest.TestServer
	m      *mastra.Mastra
	client *temporal.Client
	queue  string
}

// newEnv starts a server and n workers of m on one task queue.
func newEnv(t testing.TB, m *mastra.Mastra, workers int) *env {
	ts := newServer(t)
	e := &env{ts: ts, m: m, queue: "q-" + t.Name()}
	for range workers {
		w := ts.NewWorkerWithOptions(e.queue, func(r worker.Registry) {
			temporal.Register(r, m, temporal.Options{})
		}, worker.Options{})
		_ = w
	}
	e.client = temporal.NewClient(ts.GetDefaultClient(), e.queue, m)
	return e
}

var _ client.Client = nil
