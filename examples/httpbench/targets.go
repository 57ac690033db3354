package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/examples/httpbench/app"
)

// calcServerPkg is the Go server's main package (package app behind
// package serve).
const calcServerPkg = "github.com/gomastra/mastra/examples/httpbench/calcserver"

// buildGoServer builds the Go server into dir with the go command goCmd
// (run from the current directory, which must be inside the module) and
// returns the binary's path.
func buildGoServer(ctx context.Context, goCmd, dir string) (string, error) {
	bin := filepath.Join(dir, "calcserver")
	cmd := exec.CommandContext(ctx, goCmd, "build", "-o", bin, calcServerPkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", calcServerPkg, err, out)
	}
	return bin, nil
}

// goLauncher serves package app with the binary bin: storage in memory,
// calc-agent's runs in it when agentStorage is set.
func goLauncher(bin string, agentStorage bool) launcher {
	return func(port int) *exec.Cmd {
		cmd := exec.Command(bin, "-host", "127.0.0.1", "-port", strconv.Itoa(port), "-storage", ":memory:")
		cmd.Env = append(os.Environ(), app.AgentStorageEnv+"="+strconv.FormatBool(agentStorage))
		return cmd
	}
}

// anchorNode is where an anchor copy keeps its Node 22.
const anchorNode = "nodebin/node_modules/.bin/node"

// mastraLauncher serves the Mastra anchor in dir (a copy with its
// node_modules installed): node server/server.mjs with PORT, Node 22
// first on PATH and Mastra's telemetry off. It checks the copy first.
func mastraLauncher(dir string) (launcher, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, need := range []string{"server/server.mjs", anchorNode, "node_modules/@mastra/core"} {
		if _, err := os.Stat(filepath.Join(abs, need)); err != nil {
			return nil, fmt.Errorf("-anchor %s is not an installed Mastra anchor (no %s; run its setup.sh)", dir, need)
		}
	}
	node := filepath.Join(abs, anchorNode)
	return func(port int) *exec.Cmd {
		cmd := exec.Command(node, "server/server.mjs")
		cmd.Dir = abs
		cmd.Env = append(withoutVars(os.Environ(), "PATH", "PORT", "MASTRA_TELEMETRY_DISABLED"),
			"PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"),
			"PORT="+strconv.Itoa(port), "MASTRA_TELEMETRY_DISABLED=1")
		return cmd
	}, nil
}

// withoutVars drops the named variables from an environment list.
func withoutVars(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			keep = keep && name != n
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
