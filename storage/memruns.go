package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// NewMemoryRuns returns Runs kept in this process's memory: what agents
// and workflows use when no storage is configured (their runs then
// resume only in this process). It keeps every contract of Runs.
func NewMemoryRuns() Runs {
	return &memoryRuns{runs: map[string]Run{}, claims: map[string]map[string]bool{}}
}

type memoryRuns struct {
	mu     sync.Mutex
	runs   map[string]Run
	claims map[string]map[string]bool // run id → claimed keys
}

func (m *memoryRuns) SaveRun(_ context.Context, r Run) (int64, error) {
	if err := CheckRun(r); err != nil {
		return 0, fmt.Errorf("memory: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.runs[r.RunID]
	if (ok && old.Version != r.Version) || (!ok && r.Version != 0) {
		return 0, fmt.Errorf("memory: run %s: version %d: %w", r.RunID, r.Version, ErrConflict)
	}
	now := time.Now().UTC()
	r.Version++
	r.UpdatedAt = now
	switch {
	case ok:
		r.CreatedAt = old.CreatedAt
	case r.CreatedAt.IsZero():
		r.CreatedAt = now
	default:
		r.CreatedAt = r.CreatedAt.UTC()
	}
	r.Snapshot = slices.Clone(r.Snapshot)
	r.Deltas = nil // a save is a new snapshot
	m.runs[r.RunID] = r
	return r.Version, nil
}

func (m *memoryRuns) AppendRun(_ context.Context, runID string, version int64, status string, delta json.RawMessage) (int64, error) {
	if err := CheckAppend(runID, version, delta); err != nil {
		return 0, fmt.Errorf("memory: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.runs[runID]
	switch {
	case !ok:
		return 0, fmt.Errorf("memory: append run %s: %w", runID, ErrNotFound)
	case r.Version != version:
		return 0, fmt.Errorf("memory: append run %s: version %d is not the stored one: %w", runID, version, ErrConflict)
	}
	r.Version++
	r.Status = status
	r.UpdatedAt = time.Now().UTC()
	r.Deltas = append(r.Deltas, slices.Clone(delta))
	m.runs[runID] = r
	return r.Version, nil
}

// copyRun is r as a reader gets it: its deltas in a slice of its own,
// which the run's later appends do not touch.
func copyRun(r Run) Run {
	r.Deltas = slices.Clone(r.Deltas)
	return r
}

func (m *memoryRuns) GetRun(_ context.Context, runID string) (*Run, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.runs[runID]
	if !ok {
		return nil, fmt.Errorf("memory: run %s: %w", runID, ErrNotFound)
	}
	r = copyRun(r)
	return &r, nil
}

func (m *memoryRuns) ListRuns(_ context.Context, f RunFilter) ([]Run, int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Run
	for _, r := range m.runs {
		if (f.Kind == "" || r.Kind == f.Kind) && (f.Name == "" || r.Name == f.Name) && (f.ThreadID == "" || r.ThreadID == f.ThreadID) &&
			(f.ResourceID == "" || r.ResourceID == f.ResourceID) && (f.Status == "" || r.Status == f.Status) &&
			inRange(runTime(r, f.ByCreation), f.From, f.To) {
			out = append(out, copyRun(r))
		}
	}
	slices.SortFunc(out, func(a, b Run) int {
		if c := runTime(b, f.ByCreation).Compare(runTime(a, f.ByCreation)); c != 0 {
			return c
		}
		return strings.Compare(a.RunID, b.RunID)
	})
	total := len(out)
	if f.PerPage > 0 {
		start := min(f.Page*f.PerPage, total)
		out = out[start:min(start+f.PerPage, total)]
	}
	return out, total, nil
}

// runTime is the time a filter bounds and orders r by: CreatedAt when
// byCreation, else UpdatedAt.
func runTime(r Run, byCreation bool) time.Time {
	if byCreation {
		return r.CreatedAt
	}
	return r.UpdatedAt
}

// inRange reports whether t is within [from, to], a zero bound being
// none.
func inRange(t, from, to time.Time) bool {
	return (from.IsZero() || !t.Before(from)) && (to.IsZero() || !t.After(to))
}

func (m *memoryRuns) DeleteFinishedRuns(_ context.Context, f FinishedRuns) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var finished []Run
	for _, r := range m.runs {
		if r.Kind == f.Kind && (f.Name == "" || r.Name == f.Name) && Finished(r.Status) {
			finished = append(finished, r)
		}
	}
	slices.SortFunc(finished, func(a, b Run) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	removed := 0
	for i, r := range finished {
		if (f.Keep > 0 && i >= f.Keep) || (!f.Before.IsZero() && r.UpdatedAt.Before(f.Before)) {
			delete(m.runs, r.RunID)
			delete(m.claims, r.RunID)
			removed++
		}
	}
	return removed, nil
}

func (m *memoryRuns) DeleteRun(_ context.Context, runID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.runs, runID)
	delete(m.claims, runID)
	return nil
}

func (m *memoryRuns) ClaimResume(_ context.Context, runID, key, _ string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.runs[runID]; !ok {
		return fmt.Errorf("memory: claim on run %s: %w", runID, ErrNotFound)
	}
	if m.claims[runID][key] {
		return fmt.Errorf("memory: run %s: resume %q already claimed: %w", runID, key, ErrConflict)
	}
	if m.claims[runID] == nil {
		m.claims[runID] = map[string]bool{}
	}
	m.claims[runID][key] = true
	return nil
}
