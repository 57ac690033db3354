//go:build devserver

// Command devserver runs a Temporal server for the temporal module's
// tests: temporaltest's lite server, in memory, on 127.0.0.1, with the
// version check (which would call out) turned off. It prints
// "READY <host:port> <namespace>" once it serves, and stops when its
// standard input closes (its parent has gone).
//
// The tests start it as a process of its own, so that their race-built
// test binary does not hold the server. It builds only with the
// "devserver" tag (go build -tags devserver), so that building or testing
// the module's packages (github.com/gomastra/mastra/...) leaves it, and
// the whole Temporal server it links, out; go mod tidy still sees it.
package main

import (
	"fmt"
	"io"
	"os"

	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/temporal"
	"go.temporal.io/server/temporaltest"
)

func main() {
	dc := dynamicconfig.StaticClient{
		dynamicconfig.EnableServerVersionCheck.Key():                []dynamicconfig.ConstrainedValue{{Value: false}},
		dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key(): []dynamicconfig.ConstrainedValue{{Value: true}},
	}
	ts := temporaltest.NewServer(temporaltest.WithBaseServerOptions(temporal.WithDynamicConfigClient(dc)))
	fmt.Println("READY", ts.GetFrontendHostPort(), ts.GetDefaultNamespace())
	_, _ = io.Copy(io.Discard, os.Stdin)
	ts.Stop()
}
