package observational

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// Load returns the current record of a thread (or of its resource, in
// resource scope), its Is* flags set from this process's work in
// progress; a new empty one when none is stored (Stored tells the two
// apart).
func (p *Processor) Load(ctx context.Context, threadID, resourceID string) (Record, error) {
	rec, ok, err := p.load(ctx, threadID, resourceID)
	if err != nil {
		return Record{}, err
	}
	if !ok {
		rec = p.newRecord(threadID, resourceID)
	}
	p.flags(&rec)
	return rec, nil
}

// Stored returns the current stored record of a thread (or of its
// resource, in resource scope), its Is* flags set as Load sets them; ok
// is false when none is stored (Mastra's GET
// /memory/observational-memory then answers a null record).
func (p *Processor) Stored(ctx context.Context, threadID, resourceID string) (rec Record, ok bool, err error) {
	rec, ok, err = p.load(ctx, threadID, resourceID)
	if ok {
		p.flags(&rec)
	}
	return rec, ok, err
}

// newRecord is the first, empty generation of a record.
func (p *Processor) newRecord(threadID, resourceID string) Record {
	now := p.cfg.Now().UTC()
	rec := Record{ID: p.key(threadID, resourceID), Scope: p.cfg.Scope, ResourceID: resourceID, OriginType: OriginInitial,
		Config: p.recordConfig(), ObservedTimezone: p.cfg.Location.String(), CreatedAt: now, UpdatedAt: now}
	if p.cfg.Scope == ScopeThread {
		rec.ThreadID = threadID
	}
	return rec
}

// load reads the stored record; ok is false when there is none.
func (p *Processor) load(ctx context.Context, threadID, resourceID string) (rec Record, ok bool, err error) {
	var raw json.RawMessage
	if p.cfg.Scope == ScopeResource {
		r, err := p.cfg.Storage.GetResource(ctx, resourceID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
		case err != nil:
			return Record{}, false, fmt.Errorf("observational memory: reading resource %s: %w", resourceID, err)
		case r.Metadata[MetadataKey] != nil:
			if raw, err = json.Marshal(r.Metadata[MetadataKey]); err != nil {
				return Record{}, false, fmt.Errorf("observational memory: resource %s: %w", resourceID, err)
			}
		}
	} else {
		v, found, err := p.cfg.Storage.GetThreadState(ctx, threadID, StateType)
		if err != nil {
			return Record{}, false, fmt.Errorf("observational memory: reading thread %s: %w", threadID, err)
		}
		if found {
			raw = v
		}
	}
	if len(raw) == 0 {
		return Record{}, false, nil
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return Record{}, false, fmt.Errorf("observational memory: the stored record is unreadable: %w", err)
	}
	if rec.Scope == "" {
		rec.Scope = p.cfg.Scope
	}
	if rec.ResourceID == "" {
		rec.ResourceID = resourceID
	}
	if rec.Config == nil { // a record of an earlier version
		rec.Config = p.recordConfig()
	}
	return rec, true, nil
}

// save stores rec as the current record.
func (p *Processor) save(ctx context.Context, rec Record) error {
	rec.UpdatedAt = p.cfg.Now().UTC()
	rec.IsObserving, rec.IsReflecting, rec.IsBufferingObservation, rec.IsBufferingReflection = false, false, false, false
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("observational memory: %w", err)
	}
	if p.cfg.Scope == ScopeThread {
		if err := p.cfg.Storage.SetThreadState(ctx, rec.ThreadID, StateType, raw); err != nil {
			return fmt.Errorf("observational memory: saving: %w", err)
		}
		return nil
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("observational memory: %w", err)
	}
	return p.setResourceMetadata(ctx, rec.ResourceID, MetadataKey, v)
}

// setResourceMetadata sets one key of a resource's Metadata, creating
// the resource when need be.
func (p *Processor) setResourceMetadata(ctx context.Context, resourceID, key string, v any) error {
	r, err := p.cfg.Storage.GetResource(ctx, resourceID)
	if errors.Is(err, storage.ErrNotFound) {
		r, err = &storage.Resource{ID: resourceID}, nil
	}
	if err != nil {
		return fmt.Errorf("observational memory: reading resource %s: %w", resourceID, err)
	}
	if r.Metadata == nil {
		r.Metadata = map[string]any{}
	}
	r.Metadata[key] = v
	if err := p.cfg.Storage.SaveResource(ctx, *r); err != nil {
		return fmt.Errorf("observational memory: saving: %w", err)
	}
	return nil
}

// busyFlags are the synchronous work in progress on a record.
type busyFlags struct{ observing, reflecting bool }

// flags sets rec's Is* fields from this process's work in progress.
func (p *Processor) flags(rec *Record) {
	key := p.key(rec.ThreadID, rec.ResourceID)
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.busy[key]
	rec.IsObserving, rec.IsReflecting = b.observing, b.reflecting
	rec.IsBufferingObservation = p.buffers[key] != nil
	rec.IsBufferingReflection = p.reflections[key] != nil
}

// setBusy notes synchronous work starting or ending on a record.
func (p *Processor) setBusy(key string, f func(*busyFlags)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.busy[key]
	f(&b)
	if b == (busyFlags{}) {
		delete(p.busy, key)
	} else {
		p.busy[key] = b
	}
}
