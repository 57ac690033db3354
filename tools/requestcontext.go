package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/gomastra/mastra/schema"
)

// RequestContext is Mastra's request context: string keys to values, set by
// the caller of a run (or an HTTP request) and read by tools, sub-agents and
// workflows. Keys keep their insertion order. It is safe for concurrent use.
//
// A tool with a RequestContextSchema receives a view instead: reads see the
// caller's values overlaid with the schema's parsed output, and writes go
// back to the caller's context (see [RequestContext.Set]).
type RequestContext struct {
	mu   sync.RWMutex
	keys []string
	m    map[string]any

	// set on views only
	source  *RequestContext
	schema  schema.Schema
	overlay map[string]any
}

// NewRequestContext returns a context holding entries (in sorted key order,
// since a Go map has none).
func NewRequestContext(entries map[string]any) *RequestContext {
	rc := &RequestContext{}
	if len(entries) == 0 {
		return rc
	}
	rc.m = make(map[string]any, len(entries))
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		rc.keys = append(rc.keys, k)
		rc.m[k] = entries[k]
	}
	return rc
}

// Get returns the value under key.
func (rc *RequestContext) Get(key string) (any, bool) {
	if rc == nil {
		return nil, false
	}
	if rc.source != nil {
		rc.mu.RLock()
		v, ok := rc.overlay[key]
		rc.mu.RUnlock()
		if ok {
			return v, true
		}
		return rc.source.Get(key)
	}
	rc.mu.RLock()
	defer rc.mu.RUnlock()
	v, ok := rc.m[key]
	return v, ok
}

// Has reports whether key is set.
func (rc *RequestContext) Has(key string) bool {
	_, ok := rc.Get(key)
	return ok
}

// Set stores value under key. On a plain context it always succeeds. On a
// tool's validated view the value is written back to the caller's context
// only if the caller's values still satisfy the schema with it; otherwise
// nothing changes and the error says "Unable to persist request context key
// <key>".
func (rc *RequestContext) Set(key string, value any) error {
	if rc.source != nil {
		return rc.setThroughView(key, value)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.m == nil {
		rc.m = map[string]any{}
	}
	if _, ok := rc.m[key]; !ok {
		rc.keys = append(rc.keys, key)
	}
	rc.m[key] = value
	return nil
}

func (rc *RequestContext) setThroughView(key string, value any) error {
	candidate := rc.source.All()
	candidate[key] = value
	decoded, err := toJSONValue(candidate)
	if err != nil {
		return &PersistError{Key: key, Reason: err.Error()}
	}
	out, issues := rc.schema.Validate(decoded)
	if len(issues) > 0 {
		return &PersistError{Key: key, Reason: issues[0].PathString() + ": " + issues[0].Message}
	}
	if err := rc.source.Set(key, value); err != nil {
		return err
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if parsed, ok := out.(map[string]any); ok {
		if pv, ok := parsed[key]; ok {
			rc.overlay[key] = pv
			return nil
		}
	}
	delete(rc.overlay, key)
	return nil
}

// PersistError is returned by Set on a tool's validated view when the new
// value would make the caller's request context invalid.
type PersistError struct {
	Key    string
	Reason string
}

func (e *PersistError) Error() string {
	return fmt.Sprintf("Unable to persist request context key %q: %s", e.Key, e.Reason)
}

// Delete removes key (from the caller's context too, through a view).
func (rc *RequestContext) Delete(key string) {
	if rc.source != nil {
		rc.mu.Lock()
		delete(rc.overlay, key)
		rc.mu.Unlock()
		rc.source.Delete(key)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, ok := rc.m[key]; !ok {
		return
	}
	delete(rc.m, key)
	rc.keys = slices.DeleteFunc(rc.keys, func(k string) bool { return k == key })
}

// Clear removes every key (from the caller's context too, through a view).
func (rc *RequestContext) Clear() {
	if rc.source != nil {
		rc.mu.Lock()
		clear(rc.overlay)
		rc.mu.Unlock()
		rc.source.Clear()
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	clear(rc.m)
	rc.keys = nil
}

// Keys returns the keys in insertion order.
func (rc *RequestContext) Keys() []string {
	if rc == nil {
		return nil
	}
	if rc.source != nil {
		keys := rc.source.Keys()
		rc.mu.RLock()
		defer rc.mu.RUnlock()
		for _, k := range slices.Sorted(maps.Keys(rc.overlay)) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		return keys
	}
	rc.mu.RLock()
	defer rc.mu.RUnlock()
	return slices.Clone(rc.keys)
}

// Len returns the number of keys.
func (rc *RequestContext) Len() int { return len(rc.Keys()) }

// All returns a copy of the entries.
func (rc *RequestContext) All() map[string]any {
	out := map[string]any{}
	for _, k := range rc.Keys() {
		out[k], _ = rc.Get(k)
	}
	return out
}

// Serialisable returns the entries that survive JSON (as MarshalJSON
// keeps them: not functions or channels), or nil when none does: what a
// saved run keeps of its request context.
func (rc *RequestContext) Serialisable() map[string]any {
	out := map[string]any{}
	for k, v := range rc.All() {
		if _, err := json.Marshal(v); err == nil {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// MarshalJSON encodes the entries as a JSON object in insertion order,
// dropping values that cannot be encoded (functions, channels), as Mastra's
// toJSON does.
func (rc *RequestContext) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	first := true
	for _, k := range rc.Keys() {
		v, _ := rc.Get(k)
		vb, err := json.Marshal(v)
		if err != nil {
			continue
		}
		kb, _ := json.Marshal(k)
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(append(append(buf, kb...), ':'), vb...)
	}
	return append(buf, '}'), nil
}

// UnmarshalJSON replaces the entries with those of a JSON object.
func (rc *RequestContext) UnmarshalJSON(data []byte) error {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	fresh := NewRequestContext(m)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.keys, rc.m = fresh.keys, fresh.m
	return nil
}

// validatedView checks the context's values against s and returns the view
// a tool sees, or the issues found.
func (rc *RequestContext) validatedView(s schema.Schema) (*RequestContext, []schema.Issue, error) {
	raw, _ := rc.MarshalJSON()
	var decoded any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		return nil, nil, err
	}
	out, issues := s.Validate(decoded)
	if len(issues) > 0 {
		return nil, issues, nil
	}
	overlay := map[string]any{}
	if parsed, ok := out.(map[string]any); ok {
		maps.Copy(overlay, parsed)
	}
	return &RequestContext{source: rc, schema: s, overlay: overlay}, nil, nil
}

// Key is a typed request-context key: Key[T]{Name: "userId"}.Get(rc).
type Key[T any] struct{ Name string }

// Get returns the value under the key if it is set and holds a T.
func (k Key[T]) Get(rc *RequestContext) (T, bool) {
	var zero T
	v, ok := rc.Get(k.Name)
	if !ok {
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

// Set stores v under the key.
func (k Key[T]) Set(rc *RequestContext, v T) error { return rc.Set(k.Name, v) }

// toJSONValue round-trips v through JSON so schemas see decoded JSON values.
func toJSONValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Reserved request-context keys (Mastra's): the run's memory thread and
// resource ids, which the runtime sets from the run's memory options and
// never takes from a client.
const (
	ThreadIDKey   = "mastra__threadId"
	ResourceIDKey = "mastra__resourceId"
	// MemoryKey holds a run's memory instance in Mastra.
	MemoryKey = "MastraMemory"
)
