package temporal_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra/internal/loopback"
	"github.com/gomastra/mastra/storage/sqlite"
)

// TestMain keeps the tests on this machine (an HTTP request to any host
// but a loopback address fails before it dials; the server runs with
// its version check off) and stops the test server at the end.
func TestMain(m *testing.M) {
	http.DefaultTransport = loopback.Only(http.DefaultTransport)
	code := m.Run()
	devServer.stop()
	os.Exit(code)
}

// devServer is the Temporal server of this test process: one
// internal/devserver process, built and started by the first test that
// needs it.
var devServer sharedServer

type sharedServer struct {
	once                sync.Once
	hostPort, namespace string
	err                 error
	stdin               interface{ Close() error }
	cmd                 *exec.Cmd
}

// start builds and starts the server once.
func (s *sharedServer) start() error {
	s.once.Do(func() { s.err = s.launch() })
	return s.err
}

func (s *sharedServer) launch() error {
	dir, err := os.MkdirTemp("", "gomastra-devserver")
	if err != nil {
		return err
	}
	// The binary (200 MB) goes with its folder once started: a running
	// program's file may be unlinked, and nothing is left in the temp dir.
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "devserver")
	build := exec.Command("go", "build", "-tags", "devserver", "-o", bin, "github.com/gomastra/mastra/temporal/internal/devserver")
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the test server: %v\n%s", err, out)
	}
	s.cmd = exec.Command(bin)
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	s.stdin = stdin
	if err := s.cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "READY" {
			s.hostPort, s.namespace = f[1], f[2]
			go func() { // keep draining its output
				for sc.Scan() {
				}
			}()
			return nil
		}
	}
	return fmt.Errorf("the test server ended before it was ready")
}

func (s *sharedServer) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.stdin.Close()
		_ = s.cmd.Wait()
	}
}

// testServer is a test's view of the shared server: a client of its
// own, and workers on the task queues the test names (each test names
// its own).
type testServer struct {
	t      testing.TB
	client client.Client
}

// newServer returns t's view of the test server, starting the server if
// needed.
func newServer(t testing.TB) *testServer {
	if err := devServer.start(); err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(client.Options{HostPort: devServer.hostPort, Namespace: devServer.namespace, Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &testServer{t: t, client: c}
}

func (s *testServer) GetDefaultClient() client.Client { return s.client }
func (s *testServer) GetFrontendHostPort() string     { return devServer.hostPort }
func (s *testServer) GetDefaultNamespace() string     { return devServer.namespace }

// NewWorkerWithOptions starts a worker of queue, stopped with the test.
func (s *testServer) NewWorkerWithOptions(queue string, register func(worker.Registry), opts worker.Options) worker.Worker {
	w := worker.New(s.client, queue, opts)
	register(w)
	if err := w.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(w.Stop)
	return w
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

// quietLogger drops the SDK's logs.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(string, ...any)  {}
func (quietLogger) Error(string, ...any) {}

// exampleTemporalClient is a client of the tests' server, for examples
// (which have no testing.T).
func exampleTemporalClient() client.Client {
	if err := devServer.start(); err != nil {
		panic(err)
	}
	c, err := client.Dial(client.Options{HostPort: devServer.hostPort, Namespace: devServer.namespace, Logger: quietLogger{}})
	if err != nil {
		panic(err)
	}
	return c
}
