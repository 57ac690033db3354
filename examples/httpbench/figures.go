package main

import (
	"math"
	"slices"
	"time"
)

// Figures are one server's measurements.
type Figures struct {
	// Server names the server ("gomastra" or "mastra").
	Server  string        `json:"server"`
	Start   StartFigures  `json:"start"`
	Latency []Latency     `json:"latency"`
	Memory  MemoryFigures `json:"memory"`
}

// StartFigures time process spawn → first 200 from GET /api/tools.
type StartFigures struct {
	RunsMS   []float64 `json:"runs_ms"`
	MedianMS float64   `json:"median_ms"`
}

// Latency is one request's sequential round-trip times over a
// keep-alive connection, after a warm-up, in microseconds. Quantiles
// are taken as the anchor's bench takes them: the sorted time at
// index floor(p·n).
type Latency struct {
	Request string  `json:"request"`
	N       int     `json:"n"`
	P50US   float64 `json:"p50_us"`
	P90US   float64 `json:"p90_us"`
	P99US   float64 `json:"p99_us"`
	MinUS   float64 `json:"min_us"`
}

// MemoryFigures are the server process's resident set, in KiB: idle
// after start, after every so many requests of the load phase, after
// the latency phase, and its peak.
type MemoryFigures struct {
	IdleKiB  int64       `json:"idle_kib"`
	Samples  []RSSSample `json:"load"`
	FinalKiB int64       `json:"final_kib"`
	PeakKiB  int64       `json:"peak_kib"`
}

// RSSSample is the resident set after Requests requests of the load
// phase.
type RSSSample struct {
	Requests int   `json:"requests"`
	RSSKiB   int64 `json:"rss_kib"`
}

// Report is what -json writes.
type Report struct {
	// N is the -n flag: requests per latency measurement and in the load
	// phase.
	N       int        `json:"n"`
	Servers []*Figures `json:"servers"`
}

// latencyOf summarises timed round trips (at least one).
func latencyOf(name string, times []time.Duration) Latency {
	t := slices.Clone(times)
	slices.Sort(t)
	q := func(p float64) float64 {
		i := min(len(t)-1, int(math.Floor(p*float64(len(t)))))
		return micros(t[i])
	}
	return Latency{Request: name, N: len(t), P50US: q(0.5), P90US: q(0.9), P99US: q(0.99), MinUS: micros(t[0])}
}

// micros is d in microseconds, to a tenth.
func micros(d time.Duration) float64 { return math.Round(float64(d)/100) / 10 }

// millis is d in milliseconds, to a hundredth.
func millis(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }

// median of a non-empty list.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
