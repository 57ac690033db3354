package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/model"
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

// isolateGo makes any checksum lookup of the go commands this test runs
// (and init runs) fail: GOSUMDB is a checksum database of a key made
// here, served at a closed port of 127.0.0.1, whose cache is empty. A
// go.sum missing a line the new module needs then fails the test instead
// of passing wherever the lookup happens to be cached. Modules come from
// the module cache, as for every test here (the proxy only serves what
// the cache lacks, as it does when the test binaries are built).
func isolateGo(t *testing.T) {
	t.Setenv("GOSUMDB", unreachableSumDB(t))
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod -buildvcs=false")
	t.Setenv("GOTOOLCHAIN", "local")
	for _, k := range []string{"GONOSUMDB", "GONOSUMCHECK", "GOPRIVATE", "GOINSECURE", "GONOPROXY"} {
		t.Setenv(k, "")
	}
}

// unreachableSumDB is a GOSUMDB value naming a checksum database that
// no lookup can reach.
func unreachableSumDB(t *testing.T) string {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	name := "gomastra-test-sumdb"
	key := append([]byte{1}, pub...) // algorithm 1: Ed25519
	h := sha256.New()
	h.Write([]byte(name + "\n"))
	h.Write(key)
	vkey := fmt.Sprintf("%s+%08x+%s", name, binary.BigEndian.Uint32(h.Sum(nil)), base64.StdEncoding.EncodeToString(key))
	return vkey + " http://" + closedAddr(t)
}

// closedAddr is an address of 127.0.0.1 nothing listens on.
func closedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// goCmd runs the go command in dir and returns its output.
func goCmd(t *testing.T, ctx context.Context, dir string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// unusedSDKs are modules the scaffolded app (OpenAI, SQLite, no MCP) must
// not even see in its module graph.
var unusedSDKs = []string{"github.com/anthropics/anthropic-sdk-go", "google.golang.org/genai", "google.golang.org/grpc",
	"github.com/jackc/pgx", "github.com/modelcontextprotocol/go-sdk"}

// maxAppBytes is the scaffolded app's size budget, unstripped.
const maxAppBytes = 40 << 20

// `mastra init` writes a project that tidies offline with the checksums
// it was given, vets, passes its own test, builds within its size budget
// without the SDKs it does not use, and serves the guide's tool call
// against the offline stand-in its README shows, starting without a
// warning.
func TestInitCreatesAWorkingApp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a whole app")
	}
	isolateGo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "weather-app")
	var out bytes.Buffer
	err := initProject(ctx, dir, initOptions{module: "example.com/weather-app", model: "openai/gpt-5.6-sol", mastraPath: repoRoot(t)}, &out, &out)
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out.String())
	}
	for _, want := range []string{"created go.mod", "created go.sum", "created main.go", "created tools/weather.go", "created agents/weather.go", "created cmd/wttr-stub/main.go", "mastra dev"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("init's output lacks %q:\n%s", want, out.String())
		}
	}
	goCmd(t, ctx, dir, "vet", "./...")
	if got := goCmd(t, ctx, dir, "test", "./..."); !strings.Contains(got, "ok  \texample.com/weather-app/tools") {
		t.Errorf("the scaffolded test did not pass:\n%s", got)
	}
	graph := goCmd(t, ctx, dir, "mod", "graph")
	for _, sdk := range unusedSDKs {
		if strings.Contains(graph, sdk) {
			t.Errorf("the module graph holds %s, which the app does not use", sdk)
		}
	}
	bins := t.TempDir()
	app, stub := filepath.Join(bins, "app"), filepath.Join(bins, "wttr-stub")
	goCmd(t, ctx, dir, "build", "-o", app, ".")
	goCmd(t, ctx, dir, "build", "-o", stub, "./cmd/wttr-stub")
	if fi, err := os.Stat(app); err != nil || fi.Size() > maxAppBytes {
		t.Errorf("the app is %d bytes, over its budget of %d (%v)", fi.Size(), maxAppBytes, err)
	}
	callTheToolOffline(t, ctx, dir, app, stub)
}

// callTheToolOffline follows the scaffold's README: the stand-in for
// wttr.in, the app pointed at it, and the guide's CLI call.
func callTheToolOffline(t *testing.T, ctx context.Context, dir, app, stub string) {
	stubAddr, appAddr := closedAddr(t), closedAddr(t)
	start(t, ctx, dir, nil, stub, "-addr", stubAddr)
	host, port, _ := net.SplitHostPort(appAddr)
	appLog := start(t, ctx, dir, []string{"WEATHER_BASE_URL=http://" + stubAddr, "OPENAI_API_KEY="}, app, "-host", host, "-port", port, "-storage", ":memory:")
	base := "http://" + appAddr
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && get(base+"/api/tools") == ""; time.Sleep(50 * time.Millisecond) {
	}
	stdout, stderr, code := runCLI(t, testConfig(t, base, nil), "api", "tool", "execute", "weather-tool", `{"location":"San Francisco"}`)
	if want := `{"data":{"location":"San Francisco","temperatureCelsius":18,"conditions":"Sunny"}}` + "\n"; code != 0 || stdout != want {
		t.Errorf("mastra api tool execute: %d %q %q, want %s", code, stdout, stderr, want)
	}
	if agents := get(base + "/api/agents"); !strings.Contains(agents, `"weather-agent":{"id":"weather-agent","name":"Weather Agent"`) {
		t.Errorf("GET /api/agents: %s", agents)
	}
	logs := appLog.String()
	if strings.Contains(logs, "level=WARN") || strings.Contains(logs, "level=ERROR") {
		t.Errorf("the app warned at start:\n%s", logs)
	}
	if !strings.Contains(logs, "  studio  "+base+"/") {
		t.Errorf("the app's start-up summary lacks the studio's URL:\n%s", logs)
	}
}

// start runs bin in dir with env added until the test ends; its stderr
// is returned.
func start(t *testing.T, ctx context.Context, dir string, env []string, bin string, args ...string) *lockedBuffer {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = io.Discard, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return logs
}

// lockedBuffer is a bytes.Buffer a child process writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Without a checkout and with gomastra unpublished, init says what
// happened and what to do in one sentence, and leaves nothing behind.
func TestInitWithoutGomastraExplainsAndCleansUp(t *testing.T) {
	isolateGo(t)
	t.Setenv("GOPROXY", "off") // the published module cannot be fetched
	parent := t.TempDir()
	dir := filepath.Join(parent, "app")
	var out bytes.Buffer
	err := initProject(context.Background(), dir, initOptions{module: "example.com/app", model: "openai/gpt-5.6-sol", findCheckout: func() string { return "" }}, &out, &out)
	if err == nil {
		t.Fatal("init succeeded without gomastra")
	}
	for _, want := range []string{"could not fetch gomastra", "mastra init --mastra-path", "are removed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("init left %v behind", entries)
	}
}

// Built from a checkout, init uses it without being told.
func TestInitUsesTheCheckoutItWasBuiltFrom(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	err := initProject(context.Background(), dir, initOptions{module: "example.com/app", model: "ollama/llama3.1", noInstall: true, findCheckout: func() string { return repoRoot(t) }}, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(gomod), "github.com/gomastra/mastra/model/openai => ") || !strings.Contains(out.String(), "the checkout this mastra was built from") {
		t.Errorf("go.mod:\n%s\noutput:\n%s", gomod, out.String())
	}
	main, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(main), `"github.com/gomastra/mastra/model/openai/chat"`) || !strings.Contains(string(main), "chat.Providers()...") {
		t.Errorf("main.go for ollama:\n%s", main)
	}
}

// Every provider init offers is a package of the checkout, in a module
// of its own, with a Providers function.
func TestInitProvidersExist(t *testing.T) {
	for _, sp := range model.ShippedProviders() {
		p, err := providerOf(sp.Name + "/m")
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(repoRoot(t), filepath.FromSlash(strings.TrimPrefix(p.ProviderImport, rootModule+"/")))
		if !declaresFunc(t, dir, p.ProviderPackage, "Providers") {
			t.Errorf("%s: no func Providers in package %s at %s", sp.Name, p.ProviderPackage, dir)
		}
		if mod, err := moduleOf(repoRoot(t), p.ProviderImport); err != nil || mod == "." {
			t.Errorf("%s: module %q: %v", sp.Name, mod, err)
		}
	}
}

// declaresFunc tells whether package pkg in dir declares a function (not
// a method) name.
func declaresFunc(t *testing.T, dir, pkg, name string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != pkg {
			continue
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name {
				return true
			}
		}
	}
	return false
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
		{module: "example.com/x", model: "acme/model-1"},
		{module: "example.com/x", model: "openai/gpt-5.6-sol", mastraPath: "/nonexistent"},
	} {
		if err := initProject(context.Background(), t.TempDir(), o, io.Discard, io.Discard); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// The flag help reads as sentences (pflag takes a back-quoted word for
// the flag's value name).
func TestInitHelp(t *testing.T) {
	var out bytes.Buffer
	execute(context.Background(), rootCmd, []string{"init", "--help"}, &out, &out)
	for _, want := range []string{"--no-install ", "write the files only; do not run go mod tidy", "--mastra-path string"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
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
