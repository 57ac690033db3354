package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"
)

// buildProgressEvery is how often a long build says it is still going.
const buildProgressEvery = 10 * time.Second

// build compiles the app into bin, telling the user: that it builds, how
// far it got while it takes long (a first build compiles every
// dependency), and what failed.
func build(ctx context.Context, o appOptions, bin string, stderr io.Writer) error {
	fmt.Fprintf(stderr, "mastra: building %s …\n", o.dir)
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, "go", "build", "-v", "-o", bin, ".")
	cmd.Dir = o.dir
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	var compiled atomic.Int64
	stop := reportProgress(stderr, t0, &compiled)
	problems := readBuildOutput(pipe, &compiled)
	err = cmd.Wait()
	stop()
	if err != nil {
		fmt.Fprintf(stderr, "mastra: build failed:\n%s", problems)
		return fmt.Errorf("build failed")
	}
	fmt.Fprintf(stderr, "mastra: built in %s\n", time.Since(t0).Round(time.Millisecond))
	return nil
}

// readBuildOutput reads `go build -v` until it ends: the packages it
// compiles (bare import paths) are counted, everything else is what the
// build has to say, returned.
func readBuildOutput(r io.Reader, compiled *atomic.Int64) string {
	var problems strings.Builder
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if isPackageLine(line) {
			compiled.Add(1)
			continue
		}
		problems.WriteString(line + "\n")
	}
	return problems.String()
}

// isPackageLine tells a line of `go build -v` naming a compiled package
// ("net/http", "example.com/app/tools") from a diagnostic, which has a
// space or a colon ("# pkg", "./main.go:3:2: …").
func isPackageLine(line string) bool {
	return line != "" && !strings.ContainsAny(line, " \t:")
}

// reportProgress says every buildProgressEvery how long the build has
// taken and how many packages it compiled; stop ends the reports.
func reportProgress(w io.Writer, t0 time.Time, compiled *atomic.Int64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(buildProgressEvery)
		defer tick.Stop()
		first := true
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				fmt.Fprintf(w, "mastra: still building (%s, %d packages compiled)", time.Since(t0).Round(time.Second), compiled.Load())
				if first {
					fmt.Fprint(w, "; a first build compiles every dependency and can take a few minutes, later ones take seconds")
					first = false
				}
				fmt.Fprintln(w)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
