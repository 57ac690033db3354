package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/gomastra/mastra/storage"
)

// errNoWorkingMemory is the error of a working memory call on an agent
// without it.
var errNoWorkingMemory = errors.New("agent: working memory is not enabled (Config.Memory.WorkingMemory)")

// WorkingMemory returns the working memory document of the thread
// (thread scope) or of the resource (resource scope), "" when none is
// stored. It fails when the agent has no working memory or storage, or
// when the scope's id is empty.
func (a *Agent) WorkingMemory(ctx context.Context, threadID, resourceID string) (string, error) {
	wm, store, err := a.workingMemory()
	if err != nil {
		return "", err
	}
	if wm.scope() == ScopeThread {
		if threadID == "" {
			return "", memoryError("Thread ID is required for thread-scoped working memory")
		}
		th, err := store.GetThread(ctx, threadID)
		if errors.Is(err, storage.ErrNotFound) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("working memory: %w", err)
		}
		return threadDocument(th), nil
	}
	if resourceID == "" {
		return "", memoryError("Resource ID is required for resource-scoped working memory")
	}
	res, err := store.GetResource(ctx, resourceID)
	if errors.Is(err, storage.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("working memory: %w", err)
	}
	return res.WorkingMemory, nil
}

// SetWorkingMemory replaces the working memory document of the thread
// (thread scope: the thread is created for resourceID when it does not
// exist) or of the resource (resource scope) by doc, as it is.
func (a *Agent) SetWorkingMemory(ctx context.Context, threadID, resourceID, doc string) error {
	wm, store, err := a.workingMemory()
	if err != nil {
		return err
	}
	if wm.scope() == ScopeResource {
		if resourceID == "" {
			return memoryError("Resource ID is required for resource-scoped working memory updates")
		}
		res, err := store.GetResource(ctx, resourceID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			res = &storage.Resource{ID: resourceID}
		case err != nil:
			return fmt.Errorf("working memory: %w", err)
		}
		res.WorkingMemory, res.UpdatedAt = doc, time.Time{} // (now)
		return store.SaveResource(ctx, *res)
	}
	if threadID == "" {
		return memoryError("Thread ID is required for thread-scoped working memory updates")
	}
	th, err := store.GetThread(ctx, threadID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		th = &storage.Thread{ID: threadID, ResourceID: resourceID}
	case err != nil:
		return fmt.Errorf("working memory: %w", err)
	case resourceID != "" && th.ResourceID != "" && th.ResourceID != resourceID:
		return memoryError(fmt.Sprintf("Thread with id %s resourceId does not match the current resourceId %s", threadID, resourceID))
	}
	meta := maps.Clone(th.Metadata)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[workingMemoryKey] = doc
	th.Metadata, th.UpdatedAt = meta, time.Time{} // (now)
	return store.SaveThread(ctx, *th)
}

// memoryError is an error whose text is Mastra's (the model reads it as
// the tool's error).
type memoryError string

func (e memoryError) Error() string { return string(e) }

// threadDocument is the thread-scoped document th holds ("" for none, or
// no thread).
func threadDocument(th *storage.Thread) string {
	if th == nil {
		return ""
	}
	doc, _ := th.Metadata[workingMemoryKey].(string)
	return doc
}

// workingMemoryKey is the thread metadata key of a thread-scoped
// document.
const workingMemoryKey = "workingMemory"

// workingMemory is the agent's working memory configuration and
// storage, or errNoWorkingMemory.
func (a *Agent) workingMemory() (*WorkingMemory, storage.Store, error) {
	if a.cfg.Memory == nil || a.cfg.Memory.WorkingMemory == nil || a.cfg.Storage == nil {
		return nil, nil, errNoWorkingMemory
	}
	return a.cfg.Memory.WorkingMemory, a.cfg.Storage, nil
}

// WorkingMemoryTemplate is what an agent's working memory shows the
// model as the document's form (Mastra's {format, content}): the
// Markdown template, or, in schema mode, the JSON of the empty document.
type WorkingMemoryTemplate struct {
	Format  string `json:"format"`
	Content string `json:"content"`
}

// WorkingMemoryTemplate returns the agent's working memory template, or
// nil when the agent has no working memory.
func (a *Agent) WorkingMemoryTemplate() *WorkingMemoryTemplate {
	wm, _, err := a.workingMemory()
	if err != nil {
		return nil
	}
	if wm.jsonMode() {
		empty := wm.emptyObject()
		if empty == "" {
			empty = "{}"
		}
		return &WorkingMemoryTemplate{Format: "json", Content: empty}
	}
	return &WorkingMemoryTemplate{Format: "markdown", Content: wm.template()}
}

// WorkingMemoryScope returns where the agent's working memory documents
// live, ScopeResource when the agent has none (Mastra's default).
func (a *Agent) WorkingMemoryScope() WorkingMemoryScope {
	if wm, _, err := a.workingMemory(); err == nil {
		return wm.scope()
	}
	return ScopeResource
}

// HasMemory reports whether the agent keeps memory (Config.Memory and
// Config.Storage).
func (a *Agent) HasMemory() bool { return a.cfg.Memory != nil && a.cfg.Storage != nil }

// LastMessages returns how many of a thread's latest messages the
// agent's runs are given (MemoryOptions.LastMessages, 10 by default),
// or -1 when none are; 0 when the agent keeps no memory.
func (a *Agent) LastMessages() int {
	if !a.HasMemory() {
		return 0
	}
	switch n := a.cfg.Memory.LastMessages; {
	case n == 0:
		return 10
	case n < 0:
		return -1
	default:
		return n
	}
}
