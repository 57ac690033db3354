// Package crashtest is the harness of the tests that prove runs survive
// their process: a test re-executes its own test binary as a child,
// running one test function (the child's body) with a JSON payload in an
// environment variable; the parent reads the child's stdout for cues,
// releases it through its stdin, kills it with SIGKILL at a chosen point,
// and then checks, on the same store, that another process finds the run
// and finishes it.
//
// Harness starts children (Harness.Start, Harness.Race) and, in the
// child, decodes the payload (Harness.Payload). Child is the parent's
// handle on one child: Await, AwaitRest, Release, Kill, KillAt and Wait.
// AwaitRelease is the child's side of Release. LogLine and LogLines keep
// an execution log that survives a SIGKILL; PollRun waits for a run's
// saved snapshot.
//
// Backend is a kind of store the tests run on, given to them rather than
// chosen here, so that each store's module runs the same scenarios on its
// own store: SQLite is defined here, PostgreSQL in the storage/postgres
// module's tests. Backend.FreshEnv gives a test a fresh store and
// execution log, Backend.OpenStore opens a store, and Backend.Restart
// opens it again for the process that comes after a crash. A Scenario
// is one such test; RunScenarios runs a list of them on a backend.
//
// The scenarios themselves, for agents and for workflows, are in the
// subpackages agentcrash and workflowcrash.
package crashtest

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// Env is the payload the durable-run tests give a child: what it runs,
// the store and the execution log.
type Env struct {
	Scenario string `json:"scenario"`
	Store    string `json:"store"` // the store's spec, from its Backend's New
	Log      string `json:"log"`
	RunID    string `json:"runId,omitempty"`
	Block    bool   `json:"block"`
}

// Harness names a child: the test function that is its body and the
// environment variable that carries its payload (and tells that test it
// runs as a child).
type Harness struct {
	Test   string // the child's test function, e.g. "TestDurableChild"
	EnvVar string // the environment variable carrying the JSON payload
}

// Start starts the test binary again as a child running only h.Test,
// with payload, as JSON, in h.EnvVar. The child's stderr is this
// process's; its stdout and stdin are the Child's. The child is killed
// and waited for when t ends.
func (h Harness) Start(t *testing.T, payload any) *Child {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+h.Test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), h.EnvVar+"="+string(raw))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return &Child{Cmd: cmd, out: bufio.NewReader(stdout), stdin: stdin}
}

// Race starts n children with payload, waits until each has printed
// "READY", releases them all, and returns them with the next line each
// printed (its outcome), in the order they were started: the children
// race each other from the release on.
func (h Harness) Race(t *testing.T, payload any, n int) ([]*Child, []string) {
	t.Helper()
	children := make([]*Child, n)
	for i := range children {
		children[i] = h.Start(t, payload)
	}
	for _, c := range children {
		c.Await(t, "READY")
	}
	for _, c := range children {
		c.Release(t)
	}
	results := make([]string, n)
	for i, c := range children {
		results[i] = c.Await(t, "")
	}
	return children, results
}

// Payload decodes the child's payload into v. It skips the test when
// h.EnvVar is not set: the child's body does nothing in a normal run.
func (h Harness) Payload(t *testing.T, v any) {
	t.Helper()
	raw := os.Getenv(h.EnvVar)
	if raw == "" {
		t.Skip("runs only as a child of the durable-run tests")
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		t.Fatal(err)
	}
}

// AwaitRelease is the child's side of Child.Release: it waits for a line
// on stdin.
func AwaitRelease(t *testing.T) {
	t.Helper()
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
}

// Child is a running child process.
type Child struct {
	Cmd   *exec.Cmd // the child; Cmd.Wait waits for it without reading the rest of its output
	out   *bufio.Reader
	stdin io.WriteCloser
}

// Await reads the child's output until a line starting with prefix and
// returns that line, trimmed of surrounding space. It fails the test if
// the child's output ends first.
func (c *Child) Await(t *testing.T, prefix string) string {
	t.Helper()
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			t.Fatalf("child ended before %q: %v", prefix, err)
		}
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
	}
}

// AwaitRest is Await that returns what follows prefix on the line (a
// child's "SUSPENDED <runID>" gives the run ID).
func (c *Child) AwaitRest(t *testing.T, prefix string) string {
	t.Helper()
	return strings.TrimPrefix(c.Await(t, prefix), prefix)
}

// Release writes a line to the child's stdin, which AwaitRelease, in the
// child, waits for.
func (c *Child) Release(t *testing.T) {
	t.Helper()
	if _, err := io.WriteString(c.stdin, "GO\n"); err != nil {
		t.Fatal(err)
	}
}

// Kill kills the child with SIGKILL and waits for it.
func (c *Child) Kill(t *testing.T) {
	t.Helper()
	if err := c.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.Cmd.Wait()
}

// KillAt waits for the child's line starting with prefix (its cue that
// it has reached the point to die at) and then kills it like Kill.
func (c *Child) KillAt(t *testing.T, prefix string) {
	t.Helper()
	c.Await(t, prefix)
	c.Kill(t)
}

// Wait reads the rest of the child's output and waits for it to exit on
// its own; it fails the test unless the child succeeded.
func (c *Child) Wait(t *testing.T) {
	t.Helper()
	_, _ = io.Copy(io.Discard, c.out)
	if err := c.Cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
}

// Scenario is one durable-run test, as the parent runs it: Test starts
// children through h, on stores of b.
type Scenario struct {
	Name string
	// MultiProcess is set for scenarios where several processes use one
	// store at once; they are skipped on backends that do not allow it.
	MultiProcess bool
	Test         func(t *testing.T, h Harness, b Backend)
}

// RunScenarios runs each of scenarios as a subtest of t named for it,
// with h and b.
func RunScenarios(t *testing.T, h Harness, b Backend, scenarios []Scenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) {
			if s.MultiProcess && !b.MultiProcess {
				t.Skipf("several processes use one store at once, which %s does not allow", b.Name)
			}
			s.Test(t, h, b)
		})
	}
}
