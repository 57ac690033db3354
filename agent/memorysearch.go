package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
)

// MemorySearch is a search of an agent's memory: the query of Mastra's
// GET /memory/search.
type MemorySearch struct {
	// Query is what to search for (searchQuery).
	Query string
	// ResourceID is the resource whose memory is searched.
	ResourceID string
	// ThreadID is the thread searched ("": the resource's thread updated
	// last).
	ThreadID string
	// Limit is how many results at most (0: Mastra's default, 20).
	Limit int
}

// DefaultMemorySearchLimit is how many results a MemorySearch without a
// Limit gives at most.
const DefaultMemorySearchLimit = 20

// MemorySearchResult is what a search found, as Mastra's GET
// /memory/search answers it (encoding/json writes it so): the results,
// newest first, their count, the query, and where and how memory was
// searched. SearchScope and SearchType are "" (left out) when the agent
// neither gives runs their history nor recalls.
type MemorySearchResult struct {
	Results []MemorySearchHit `json:"results"`
	Count   int               `json:"count"`
	Query   string            `json:"query"`
	// SearchScope is "resource" or "thread", the semantic recall's
	// scope ("resource" without semantic recall, as Mastra's).
	SearchScope string `json:"searchScope,omitempty"`
	// SearchType is "semantic" with semantic recall, else "text".
	SearchType string `json:"searchType,omitempty"`
}

// MemorySearchHit is one message found, in Mastra's stored form (a
// user message, or an assistant turn), with the thread it is in and
// the messages around it.
type MemorySearchHit struct {
	ID      string `json:"id"`
	Role    string `json:"role"`
	Content string `json:"content"`
	// CreatedAt is written as JavaScript writes a Date.
	CreatedAt   bgtasks.Date `json:"createdAt"`
	ThreadID    string       `json:"threadId"`
	ThreadTitle string       `json:"threadTitle"`
	// Context is nil when the message is no longer stored.
	Context *MemorySearchContext `json:"context,omitempty"`
}

// MemorySearchContext is the messages (user messages and turns, as
// hits are) just before and just after a hit in its thread, in the
// order they were said (both non-nil).
type MemorySearchContext struct {
	Before []MemorySearchMessage `json:"before"`
	After  []MemorySearchMessage `json:"after"`
}

// MemorySearchMessage is a message around a hit.
type MemorySearchMessage struct {
	ID        string       `json:"id"`
	Role      string       `json:"role"`
	Content   string       `json:"content"`
	CreatedAt bgtasks.Date `json:"createdAt"`
}

// Search types and scopes of a MemorySearchResult.
const (
	SearchSemantic = "semantic"
	SearchText     = "text"
)

// errNoMemory is the error of a memory search on an agent without
// memory.
var errNoMemory = errors.New("agent: memory is not enabled (Config.Memory and Config.Storage)")

// SearchMemory searches the agent's memory as Mastra's GET
// /memory/search does. The searched thread is q.ThreadID or, when "",
// the resource's thread updated last (none: no results); with semantic
// recall of thread scope, a ThreadID that names no thread gives no
// results either. The results are the searched thread's last messages
// (MemoryOptions.LastMessages) and, with semantic recall, the stored
// messages most like q.Query in the recall's scope (TopK, Threshold;
// with thread scope each with its MessageRange, with resource scope
// alone). Without semantic recall the query matches nothing: as in
// Mastra, a "text" search answers the thread's last messages.
//
// Hits are messages as Mastra stores them, as the memory API lists a
// thread's messages: each user (or system) message is one, and each
// turn (a run of the assistant and tool messages gomastra stores for a
// run's steps) is one assistant message with the id and CreatedAt of
// its first stored message. A message found stands for its turn, each
// turn a hit once; a hit's Content is the first text part of the turn
// ("" when it has none: Mastra's getTextContent). The hits are sorted
// newest first and cut at q.Limit; each has its thread's title (its id
// when untitled) and the turns around it in its thread (MessageRange
// turns, 2 before and 2 after when it is unset or 0; see maxTurnRead
// for what is read).
//
// It fails when the agent has no memory, when the searched thread
// belongs to another resource, or when storage, the embedder or the
// vector store fails. The caller checks q (a query and a resource) and
// the caller's right to the resource.
func (a *Agent) SearchMemory(ctx context.Context, q MemorySearch) (*MemorySearchResult, error) {
	if !a.HasMemory() {
		return nil, errNoMemory
	}
	sr := a.recallOptions()
	res := &MemorySearchResult{Results: []MemorySearchHit{}, Query: q.Query, SearchScope: string(ScopeResource), SearchType: SearchText}
	if sr != nil {
		res.SearchScope, res.SearchType = string(sr.scope()), SearchSemantic
	}
	threadID, err := a.searchedThread(ctx, q, MemoryScope(res.SearchScope))
	if err != nil || threadID == "" {
		return res, err
	}
	if sr == nil && a.LastMessages() < 0 {
		return &MemorySearchResult{Results: []MemorySearchHit{}, Query: q.Query}, nil
	}
	found, err := a.searchedMessages(ctx, sr, q, threadID)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultMemorySearchLimit
	}
	if res.Results, err = a.searchHits(ctx, sr, found, limit); err != nil {
		return nil, err
	}
	res.Count = len(res.Results)
	return res, nil
}

// searchedThread is the thread a search reads: q's, checked to be the
// resource's, or the resource's thread updated last; "" when there is
// none, or when a thread-scoped search names a thread not stored.
func (a *Agent) searchedThread(ctx context.Context, q MemorySearch, scope MemoryScope) (string, error) {
	store := a.cfg.Storage
	if q.ThreadID == "" {
		threads, err := store.ListThreads(ctx, q.ResourceID)
		if err != nil || len(threads) == 0 {
			return "", err
		}
		latest := slices.MaxFunc(threads, func(x, y storage.Thread) int { return x.UpdatedAt.Compare(y.UpdatedAt) })
		return latest.ID, nil
	}
	th, err := store.GetThread(ctx, q.ThreadID)
	switch {
	case errors.Is(err, storage.ErrNotFound) && scope == ScopeThread:
		return "", nil
	case errors.Is(err, storage.ErrNotFound):
		return q.ThreadID, nil
	case err != nil:
		return "", err
	case th.ResourceID != q.ResourceID:
		return "", fmt.Errorf("memory: thread %s belongs to resource %s, not %s", th.ID, th.ResourceID, q.ResourceID)
	}
	return th.ID, nil
}

// searchedMessages is what a search finds in memory: the thread's last
// stored messages and those semantic recall finds, newest first
// (messages of one time in the order they were read: the thread's last
// ones, then the recalled ones in the order they were said).
func (a *Agent) searchedMessages(ctx context.Context, sr *SemanticRecall, q MemorySearch, threadID string) ([]storage.Message, error) {
	var found []storage.Message
	if n := a.LastMessages(); n > 0 {
		last, err := a.cfg.Storage.ListMessages(ctx, threadID, n)
		if err != nil {
			return nil, err
		}
		found = last
	}
	if sr != nil && q.Query != "" {
		span := sr.messageRange()
		if sr.scope() == ScopeResource {
			span = MessageRange{} // each match alone: its neighbours are its context
		}
		ids := make([]string, len(found))
		for i, m := range found {
			ids[i] = m.ID
		}
		similar, err := a.similarMessages(ctx, sr, q.Query, recallFilter(sr.scope(), threadID, q.ResourceID), span, ids)
		if err != nil {
			return nil, err
		}
		found = append(found, similar...)
	}
	slices.SortStableFunc(found, func(x, y storage.Message) int { return y.CreatedAt.Compare(x.CreatedAt) })
	return found, nil
}

// searchHits makes the found messages (newest first) hits, at most
// limit, newest first: each message stands for its turn (FoldTurns),
// each turn once, with its thread's title and the turns around it. As
// a turn is never newer than its messages, it stops once the next
// message is no newer than the limit-th hit.
func (a *Agent) searchHits(ctx context.Context, sr *SemanticRecall, found []storage.Message, limit int) ([]MemorySearchHit, error) {
	span := searchContextRange(sr)
	titles := map[string]string{}
	seen := map[string]bool{} // the messages of the turns already hits
	hits := []MemorySearchHit{}
	for _, m := range found {
		if len(hits) >= limit && !m.CreatedAt.After(hits[limit-1].CreatedAt.Time) {
			break
		}
		if seen[m.ID] {
			continue
		}
		hit, turn, err := a.searchHit(ctx, m, span)
		if err != nil {
			return nil, err
		}
		for _, s := range turn {
			seen[s.ID] = true
		}
		title, ok := titles[m.ThreadID]
		if !ok {
			if title, err = a.threadTitle(ctx, m.ThreadID); err != nil {
				return nil, err
			}
			titles[m.ThreadID] = title
		}
		hit.ThreadTitle = title
		hits = insertHit(hits, hit)
	}
	return hits[:min(limit, len(hits))], nil
}

// insertHit adds hit to hits (newest first) after those of its time.
func insertHit(hits []MemorySearchHit, hit MemorySearchHit) []MemorySearchHit {
	i, _ := slices.BinarySearchFunc(hits, hit, func(h, t MemorySearchHit) int {
		if h.CreatedAt.Before(t.CreatedAt.Time) {
			return 1
		}
		return -1 // (equal times: after the hits already there)
	})
	return slices.Insert(hits, i, hit)
}

// searchHit is the hit of m's turn, with the turns around it as its
// context, and the turn's messages; m alone without context when it is
// no longer stored.
func (a *Agent) searchHit(ctx context.Context, m storage.Message, span MessageRange) (MemorySearchHit, []storage.Message, error) {
	turns, at, err := a.turnWindow(ctx, m.ThreadID, m.ID, span)
	if err != nil {
		return MemorySearchHit{}, nil, err
	}
	turn := []storage.Message{m}
	var c *MemorySearchContext
	if at >= 0 {
		turn = turns[at]
		c = &MemorySearchContext{Before: searchMessages(turns[max(0, at-span.Before):at]),
			After: searchMessages(turns[at+1 : min(len(turns), at+1+span.After)])}
	}
	sm := searchMessage(turn)
	return MemorySearchHit{ID: sm.ID, Role: sm.Role, Content: sm.Content, CreatedAt: sm.CreatedAt, ThreadID: m.ThreadID, Context: c}, turn, nil
}

// searchContextRange is how many turns before and after a hit its
// context holds: the recall's MessageRange, each side 2 when unset or 0
// (Mastra's route's `|| 2`), none when negative.
func searchContextRange(sr *SemanticRecall) MessageRange {
	span := MessageRange{Before: 2, After: 2}
	if sr != nil && sr.MessageRange != nil {
		span.Before = max(0, cmp.Or(sr.MessageRange.Before, 2))
		span.After = max(0, cmp.Or(sr.MessageRange.After, 2))
	}
	return span
}

// threadTitle is the thread's title, or its id when it has none or is
// not stored.
func (a *Agent) threadTitle(ctx context.Context, threadID string) (string, error) {
	th, err := a.cfg.Storage.GetThread(ctx, threadID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return threadID, nil
	case err != nil:
		return "", err
	case th.Title == "":
		return threadID, nil
	}
	return th.Title, nil
}

// searchMessages is turns as context messages (never nil).
func searchMessages(turns [][]storage.Message) []MemorySearchMessage {
	out := make([]MemorySearchMessage, len(turns))
	for i, t := range turns {
		out[i] = searchMessage(t)
	}
	return out
}

// searchMessage is a turn (FoldTurns) as one message: its first
// message's id and time, role assistant for a turn's steps, and the
// text of its first text part ("" when it has none), Mastra's
// getTextContent of the folded message.
func searchMessage(turn []storage.Message) MemorySearchMessage {
	first := turn[0]
	out := MemorySearchMessage{ID: first.ID, Role: first.Role, CreatedAt: bgtasks.DateOf(first.CreatedAt)}
	if isStep(first) {
		out.Role = string(model.RoleAssistant)
	}
	for _, m := range turn {
		if text, ok := firstText(m); ok {
			out.Content = text
			break
		}
	}
	return out
}

// firstText is the text of a stored message's first text part, and
// whether it has one.
func firstText(m storage.Message) (string, bool) {
	var msg model.Message
	if json.Unmarshal(m.Content, &msg) != nil {
		return "", false
	}
	for _, p := range msg.Content {
		if p.Type == model.MessageText {
			return p.Text, true
		}
	}
	return "", false
}
