package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// options are the measurement's parameters.
type options struct {
	// n is the load phase's request count and each latency
	// measurement's (agent runs: at most 300, as the anchor's bench).
	n int
	// starts is how many times the server is started for the start time.
	starts int
	// every is how many load requests go between two RSS readings.
	every int
	// settle is the pause between start and the idle RSS reading.
	settle time.Duration
}

func (o options) check() error {
	switch {
	case o.n < 1:
		return errors.New("-n must be at least 1")
	case o.starts < 1:
		return errors.New("-starts must be at least 1")
	case o.every < 1:
		return errors.New("-every must be at least 1")
	case o.settle < 0:
		return errors.New("-settle must not be negative")
	}
	return nil
}

// warmups is how many untimed requests go before each latency
// measurement (at most; the anchor's bench warms up with min(200, n)).
const warmups = 200

// newClient is the benchmark's HTTP client: keep-alive, no proxy, no
// compression asked for.
func newClient() *http.Client {
	return &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true, IdleConnTimeout: time.Minute},
	}
}

// measure starts the server launch makes opts.starts times (the start
// time), then on the last one: the idle RSS, the load phase (opts.n
// requests cycling through the four requests, RSS after every
// opts.every), the latency of each request and of the floor, and the
// final and peak RSS.
// progress gets one line per phase.
func measure(ctx context.Context, name string, launch launcher, opts options, progress io.Writer) (*Figures, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	fig := &Figures{Server: name}
	client := newClient()
	defer client.CloseIdleConnections()
	var srv *server
	for i := range opts.starts {
		s, d, err := startServer(ctx, launch, client)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		fig.Start.RunsMS = append(fig.Start.RunsMS, millis(d))
		if i < opts.starts-1 {
			s.stop()
			client.CloseIdleConnections()
			continue
		}
		srv = s
	}
	defer srv.stop()
	fig.Start.MedianMS = median(fig.Start.RunsMS)
	fmt.Fprintf(progress, "%s: started in %v ms (median %v ms), pid %d\n", name, fig.Start.RunsMS, fig.Start.MedianMS, srv.pid())

	if err := sleep(ctx, opts.settle); err != nil {
		return nil, err
	}
	mem, err := readMemory(srv.pid())
	if err != nil {
		return nil, err
	}
	fig.Memory.IdleKiB = mem.RSSKiB

	if err := loadPhase(ctx, client, srv, opts, &fig.Memory); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fmt.Fprintf(progress, "%s: %d requests of load, RSS %d → %d KiB\n", name, opts.n, fig.Memory.IdleKiB, fig.Memory.Samples[len(fig.Memory.Samples)-1].RSSKiB)

	for _, rq := range append(requests[:len(requests):len(requests)], floor) {
		lat, err := timeRequest(ctx, client, srv.base, rq, opts.n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		fig.Latency = append(fig.Latency, lat)
		fmt.Fprintf(progress, "%s: %s: p50 %v µs\n", name, rq.name, lat.P50US)
	}
	if mem, err = readMemory(srv.pid()); err != nil {
		return nil, err
	}
	fig.Memory.FinalKiB, fig.Memory.PeakKiB = mem.RSSKiB, mem.PeakKiB
	return fig, nil
}

// loadPhase sends opts.n requests, cycling through the four, and reads
// the server's RSS after every opts.every of them and after the last.
func loadPhase(ctx context.Context, client *http.Client, srv *server, opts options, mf *MemoryFigures) error {
	for i := range opts.n {
		if err := requests[i%len(requests)].do(ctx, client, srv.base, i); err != nil {
			return err
		}
		if done := i + 1; done%opts.every == 0 || done == opts.n {
			mem, err := readMemory(srv.pid())
			if err != nil {
				return err
			}
			mf.Samples = append(mf.Samples, RSSSample{Requests: done, RSSKiB: mem.RSSKiB})
		}
	}
	return nil
}

// timeRequest warms up with min(200, n) requests, then times n of them
// one after another (n capped by the request's maxN).
func timeRequest(ctx context.Context, client *http.Client, base string, rq request, n int) (Latency, error) {
	if rq.maxN > 0 {
		n = min(n, rq.maxN)
	}
	for i := range min(warmups, n) {
		if err := rq.do(ctx, client, base, i); err != nil {
			return Latency{}, err
		}
	}
	times := make([]time.Duration, n)
	for i := range n {
		t0 := time.Now()
		if err := rq.do(ctx, client, base, i); err != nil {
			return Latency{}, err
		}
		times[i] = time.Since(t0)
	}
	return latencyOf(rq.name, times), nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
