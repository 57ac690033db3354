package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// The streaming half of the bad-input sweep (badinput_test.go): a
// client that goes away mid-stream cancels its run and leaves nothing
// behind, and 1,000 streams at once all finish with bounded memory.

// watchedModel wraps a model and reports each call: its context (sent
// on calls when the call starts) and how many parts it had yielded when
// its stream ended (sent on ended).
type watchedModel struct {
	model.LanguageModel
	calls chan context.Context
	ended chan int
}

func newWatchedModel(inner model.LanguageModel) *watchedModel {
	return &watchedModel{LanguageModel: inner, calls: make(chan context.Context, 16), ended: make(chan int, 16)}
}

func (m *watchedModel) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	inner := m.LanguageModel.Stream(ctx, req)
	return func(yield func(model.StreamPart, error) bool) {
		m.calls <- ctx
		n := 0
		defer func() { m.ended <- n }()
		for p, err := range inner {
			n++
			if !yield(p, err) {
				return
			}
		}
	}
}

// noRunStorage keeps the agent's runs in the process (no SQLite writes),
// as the anchor's agent does.
func noRunStorage(c *agent.Config) { c.Storage, c.Memory = nil, nil }

// verifyNoLeaks checks, once the test and its other cleanups are done,
// that no goroutine the test started is left. Call it first, so that its
// cleanup runs last (after the fixture's server has closed).
func verifyNoLeaks(t *testing.T) {
	t.Helper()
	existing := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, existing) })
}

// TestBadInputDisconnectMidStream: a client that goes away while the
// model is still streaming detaches its reader only: the model call's
// context stays alive, the model streams to its end, the run finishes
// (observed from 0 it ends with its finish), and no goroutine is left
// behind.
func TestBadInputDisconnectMidStream(t *testing.T) {
	verifyNoLeaks(t)
	const words = 400
	text := strings.Repeat("slow ", words)
	slow := newWatchedModel(mock.NewFunc(func(*model.Request) mock.Step {
		return mock.Step{Text: text, PartDelay: 5 * time.Millisecond}
	}))
	f := newFixture(t, withAgent(func(c *agent.Config) { noRunStorage(c); c.Model = slow }))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", f.ts.URL+"/api/agents/calc-agent/stream", strings.NewReader(`{"messages":"talk slowly"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// Read until the model is streaming text, then go away.
	br := bufio.NewReader(resp.Body)
	firstFrame, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	deltas := 0
	for deltas < 3 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before any text: %v", err)
		}
		if strings.Contains(line, `"type":"text-delta"`) {
			deltas++
		}
	}
	cancel()
	resp.Body.Close()

	select {
	case <-slow.calls:
	case <-time.After(5 * time.Second):
		t.Fatal("the model was never called")
	}
	select {
	case n := <-slow.ended:
		if n < words {
			t.Errorf("the model streamed %d parts: it stopped when the client went away", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the model's stream did not end")
	}
	runID := f.runIDOf(t, []byte(strings.TrimSpace(firstFrame)+"\n\n"))
	_, observed := f.do(t, "POST", "/api/agents/calc-agent/observe", `{"runId":"`+runID+`"}`)
	if last := lastEvent(t, observed); last["type"] != "finish" {
		t.Errorf("the run observed after the disconnect ends with %v", last["type"])
	}
}

// barrierModel is the anchor's scripted model (one add call, then "The
// sum is 5.") whose first call of each run waits until n runs have
// reached it, so that n streams are open at the same moment. all is
// closed then.
type barrierModel struct {
	n       int32
	arrived atomic.Int32
	all     chan struct{}
	inner   *mock.Model
}

// barrierWait bounds how long the runs wait for each other.
const barrierWait = 60 * time.Second

func newBarrierModel(n int) *barrierModel {
	return &barrierModel{n: int32(n), all: make(chan struct{}), inner: mock.NewFunc(func(req *model.Request) mock.Step {
		usage := model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}
		for _, m := range req.Messages {
			if m.Role == model.RoleTool {
				return mock.Step{Text: "The sum is 5.", Usage: usage}
			}
		}
		return mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "add", Args: `{"a":2,"b":3}`}}, Usage: usage}
	})}
}

func (m *barrierModel) Provider() string { return "mock-provider" }
func (m *barrierModel) ModelID() string  { return "scripted-mock" }

func (m *barrierModel) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	first := true
	for _, msg := range req.Messages {
		first = first && msg.Role != model.RoleTool
	}
	if first {
		if m.arrived.Add(1) == m.n {
			close(m.all)
		}
		t := time.NewTimer(barrierWait)
		defer t.Stop()
		select {
		case <-m.all:
		case <-ctx.Done():
		case <-t.C:
		}
	}
	return m.inner.Stream(ctx, req)
}

// heapInUse is the heap in use after two collections (the second
// empties the sync.Pools' victim caches).
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestBadInputThousandConcurrentStreams: 1,000 agent streams open at
// the same moment on one server (each a tool step then the answer) all
// end with data: [DONE], none with a 5xx; once they have ended and their
// connections closed, the heap in use is back within 32 MB of where it
// started (about 4 MB here; some 75 MB are in use while all are open),
// and no goroutine is left.
func TestBadInputThousandConcurrentStreams(t *testing.T) {
	const n = 1000
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < 2*n+256 {
		t.Skipf("needs %d open files (client and server ends of %d connections); the limit is %d", 2*n+256, n, lim.Cur)
	}
	verifyNoLeaks(t)
	bm := newBarrierModel(n)
	// Each run's event log is kept EventRetention after the run ends (30
	// s by default, for observers): swept at once here, so that what is
	// measured is what finished runs leave behind otherwise.
	f := newFixture(t, withAgent(func(c *agent.Config) { noRunStorage(c); c.Model = bm; c.EventRetention = time.Nanosecond }))
	tr := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: 0, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: barrierWait + 30*time.Second}

	before := heapInUse()
	goroutinesBefore := runtime.NumGoroutine()
	var openHeap uint64
	var openGoroutines int
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		select {
		case <-bm.all:
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			openHeap, openGoroutines = ms.HeapInuse, runtime.NumGoroutine()
		case <-time.After(barrierWait):
		}
	}()

	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- oneStream(client, f.ts.URL, i)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	<-sampled
	close(errs)
	failed := 0
	for err := range errs {
		if err != nil {
			failed++
			if failed <= 10 {
				t.Error(err)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d streams failed", failed, n)
	}
	if got := bm.arrived.Load(); got != n {
		t.Errorf("only %d of %d runs reached the model at once", got, n)
	}

	// Close the idle connections and let the server's end of each
	// notice, so that what is measured is what the runs left behind.
	tr.CloseIdleConnections()
	settleGoroutines(goroutinesBefore + 10)
	goroutinesAfter := runtime.NumGoroutine()
	after := heapInUse()
	growth := int64(after) - int64(before)
	t.Logf("%d streams in %v; heap in use %.1f MB before (%d goroutines), %.1f MB with all open (%d goroutines), %.1f MB after (%d goroutines): %+.1f MB",
		n, elapsed.Round(time.Millisecond), mb(before), goroutinesBefore, mb(openHeap), openGoroutines, mb(after), goroutinesAfter, float64(growth)/(1<<20))
	const bound = 32 << 20
	if growth > bound {
		t.Errorf("heap in use grew by %.1f MB over %d streams (bound %.0f MB): something keeps finished runs", float64(growth)/(1<<20), n, mb(bound))
	}
}

// settleGoroutines waits (up to 5 s) until at most n goroutines run.
func settleGoroutines(n int) {
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > n && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// oneStream runs stream i and checks it: 200, text/event-stream, the
// tool's result and the answer, data: [DONE] last.
func oneStream(client *http.Client, base string, i int) error {
	body := fmt.Sprintf(`{"messages":"What is 2+3?","runId":"c-%d"}`, i)
	resp, err := client.Post(base+"/api/agents/calc-agent/stream", "application/json", strings.NewReader(body))
	if err != nil {
		return fmt.Errorf("stream %d: %w", i, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("stream %d: reading: %w", i, err)
	}
	switch {
	case resp.StatusCode != 200:
		return fmt.Errorf("stream %d: status %d: %.300s", i, resp.StatusCode, b)
	case resp.Header.Get("Content-Type") != "text/event-stream":
		return fmt.Errorf("stream %d: Content-Type %q", i, resp.Header.Get("Content-Type"))
	case !bytes.HasSuffix(b, []byte("data: [DONE]\n\n")):
		return fmt.Errorf("stream %d: no final [DONE]: ...%s", i, b[max(0, len(b)-300):])
	case !bytes.Contains(b, []byte(`"result":{"sum":5}`)) || !bytes.Contains(b, []byte(fmt.Sprintf(`"runId":"c-%d"`, i))):
		return fmt.Errorf("stream %d: not the run's tool result: %.300s", i, b)
	}
	return nil
}
