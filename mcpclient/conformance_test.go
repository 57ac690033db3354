package mcpclient

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The official conformance suite drives the client (interop/conformanceclient,
// built on this package) through every client scenario it has: the core ones
// one at a time (one of them checks reconnection timing, which parallel runs
// on a loaded machine would skew), the auth ones as parallel suites. The
// known failures (features the client does not implement: elicitation,
// OAuth) are listed in interop/conformance-baseline.yml; the suite exits
// non-zero on any other failure and on a listed scenario that passes.
func TestInteropConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance suite skipped in -short mode")
	}
	p := peers(t)
	dir := t.TempDir()
	client := filepath.Join(dir, "conformance-client")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the conformance client: %v", err)
	}
	build := exec.Command(goBin, "build", "-o", client, "./interop/conformanceclient")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the conformance client: %v\n%s", err, out)
	}
	baseline, err := filepath.Abs(filepath.Join("interop", "conformance-baseline.yml"))
	if err != nil {
		t.Fatal(err)
	}
	conformance := func(args ...string) (string, error) {
		cmd := exec.Command(p.node, append([]string{"--import", p.loopback, p.conformance}, args...)...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	list, err := conformance("list", "--client")
	if err != nil {
		t.Fatalf("listing scenarios: %v\n%s", err, list)
	}
	var core []string
	for _, line := range strings.Split(list, "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, " ")
		if !strings.HasPrefix(name, "auth/") {
			core = append(core, name)
		}
	}
	if len(core) < 4 {
		t.Fatalf("found core scenarios %v in:\n%s", core, list)
	}
	run := []string{"client", "--command", client, "--expected-failures", baseline, "--timeout", "20000", "-o", filepath.Join(dir, "results")}
	for _, scenario := range core {
		out, err := conformance(append(run, "--scenario", scenario)...)
		t.Logf("scenario %s:\n%s", scenario, checkLines(out))
		if err != nil {
			t.Errorf("scenario %s: %v\n%s", scenario, err, out)
		}
	}
	// The auth/* scenarios, by suite (their spec versions differ).
	for _, suite := range []string{"auth", "backcompat", "draft", "extensions"} {
		out, err := conformance(append(run, "--suite", suite)...)
		summary := out
		if i := strings.Index(out, "=== SUITE SUMMARY ==="); i >= 0 {
			summary = out[i:]
		}
		t.Logf("%s suite:\n%s", suite, summary)
		if err != nil {
			t.Errorf("%s suite: %v", suite, err)
		}
		if os.Getenv("GOMASTRA_CONFORMANCE_VERBOSE") == "1" {
			t.Log(out)
		}
	}
}

// checkLines keeps the check results and the verdict of a scenario's
// output.
func checkLines(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "SUCCESS") || strings.Contains(line, "FAILURE") || strings.Contains(line, "WARNING") ||
			strings.Contains(line, "Baseline") || strings.Contains(line, "~ ") || strings.Contains(line, "passed") {
			keep = append(keep, strings.TrimSpace(line))
		}
	}
	return strings.Join(keep, "\n")
}
