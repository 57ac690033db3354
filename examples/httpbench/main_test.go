package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRun builds the Go server and measures it briefly (n=50), then
// checks the figures' structure (never their speed).
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the server")
	}
	out := filepath.Join(t.TempDir(), "figures.json")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-n", "50", "-starts", "2", "-every", "20", "-settle", "0s", "-json", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("figures are not JSON: %v\n%s", err, b)
	}
	if rep.N != 50 || len(rep.Servers) != 1 || rep.Servers[0].Server != "gomastra" {
		t.Fatalf("report %+v", rep)
	}
	f := rep.Servers[0]
	if len(f.Start.RunsMS) != 2 || f.Start.MedianMS <= 0 || !slices.Contains(f.Start.RunsMS, f.Start.MedianMS) && f.Start.MedianMS != (f.Start.RunsMS[0]+f.Start.RunsMS[1])/2 {
		t.Errorf("start %+v", f.Start)
	}
	wantReq := []string{
		"POST /api/tools/add/execute", "GET /api/tools",
		"POST /api/agents/calc-agent/generate (1 tool step)",
		"POST /api/agents/calc-agent/stream (1 tool step, SSE drained)",
		"GET /health (round-trip floor)",
	}
	if len(f.Latency) != len(wantReq) {
		t.Fatalf("%d latencies, want %d", len(f.Latency), len(wantReq))
	}
	for i, l := range f.Latency {
		if l.Request != wantReq[i] || l.N != 50 {
			t.Errorf("latency %d: %s n=%d", i, l.Request, l.N)
		}
		if !(0 < l.MinUS && l.MinUS <= l.P50US && l.P50US <= l.P90US && l.P90US <= l.P99US) {
			t.Errorf("%s: quantiles out of order %+v", l.Request, l)
		}
	}
	m := f.Memory
	if m.IdleKiB <= 0 || m.FinalKiB <= 0 || m.PeakKiB < m.FinalKiB || m.PeakKiB < m.IdleKiB {
		t.Errorf("memory %+v", m)
	}
	var at []int
	for _, s := range m.Samples {
		at = append(at, s.Requests)
		if s.RSSKiB <= 0 || s.RSSKiB > m.PeakKiB {
			t.Errorf("sample %+v (peak %d)", s, m.PeakKiB)
		}
	}
	if !slices.Equal(at, []int{20, 40, 50}) {
		t.Errorf("RSS read after %v requests, want [20 40 50]", at)
	}
	table := stdout.String()
	for _, want := range append(wantReq, "gomastra", "start → first answer (median of 2)", "RSS after 40 load requests", "RSS peak") {
		if !strings.Contains(table, want) {
			t.Errorf("table has no %q:\n%s", want, table)
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "0"}, {"-starts", "0"}, {"-every", "-1"}, {"-settle", "-1s"}, {"-nope"}, {"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// TestRunChecksTheAnchor: a folder that is not an installed anchor is
// refused before anything is built or started.
func TestRunChecksTheAnchor(t *testing.T) {
	var stdout, stderr bytes.Buffer
	dir := t.TempDir()
	code := run(context.Background(), []string{"-anchor", dir, "-go", "/nonexistent/go"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "is not an installed Mastra anchor (no server/server.mjs") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestBuildFailure: a go command that fails is reported.
func TestBuildFailure(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-go", "/nonexistent/go"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "go build") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestStartServerExitsEarly: a server that exits without answering is an
// error naming it, not a wait until the timeout.
func TestStartServerExitsEarly(t *testing.T) {
	launch := func(int) *exec.Cmd { return exec.Command(os.Args[0], "-test.run=^$") }
	t0 := time.Now()
	_, _, err := startServer(context.Background(), launch, newClient())
	if err == nil || !strings.Contains(err.Error(), "exited before answering") {
		t.Fatalf("err %v", err)
	}
	if time.Since(t0) > readyTimeout/2 {
		t.Error("waited for the timeout")
	}
}

// TestStartServerCancel: a cancelled context stops the wait and the
// process.
func TestStartServerCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	launch := func(int) *exec.Cmd { return exec.Command("sleep", "30") }
	if _, _, err := startServer(ctx, launch, newClient()); err != context.DeadlineExceeded {
		t.Fatalf("err %v", err)
	}
}

func TestParseStatus(t *testing.T) {
	status := "Name:\tcalcserver\nVmPeak:\t 1000 kB\nVmHWM:\t   22000 kB\nVmRSS:\t   21000 kB\nThreads:\t6\n"
	m, err := parseStatus([]byte(status))
	if err != nil || m.RSSKiB != 21000 || m.PeakKiB != 22000 {
		t.Errorf("%+v %v", m, err)
	}
	for _, bad := range []string{"Name:\tx\n", "VmRSS:\t12 MB\nVmHWM:\t1 kB\n", "VmRSS:\tx kB\nVmHWM:\t1 kB\n"} {
		if _, err := parseStatus([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	// This process's own status parses.
	if m, err := readMemory(os.Getpid()); err != nil || m.RSSKiB <= 0 {
		t.Errorf("own status: %+v %v", m, err)
	}
}

// TestLatencyOf: quantiles are the sorted times at floor(p·n), as the
// anchor's bench takes them.
func TestLatencyOf(t *testing.T) {
	var times []time.Duration
	for i := 100; i >= 1; i-- {
		times = append(times, time.Duration(i)*time.Microsecond)
	}
	l := latencyOf("x", times)
	if l.N != 100 || l.MinUS != 1 || l.P50US != 51 || l.P90US != 91 || l.P99US != 100 {
		t.Errorf("%+v", l)
	}
	if times[0] != 100*time.Microsecond {
		t.Error("latencyOf sorted its argument")
	}
	one := latencyOf("one", []time.Duration{1500 * time.Nanosecond})
	if one.P50US != 1.5 || one.P99US != 1.5 {
		t.Errorf("%+v", one)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v", c.xs, got)
		}
	}
}

// TestPrintTableSideBySide: two servers get a ratio column; a figure one
// server lacks shows as "-".
func TestPrintTableSideBySide(t *testing.T) {
	g := &Figures{Server: "gomastra", Start: StartFigures{RunsMS: []float64{10}, MedianMS: 10},
		Latency: []Latency{{Request: "GET /api/tools", N: 3, P50US: 100, P90US: 200, P99US: 300, MinUS: 50}},
		Memory:  MemoryFigures{IdleKiB: 10240, Samples: []RSSSample{{1000, 20480}}, FinalKiB: 20480, PeakKiB: 20480}}
	m := &Figures{Server: "mastra", Start: StartFigures{RunsMS: []float64{1400}, MedianMS: 1400},
		Latency: []Latency{{Request: "GET /api/tools", N: 3, P50US: 1000, P90US: 2000, P99US: 3000, MinUS: 500}},
		Memory:  MemoryFigures{IdleKiB: 204800, FinalKiB: 409600, PeakKiB: 409600}}
	var b bytes.Buffer
	if err := printTable(&b, nil); err == nil {
		t.Error("no error for no figures")
	}
	if err := printTable(&b, []*Figures{g, m}); err != nil {
		t.Fatal(err)
	}
	header := strings.Fields(strings.SplitN(b.String(), "\n", 2)[0])
	if !slices.Equal(header, []string{"gomastra", "mastra", "mastra", "/", "gomastra"}) {
		t.Errorf("header %q", header)
	}
	for _, want := range []string{
		"start → first answer (median of 1)",
		"10.00 ms", "1400 ms", "×140",
		"GET /api/tools (n=3) p50", "100.0 µs", "1.00 ms", "×10",
		"RSS idle", "10.0 MiB", "200.0 MiB", "×20",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	var after string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "RSS after 1000 load requests") {
			after = line
		}
	}
	if f := strings.Fields(after); len(f) < 3 || f[len(f)-1] != "-" || f[len(f)-2] != "-" {
		t.Errorf("missing sample not shown as -: %q", after)
	}
}
