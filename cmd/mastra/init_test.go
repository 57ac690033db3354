package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// repoRoot is this checkout of gomastra (the module the test runs in).
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no repository root at %s", root)
	}
	return root
}

// offlineGo runs the go command in dir without reaching any module
// proxy (everything comes from this machine's module cache).
func offlineGo(t *testing.T, ctx context.Context, dir string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod -buildvcs=false", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// `mastra init` writes a project that tidies, vets, passes its own test,
// builds, and serves the guide's weather tool and agent.
func TestInitCreatesAWorkingApp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a whole app")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "weather-app")
	var out, errOut bytes.Buffer
	err := initProject(ctx, dir, initOptions{module: "example.com/weather-app", model: "openai/gpt-5.6-sol", mastraPath: repoRoot(t), noInstall: true}, &out, &errOut)
	if err != nil {
		t.Fatalf("init: %v\n%s%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{"created go.mod", "created main.go", "created tools/weather.go", "created agents/weather.go", "mastra dev"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("init's output lacks %q:\n%s", want, out.String())
		}
	}
	offlineGo(t, ctx, dir, "mod", "tidy")
	offlineGo(t, ctx, dir, "vet", "./...")
	if got := offlineGo(t, ctx, dir, "test", "./..."); !strings.Contains(got, "ok  \texample.com/weather-app/tools") {
		t.Errorf("the scaffolded test did not pass:\n%s", got)
	}
	bin := filepath.Join(t.TempDir(), "app")
	offlineGo(t, ctx, dir, "build", "-o", bin, ".")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	app := exec.CommandContext(ctx, bin, "-port", strconv.Itoa(port), "-storage", ":memory:")
	app.Dir = dir
	app.Stdout, app.Stderr = io.Discard, io.Discard
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = app.Process.Kill()
		_ = app.Wait()
	}()
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	var tools, agents string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if tools = get(base + "/api/tools"); tools != "" {
			break
		}
	}
	agents = get(base + "/api/agents")
	if !strings.Contains(tools, `"weatherTool":{"id":"weather-tool","description":"Fetches weather for a location"`) {
		t.Errorf("GET /api/tools: %s", tools)
	}
	if !strings.Contains(agents, `"weather-agent":{"id":"weather-agent","name":"Weather Agent"`) {
		t.Errorf("GET /api/agents: %s", agents)
	}
}

func TestInitRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := initProject(context.Background(), dir, initOptions{module: "example.com/x", model: "openai/gpt-5.6-sol", noInstall: true}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "main.go already exists") {
		t.Fatalf("init over an existing main.go: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != "package main\n" {
		t.Errorf("main.go was changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		t.Errorf("go.mod was written although init refused")
	}
}

func TestInitRejectsBadFlags(t *testing.T) {
	for _, o := range []initOptions{
		{module: "bad module", model: "openai/gpt-5.6-sol"},
		{module: "../escape", model: "openai/gpt-5.6-sol"},
		{module: "example.com/x", model: "gpt-5.6-sol"},
	} {
		if err := initProject(context.Background(), t.TempDir(), o, io.Discard, io.Discard); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func get(url string) string {
	resp, err := http.Get(url)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return ""
	}
	return string(b)
}
