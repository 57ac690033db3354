package agent

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage/vector"
)

// SemanticRecall configures Mastra's semantic recall
// (MemoryOptions.SemanticRecall): the messages memory keeps are embedded
// and stored in a vector index as they are saved, and a run given a
// thread is also shown the stored messages most similar to its user's
// latest message, each with the messages around it.
//
// Messages of the run's own thread are added to its history, in the
// order they were said; with ScopeResource, messages of the resource's
// other threads come in a system message of their own ("The following
// messages were remembered from a different conversation: …"). Messages
// the history already holds are not repeated. Recall and embedding never
// fail a run: an embedder or vector store error is logged and the run
// goes on without them.
type SemanticRecall struct {
	// Embedder embeds the messages and the query (required), e.g.
	// providers.Default(os.Getenv).Embedder("openai/text-embedding-3-small").
	Embedder model.EmbeddingModel
	// Vector keeps the embeddings (required), e.g. the agent's SQLite or
	// PostgreSQL store, which are vector.Stores too.
	Vector vector.Store
	// TopK is how many similar messages a run recalls (0: Mastra's
	// default, 4).
	TopK int
	// MessageRange is how many messages before and after each recalled
	// one come with it (nil: Mastra's default, one before and one after).
	MessageRange *MessageRange
	// Scope is where recall searches: ScopeResource (the default, as
	// Mastra's) every thread of the run's resource, ScopeThread the run's
	// thread only.
	Scope MemoryScope
	// Threshold, when not 0, drops matches whose cosine similarity is
	// lower.
	Threshold float64
	// IndexName is the vector index ("" for Mastra Memory's:
	// memory_messages for 1536-dimension embeddings, memory_messages_<n>
	// for n dimensions).
	IndexName string
}

// MessageRange is how many messages around a recalled one come with it.
type MessageRange struct {
	Before int `json:"before"`
	After  int `json:"after"`
}

// MemoryScope is where a memory feature reads and writes: a thread, or
// every thread of a resource.
type MemoryScope = WorkingMemoryScope

const defaultRecallTopK = 4

func (s *SemanticRecall) topK() int {
	if s.TopK > 0 {
		return s.TopK
	}
	return defaultRecallTopK
}

func (s *SemanticRecall) messageRange() MessageRange {
	if s.MessageRange != nil {
		return *s.MessageRange
	}
	return MessageRange{Before: 1, After: 1}
}

func (s *SemanticRecall) scope() MemoryScope {
	if s.Scope == ScopeThread {
		return ScopeThread
	}
	return ScopeResource
}

// messageIndexPrefix starts the names of Mastra Memory's message
// indexes.
const messageIndexPrefix = "memory_messages"

// indexName is the index the messages of embeddings of the given
// dimension go to.
func (s *SemanticRecall) indexName(dimension int) string {
	switch {
	case s.IndexName != "":
		return s.IndexName
	case dimension == 1536:
		return messageIndexPrefix
	}
	return messageIndexPrefix + "_" + strconv.Itoa(dimension)
}

func (s *SemanticRecall) check() error {
	switch {
	case s.Embedder == nil:
		return fmt.Errorf("agent: MemoryOptions.SemanticRecall needs an Embedder")
	case s.Vector == nil:
		return fmt.Errorf("agent: MemoryOptions.SemanticRecall needs a Vector store")
	case s.MessageRange != nil && (s.MessageRange.Before < 0 || s.MessageRange.After < 0):
		return fmt.Errorf("agent: SemanticRecall.MessageRange must not be negative")
	}
	if s.IndexName != "" {
		return vector.CheckIndexName(s.IndexName)
	}
	return nil
}

// vectorIndexes remembers the indexes an agent has made sure of, by
// name and dimension, so that each is created once per process.
type vectorIndexes struct {
	mu   sync.Mutex
	made map[string]int
}

// ensure creates the index unless it was made with that dimension.
func (v *vectorIndexes) ensure(ctx context.Context, store vector.Store, name string, dimension int) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.made[name] == dimension {
		return nil
	}
	if err := store.CreateIndex(ctx, name, dimension); err != nil {
		return err
	}
	if v.made == nil {
		v.made = map[string]int{}
	}
	v.made[name] = dimension
	return nil
}

// RecallSettings returns the agent's semantic recall settings with
// Mastra's defaults filled in (TopK, MessageRange, Scope), or
// nil when the agent has none. IndexName stays "" unless set: the default
// depends on the embeddings' dimension.
func (a *Agent) RecallSettings() *SemanticRecall {
	sr := a.recallOptions()
	if sr == nil {
		return nil
	}
	c := *sr
	r := sr.messageRange()
	c.TopK, c.MessageRange, c.Scope = sr.topK(), &r, sr.scope()
	return &c
}
