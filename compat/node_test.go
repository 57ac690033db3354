package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// requireEnv is the variable CI sets after running setup.sh: with it a
// missing toolchain fails the tests instead of skipping them.
const requireEnv = "GOMASTRA_REQUIRE_COMPAT"

// compileCache is the directory Node keeps compiled code in for the
// processes of one test run (NODE_COMPILE_CACHE): it saves a third of each
// CLI start. Set by TestMain; empty leaves the cache off.
var compileCache string

// guardMarker starts the line loopback-guard.mjs prints when it refuses a
// connection.
const guardMarker = "compat loopback guard:"

// toolchain is the pinned Node and Mastra packages setup.sh installs into
// this directory.
type toolchain struct {
	dir    string // this package's directory, absolute
	bin    string // nodebin/node_modules/.bin (Node 22)
	mastra string // the mastra CLI
	guard  string // loopback-guard.mjs
}

// The pinned versions (package.json, nodebin/package.json): the
// recordings were made with them.
var pinned = map[string]string{
	"nodebin/node_modules/node":      "22.23.3",
	"node_modules/@mastra/client-js": "1.47.0",
	"node_modules/mastra":            "1.31.0",
	"node_modules/zod":               "4.6.7",
}

// findToolchain returns the toolchain installed in dir, or an error
// saying what is missing or not the pinned version.
func findToolchain(dir string) (toolchain, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return toolchain{}, err
	}
	tc := toolchain{
		dir:    dir,
		bin:    filepath.Join(dir, "nodebin", "node_modules", ".bin"),
		mastra: filepath.Join(dir, "node_modules", ".bin", "mastra"),
		guard:  filepath.Join(dir, "loopback-guard.mjs"),
	}
	for _, p := range []string{filepath.Join(tc.bin, "node"), tc.mastra, tc.guard} {
		if _, err := os.Stat(p); err != nil {
			return tc, err
		}
	}
	for pkg, version := range pinned {
		raw, err := os.ReadFile(filepath.Join(dir, pkg, "package.json"))
		if err != nil {
			return tc, err
		}
		var meta struct{ Version string }
		if err := json.Unmarshal(raw, &meta); err != nil {
			return tc, fmt.Errorf("%s: %w", pkg, err)
		}
		if meta.Version != version {
			return tc, fmt.Errorf("%s is version %s, not the pinned %s", pkg, meta.Version, version)
		}
	}
	return tc, nil
}

// needToolchain returns the toolchain installed in this directory. When
// it is missing or stale the test is skipped, or fails when
// GOMASTRA_REQUIRE_COMPAT=1.
func needToolchain(t testing.TB) toolchain {
	t.Helper()
	tc, err := findToolchain(".")
	if err != nil {
		msg := "compat toolchain not installed (" + err.Error() + "); run compat/setup.sh"
		if os.Getenv(requireEnv) == "1" {
			t.Fatal(msg + " (" + requireEnv + "=1 requires it)")
		}
		t.Skip(msg)
	}
	return tc
}

// result is what a Node process printed and how it ended.
type result struct {
	stdout, stderr string
	code           int
}

// run runs name (a program on the toolchain's PATH, or a path) with args in
// the directory cwd, under a timeout, with a small fixed environment: Node
// 22 first on PATH, a private HOME, Mastra telemetry off, the loopback
// guard preloaded, and Node's compile cache shared by the package's runs.
// It fails the test when the process cannot be run, times out, or the
// guard refused a connection.
func (tc toolchain) run(t testing.TB, timeout time.Duration, cwd, name string, args ...string) result {
	t.Helper()
	start := time.Now()
	res := tc.exec(t, timeout, cwd, name, args...)
	if strings.Contains(res.stderr, guardMarker) {
		t.Fatalf("%s %s tried to leave 127.0.0.1:\n%s", filepath.Base(name), strings.Join(args, " "), clip(res.stderr))
	}
	t.Logf("%s %s: exit %d in %v", filepath.Base(name), clip(strings.Join(args, " ")), res.code, time.Since(start).Round(time.Millisecond))
	return res
}

// exec is run without the guard check.
func (tc toolchain) exec(t testing.TB, timeout time.Duration, cwd, name string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = cwd
	cmd.Env = []string{
		"PATH=" + tc.bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"MASTRA_TELEMETRY_DISABLED=1",
		"NODE_OPTIONS=--import=" + tc.guard,
	}
	if compileCache != "" {
		cmd.Env = append(cmd.Env, "NODE_COMPILE_CACHE="+compileCache)
	}
	// A process killed at the deadline may leave its pipes open in a
	// child; stop waiting for them soon after.
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s %s: no answer within %v\nstderr: %s", filepath.Base(name), strings.Join(args, " "), timeout, clip(res.stderr))
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", filepath.Base(name), err)
	}
	return res
}

// clip shortens s for a failure message.
func clip(s string) string {
	const max = 4000
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
