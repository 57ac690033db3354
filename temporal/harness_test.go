package temporal_test

import (
	"context"
	"net/http"
	"os"
	"testing"

	"go.temporal.io/server/common/dynamicconfig"
	servertemporal "go.temporal.io/server/temporal"
	"go.temporal.io/server/temporaltest"

	"github.com/gomastra/mastra/internal/loopback"
	"github.com/gomastra/mastra/storage/sqlite"
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
	ts := temporaltest.NewServer(temporaltest.WithT(tt), temporaltest.WithBaseServerOptions(exampleServerOptions()...))
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

// exampleServerOptions are the options of a test server that stays on
// this machine: no version check (it would call out).
func exampleServerOptions() []servertemporal.ServerOption {
	dc := dynamicconfig.StaticClient{
		dynamicconfig.EnableServerVersionCheck.Key():                []dynamicconfig.ConstrainedValue{{Value: false}},
		dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key(): []dynamicconfig.ConstrainedValue{{Value: true}},
	}
	return []servertemporal.ServerOption{servertemporal.WithDynamicConfigClient(dc)}
}
