package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// row is one line of the table: a label and one value per server (NaN
// when a server has none).
type row struct {
	label  string
	values []float64
	format func(float64) string
}

// printTable writes the servers' figures side by side, with the ratio
// of the second server's to the first's when there are two.
func printTable(w io.Writer, figs []*Figures) error {
	if len(figs) == 0 {
		return errors.New("no figures to print")
	}
	rows := tableRows(figs)
	header := []string{""}
	for _, f := range figs {
		header = append(header, f.Server)
	}
	if len(figs) == 2 {
		header = append(header, figs[1].Server+" / "+figs[0].Server)
	}
	lines := [][]string{header}
	for _, r := range rows {
		line := []string{r.label}
		for _, v := range r.values {
			line = append(line, r.format(v))
		}
		if len(r.values) == 2 {
			ratio := "-"
			if r.values[0] > 0 && !math.IsNaN(r.values[1]) {
				ratio = fmt.Sprintf("×%.3g", r.values[1]/r.values[0])
			}
			line = append(line, ratio)
		}
		lines = append(lines, line)
	}
	widths := make([]int, len(header))
	for _, l := range lines {
		for i, cell := range l {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, l := range lines {
		for i, cell := range l {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				b.WriteString(cell + pad)
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tableRows lays the figures out: start time, the latency quantiles of
// each request, then memory.
func tableRows(figs []*Figures) []row {
	col := func(get func(*Figures) float64) []float64 {
		vs := make([]float64, len(figs))
		for i, f := range figs {
			vs[i] = get(f)
		}
		return vs
	}
	rows := []row{{label: fmt.Sprintf("start → first answer (median of %d)", len(figs[0].Start.RunsMS)),
		values: col(func(f *Figures) float64 { return f.Start.MedianMS * 1000 }), format: formatMicros}}
	for i, l := range figs[0].Latency {
		at := func(f *Figures) *Latency {
			if i < len(f.Latency) {
				return &f.Latency[i]
			}
			return nil
		}
		for _, q := range []struct {
			name string
			get  func(*Latency) float64
		}{{"p50", func(l *Latency) float64 { return l.P50US }}, {"p90", func(l *Latency) float64 { return l.P90US }}, {"p99", func(l *Latency) float64 { return l.P99US }}} {
			label := "  " + q.name
			if q.name == "p50" {
				label = l.Request + " (n=" + strconv.Itoa(l.N) + ") " + q.name
			}
			rows = append(rows, row{label: label, format: formatMicros, values: col(func(f *Figures) float64 {
				if l := at(f); l != nil {
					return q.get(l)
				}
				return math.NaN()
			})})
		}
	}
	rows = append(rows, row{label: "RSS idle", format: formatKiB, values: col(func(f *Figures) float64 { return float64(f.Memory.IdleKiB) })})
	for i, s := range figs[0].Memory.Samples {
		rows = append(rows, row{label: fmt.Sprintf("RSS after %d load requests", s.Requests), format: formatKiB, values: col(func(f *Figures) float64 {
			if i < len(f.Memory.Samples) {
				return float64(f.Memory.Samples[i].RSSKiB)
			}
			return math.NaN()
		})})
	}
	rows = append(rows,
		row{label: "RSS after the latency runs", format: formatKiB, values: col(func(f *Figures) float64 { return float64(f.Memory.FinalKiB) })},
		row{label: "RSS peak", format: formatKiB, values: col(func(f *Figures) float64 { return float64(f.Memory.PeakKiB) })})
	return rows
}

// formatMicros shows a time in µs below a millisecond, else in ms.
func formatMicros(us float64) string {
	switch {
	case math.IsNaN(us):
		return "-"
	case us < 1000:
		return fmt.Sprintf("%.1f µs", us)
	case us < 100000:
		return fmt.Sprintf("%.2f ms", us/1000)
	default:
		return fmt.Sprintf("%.0f ms", us/1000)
	}
}

// formatKiB shows a size in MiB.
func formatKiB(kib float64) string {
	if math.IsNaN(kib) {
		return "-"
	}
	return fmt.Sprintf("%.1f MiB", kib/1024)
}

// writeJSON writes the report to path ("-" for w).
func writeJSON(path string, w io.Writer, rep *Report) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "-" {
		_, err = w.Write(b)
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
