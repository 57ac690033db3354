package observational

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/storage"
)

// DefaultHistoryLimit is how many generations History returns when
// HistoryQuery.Limit is 0 (the default of Mastra's route).
const DefaultHistoryLimit = 5

// History's storage: the previous generations of a thread's record are
// kept in the thread's state of type HistoryStateType, those of a
// resource's record in its Metadata under HistoryMetadataKey, newest
// first.
const (
	HistoryStateType   = "observational-memory-history"
	HistoryMetadataKey = "observationalMemoryHistory"
)

// HistoryQuery selects generations of a record (Mastra's
// getObservationalMemoryHistory options).
type HistoryQuery struct {
	// Limit is how many generations to return (0: DefaultHistoryLimit;
	// negative: all); Offset how many of the selected to skip first.
	Limit, Offset int
	// From and To, when set, keep the generations created at or after
	// From and at or before To.
	From, To *time.Time
}

// History returns the generations of a thread's (or, in resource scope,
// its resource's) record, newest first: the current one, then those
// each reflection replaced. It returns none when no record is stored.
func (p *Processor) History(ctx context.Context, threadID, resourceID string, q HistoryQuery) ([]Record, error) {
	cur, ok, err := p.load(ctx, threadID, resourceID)
	if err != nil || !ok {
		return nil, err
	}
	old, err := p.loadHistory(ctx, threadID, resourceID)
	if err != nil {
		return nil, err
	}
	p.flags(&cur)
	all := append([]Record{cur}, old...)
	var out []Record
	for _, r := range all {
		if (q.From == nil || !r.CreatedAt.Before(*q.From)) && (q.To == nil || !r.CreatedAt.After(*q.To)) {
			out = append(out, r)
		}
	}
	out = out[min(max(q.Offset, 0), len(out)):]
	limit := q.Limit
	if limit == 0 {
		limit = DefaultHistoryLimit
	}
	if limit > 0 && limit < len(out) {
		out = out[:limit]
	}
	return out, nil
}

// loadHistory reads the previous generations, newest first.
func (p *Processor) loadHistory(ctx context.Context, threadID, resourceID string) ([]Record, error) {
	var raw []byte
	if p.cfg.Scope == ScopeResource {
		r, err := p.cfg.Storage.GetResource(ctx, resourceID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("observational memory: reading resource %s: %w", resourceID, err)
		case r.Metadata[HistoryMetadataKey] == nil:
			return nil, nil
		}
		if raw, err = json.Marshal(r.Metadata[HistoryMetadataKey]); err != nil {
			return nil, fmt.Errorf("observational memory: resource %s: %w", resourceID, err)
		}
	} else {
		v, ok, err := p.cfg.Storage.GetThreadState(ctx, threadID, HistoryStateType)
		if err != nil {
			return nil, fmt.Errorf("observational memory: reading thread %s: %w", threadID, err)
		}
		if !ok {
			return nil, nil
		}
		raw = v
	}
	var out []Record
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("observational memory: the stored history is unreadable: %w", err)
	}
	return out, nil
}

// archive adds old, a generation a reflection replaced, to the history.
func (p *Processor) archive(ctx context.Context, old Record) error {
	prev, err := p.loadHistory(ctx, old.ThreadID, old.ResourceID)
	if err != nil {
		return err
	}
	old.BufferedObservationChunks, old.BufferedObservations = nil, ""
	old.IsObserving, old.IsReflecting, old.IsBufferingObservation, old.IsBufferingReflection = false, false, false, false
	all := append([]Record{old}, prev...)
	raw, err := json.Marshal(all)
	if err != nil {
		return fmt.Errorf("observational memory: %w", err)
	}
	if p.cfg.Scope == ScopeThread {
		if err := p.cfg.Storage.SetThreadState(ctx, old.ThreadID, HistoryStateType, raw); err != nil {
			return fmt.Errorf("observational memory: saving the history: %w", err)
		}
		return nil
	}
	var v []any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("observational memory: %w", err)
	}
	return p.setResourceMetadata(ctx, old.ResourceID, HistoryMetadataKey, v)
}
