package mcpclient

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mastra "github.com/gomastra/mastra"
)

// childPID asks a stdio test server for its process id.
func childPID(t *testing.T, c *Client, server string) int {
	t.Helper()
	set, err := c.ServerTools(ctxT(t), server)
	if err != nil {
		t.Fatal(err)
	}
	res, err := executeJSON(t, set["pid"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// processGone reports whether pid no longer exists (it was reaped).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func TestStdioEnvironment(t *testing.T) {
	t.Setenv("HOME", "/home/for-test")
	t.Setenv("GOMASTRA_SECRET_NOT_INHERITED", "hidden")
	inherit := stdioChild(t, "plain", map[string]string{"EXTRA": "1", "HOME": "/overridden"})
	bare := stdioChild(t, "plain", map[string]string{"EXTRA": "2"})
	bare.NoDefaultEnv = true
	c := newClient(t, Config{Servers: map[string]ServerConfig{"inherit": inherit, "bare": bare}})
	set := c.ListTools(ctxT(t))
	names := `{"names":["HOME","PATH","EXTRA","GOMASTRA_SECRET_NOT_INHERITED"]}`

	res, err := executeJSON(t, set["inherit_getenv"], names)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"HOME": "/overridden", "PATH": os.Getenv("PATH"), "EXTRA": "1"}
	if diff := cmp.Diff(want, res.Output.(*StructuredResult).Value); diff != "" {
		t.Errorf("inherited environment (-want +got):\n%s", diff)
	}
	res, err = executeJSON(t, set["bare_getenv"], names)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"EXTRA": "2"}, res.Output.(*StructuredResult).Value); diff != "" {
		t.Errorf("NoDefaultEnv environment (-want +got):\n%s", diff)
	}
	if env := childEnv(nil, false); len(env) == 0 || !strings.HasPrefix(env[0], "HOME=") {
		t.Errorf("childEnv = %v", env)
	}
	t.Setenv("SHELL", "() { evil; }")
	for _, kv := range childEnv(nil, false) {
		if strings.HasPrefix(kv, "SHELL=") {
			t.Errorf("a shell function was inherited: %q", kv)
		}
	}
}

func TestStdioChildIsReapedOnClose(t *testing.T) {
	c, err := New(Config{Logger: quietLogger(), Servers: map[string]ServerConfig{"srv": stdioChild(t, "plain", nil)}})
	if err != nil {
		t.Fatal(err)
	}
	pid := childPID(t, c, "srv")
	if processGone(pid) {
		t.Fatal("the child is not running")
	}
	c.Close()
	if !processGone(pid) {
		t.Fatalf("child %d still exists after Close", pid)
	}
}

func TestStdioConcurrentCallsShareOneProcess(t *testing.T) {
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": stdioChild(t, "plain", nil)}})
	set, err := c.ServerTools(ctxT(t), "srv")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	pids := make([]string, 16)
	errs := make([]error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := set["pid"].Execute(ctxT(t), nil, nil)
			if err != nil {
				errs[i] = err
				return
			}
			pids[i] = res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text
		}()
	}
	wg.Wait()
	for i := range 16 {
		if errs[i] != nil || pids[i] != pids[0] {
			t.Fatalf("call %d: pid %q, err %v (first pid %q)", i, pids[i], errs[i], pids[0])
		}
	}
}

func TestStdioCrashReconnectsOnceThenFails(t *testing.T) {
	log := filepath.Join(t.TempDir(), "crashes")
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": stdioChild(t, "plain", map[string]string{crashLogEnv: log})}})
	set := c.ListTools(ctxT(t))
	_, err := executeJSON(t, set["srv_crash"], `{}`)
	if err == nil {
		t.Fatal("a server that always crashes gave no error")
	}
	if !strings.Contains(err.Error(), `calling tool "crash" on server "srv"`) {
		t.Errorf("error = %v", err)
	}
	data, _ := os.ReadFile(log)
	pids := strings.Fields(string(data))
	if len(pids) != 2 || pids[0] == pids[1] {
		t.Fatalf("crashed processes = %q, want two (the call and its one retry)", pids)
	}
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		if !processGone(pid) {
			t.Errorf("crashed child %d was not reaped", pid)
		}
	}
	// The next call starts a fresh server.
	if _, err := executeJSON(t, set["srv_add"], `{"a":1,"b":2}`); err != nil {
		t.Fatalf("call after the crashes: %v", err)
	}
}

func TestStdioCrashOnceIsRetried(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "crashed")
	rec := &logRecorder{}
	c := newClient(t, Config{Logger: rec.logger(), Servers: map[string]ServerConfig{"srv": stdioChild(t, "plain", map[string]string{crashMarkerEnv: marker})}})
	res, err := executeJSON(t, c.ListTools(ctxT(t))["srv_crash"], `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text; got != "survived" {
		t.Errorf("result = %q", got)
	}
	for _, want := range []string{"MCP server process exited", "exit status 3", "reconnecting"} {
		if !rec.contains(want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

func TestStdioGarbageOnStdoutIsSkipped(t *testing.T) {
	rec := &logRecorder{}
	c := newClient(t, Config{Logger: rec.logger(), Servers: map[string]ServerConfig{"srv": stdioChild(t, "garbage", nil)}})
	set, errs := c.ListToolsWithErrors(ctxT(t))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	res, err := executeJSON(t, set["srv_add"], `{"a":20,"b":22}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Output.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text; got != "The sum of 20 and 22 is 42." {
		t.Errorf("result = %q", got)
	}
	if !rec.contains("not JSON-RPC") || !rec.contains("debug output on stdout") {
		t.Error("skipped lines were not logged")
	}
}

func TestStdioHugeResultFailsCleanly(t *testing.T) {
	const limit = 1 << 20
	sc := stdioChild(t, "plain", nil)
	sc.MaxMessageBytes = limit
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": sc}})
	set := c.ListTools(ctxT(t))
	pid := childPID(t, c, "srv")

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := executeJSON(t, set["srv_huge"], `{"bytes":33554432}`) // 32 MiB
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("err = %v, want ErrMessageTooLarge", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 12*limit {
		t.Errorf("reading a 32 MiB answer allocated %d bytes; the limit is %d", grew, limit)
	}
	// The connection was dropped and its process stopped; the next call
	// starts a new one.
	if _, err := executeJSON(t, set["srv_add"], `{"a":1,"b":1}`); err != nil {
		t.Fatalf("call after the huge result: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !processGone(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !processGone(pid) {
		t.Errorf("the server that sent the huge result (%d) is still running", pid)
	}
	if newPID := childPID(t, c, "srv"); newPID == pid {
		t.Error("no new server process after the huge result")
	}
}

func TestStdioBrokenServers(t *testing.T) {
	tests := []struct {
		name    string
		sc      ServerConfig
		want    string
		timeout bool
	}{
		{"missing command", ServerConfig{Command: "/nonexistent/server"}, "no such file or directory", false},
		{"exits at once", stdioChild(t, "exit", nil), "EOF", false},
		{"never answers", func() ServerConfig {
			sc := stdioChild(t, "silent", nil)
			sc.ConnectTimeout = 300 * time.Millisecond
			return sc
		}(), "request timed out", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": tt.sc}})
			start := time.Now()
			err := c.Connect(ctxT(t))
			var me *mastra.Error
			if !errors.As(err, &me) || me.ID != IDConnectFailed || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Connect = %v, want %s containing %q", err, IDConnectFailed, tt.want)
			}
			if errors.Is(err, ErrTimeout) != tt.timeout {
				t.Errorf("errors.Is(err, ErrTimeout) = %v", !tt.timeout)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestStdioUnresponsiveServerIsKilled(t *testing.T) {
	sc := stdioChild(t, "deaf", nil)
	sc.ConnectTimeout = 200 * time.Millisecond
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": sc}})
	start := time.Now()
	if err := c.Connect(ctxT(t)); !errors.Is(err, ErrTimeout) {
		t.Fatalf("Connect = %v, want a timeout", err)
	}
	// Connect returns once the process is gone: stdin closed (ignored),
	// SIGTERM (ignored), SIGKILL.
	if d := time.Since(start); d < stdinCloseGrace+sigtermGrace || d > stdinCloseGrace+sigtermGrace+killWait {
		t.Errorf("Connect took %v", d)
	}
}
