package agentcrash

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/server"
)

// shutdownStreams is how many streams are open when the server is told
// to stop.
const shutdownStreams = 40

// shutdownParks stops a server (as SIGTERM does) while shutdownStreams
// two-step runs stream from it, with a grace period shorter than the
// runs: every run must end finished or parked (saved as running, and
// logged), none lost; a recovery then finishes the parked ones, each
// message saved once.
func shutdownParks(t *testing.T, _ crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{})
	store := b.OpenStore(t, env.Store)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	a := killAgent(t, env.Log, store, func(c *agent.Config) { c.Logger = log })
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"killable": a}, Logger: log})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- server.Serve(ctx, m, server.ServeOptions{Listener: ln, ShutdownGrace: 15 * time.Millisecond, Options: server.Options{Logger: log}})
	}()
	started := openStreams(t, "http://"+ln.Addr().String())
	stop()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	parked, _, err := a.ListRunningRuns(context.Background(), agent.SuspendedRunsFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), "run parked"); n != len(parked) {
		t.Errorf("%d runs parked, %d logged as parked", len(parked), n)
	}
	t.Logf("%d of %d runs parked by the shutdown, the rest finished", len(parked), started)
	checkRecovered(t, b, env, 0)
}

// openStreams starts shutdownStreams runs over HTTP and returns once each
// has streamed its first frame (the rest stream on, unread).
func openStreams(t *testing.T, base string) int {
	var wg sync.WaitGroup
	for i := range shutdownStreams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := fmt.Sprintf("r%d", i)
			body := fmt.Sprintf(`{"messages":"add %s","runId":%q,"memory":{"thread":"thread-%s","resource":"user-1"}}`, run, run, run)
			res, err := http.Post(base+"/api/agents/killable/stream", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			go func() {
				defer res.Body.Close()
				r := bufio.NewReader(res.Body)
				for {
					if _, err := r.ReadString('\n'); err != nil {
						return
					}
				}
			}()
		}()
	}
	wg.Wait()
	return shutdownStreams
}

// syncBuffer is a bytes.Buffer several goroutines write.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
