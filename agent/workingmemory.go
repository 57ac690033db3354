package agent

import (
	"strings"

	"github.com/gomastra/mastra/schema"
)

// WorkingMemory is Mastra's working memory: a document the agent keeps
// about the user (resource scope) or the conversation (thread scope),
// shown to the model in a system message of every run with a memory
// thread, and updated by the model through the updateWorkingMemory tool.
// It is a tool like any other: hooks, transforms and approval apply to
// it.
//
// In Markdown mode (no Schema) the document is text following Template,
// and each update replaces it whole. In schema mode it is a JSON object
// that Schema describes, and each update is merged into it: objects
// merge key by key, arrays and other values are replaced, and a null
// deletes its key (a null given for a key Schema does not require is
// dropped first, as Mastra drops it).
//
// A read-only run (MemoryOptions.ReadOnly, WithMemoryReadOnly) is shown
// the document as read-only context and is not offered the tool.
type WorkingMemory struct {
	// Scope is where the document lives: ScopeResource (the default:
	// one document for all the resource's threads) or ScopeThread.
	Scope WorkingMemoryScope
	// Template is the Markdown template shown to the model ("":
	// DefaultWorkingMemoryTemplate). Ignored in schema mode.
	Template string
	// Schema, when set, makes the document a JSON object of this schema
	// (schema mode).
	Schema schema.Schema
}

// WorkingMemoryScope is where a working memory document lives.
type WorkingMemoryScope string

// Working memory scopes.
const (
	// ScopeResource keeps one document per resource, shared by its
	// threads (stored with the resource: storage.Resource.WorkingMemory).
	ScopeResource WorkingMemoryScope = "resource"
	// ScopeThread keeps one document per thread (stored in the thread's
	// metadata, under "workingMemory").
	ScopeThread WorkingMemoryScope = "thread"
)

// DefaultWorkingMemoryTemplate is Mastra's default Markdown template.
const DefaultWorkingMemoryTemplate = `
# User Information
- **First Name**: 
- **Last Name**: 
- **Location**: 
- **Occupation**: 
- **Interests**: 
- **Goals**: 
- **Events**: 
- **Facts**: 
- **Projects**: 
`

// WorkingMemoryToolName is the name the model calls the working memory
// tool by.
const WorkingMemoryToolName = "updateWorkingMemory"

// scope is the configured scope, ScopeResource by default.
func (w *WorkingMemory) scope() WorkingMemoryScope {
	if w.Scope == ScopeThread {
		return ScopeThread
	}
	return ScopeResource
}

// template is the Markdown template as the model sees it: trimmed.
func (w *WorkingMemory) template() string {
	if w.Template == "" {
		return strings.TrimSpace(DefaultWorkingMemoryTemplate)
	}
	return strings.TrimSpace(w.Template)
}

// format is "json" in schema mode, else "markdown".
func (w *WorkingMemory) jsonMode() bool { return w.Schema != nil }
