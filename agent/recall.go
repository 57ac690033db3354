package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/vector"
)

// recalled is what a run's semantic recall found: messages of its own
// thread with their ids, oldest first, and the system message holding
// those of the resource's other threads ("" when none).
type recalled struct {
	Messages []model.Message `json:",omitempty"`
	IDs      []string        `json:",omitempty"`
	System   string          `json:",omitempty"`
}

// recall adds to the run's history the stored messages most similar to
// its user's latest message (see SemanticRecall). The search is recorded
// (a replayed run finds what the first found); its failures are logged,
// never the run's.
func (r *run) recall() error {
	sr := r.agent.recallOptions()
	query := lastUserText(r.state.User)
	if sr == nil || !r.memoryOn() || query == "" {
		return nil
	}
	found, err := recorded(r, r.storageCtx(), func(ctx context.Context) (recalled, error) {
		found, err := r.recallSimilar(ctx, sr, query)
		if err != nil {
			r.agent.cfg.Logger.Error("agent: semantic recall failed", "agent", r.agent.ID(), "runId", r.opts.runID, "error", err)
		}
		return found, nil
	})
	if err != nil {
		return err
	}
	s := r.state
	s.History = append(slices.Clip(found.Messages), s.History...)
	s.HistoryIDs = append(slices.Clip(found.IDs), s.HistoryIDs...)
	s.Recalled = found.System
	return nil
}

// recallSimilar finds the stored messages most like the query in the
// recall's scope, with the messages around them, leaving out those the
// history holds: the run's thread's become history, the others'
// the system message.
func (r *run) recallSimilar(ctx context.Context, sr *SemanticRecall, query string) (recalled, error) {
	var found recalled
	filter := recallFilter(sr.scope(), r.opts.threadID, r.opts.resourceID)
	msgs, err := r.agent.similarMessages(ctx, sr, query, filter, sr.messageRange(), r.state.HistoryIDs)
	if err != nil {
		return found, err
	}
	var others []storage.Message
	for _, m := range msgs {
		if m.ThreadID != r.opts.threadID {
			others = append(others, m)
			continue
		}
		var msg model.Message
		if err := json.Unmarshal(m.Content, &msg); err != nil {
			return recalled{}, fmt.Errorf("message %s: %w", m.ID, err)
		}
		found.Messages, found.IDs = append(found.Messages, msg), append(found.IDs, m.ID)
	}
	found.System = rememberedFromOtherThreads(others)
	return found, nil
}

// recallFilter is the vector filter of a recall in scope: the
// resource's messages (ScopeResource, when resourceID is not ""), else
// the thread's.
func recallFilter(scope MemoryScope, threadID, resourceID string) vector.Filter {
	if scope == ScopeResource && resourceID != "" {
		return vector.Filter{"resource_id": resourceID}
	}
	return vector.Filter{"thread_id": threadID}
}

// similarMessages embeds the query, asks the vector index for its
// nearest messages that match filter (sr's TopK, above its Threshold)
// and reads them from storage with span messages around each (see
// messagesAround), without those of skip.
func (a *Agent) similarMessages(ctx context.Context, sr *SemanticRecall, query string, filter vector.Filter, span MessageRange, skip []string) ([]storage.Message, error) {
	emb, err := sr.Embedder.Embed(ctx, []string{query}, nil)
	if err != nil {
		return nil, fmt.Errorf("embedding the query: %w", err)
	}
	if len(emb.Vectors) != 1 {
		return nil, fmt.Errorf("embedding the query: %d vectors for one value", len(emb.Vectors))
	}
	index := sr.indexName(len(emb.Vectors[0]))
	if err := a.recallIndexes.ensure(ctx, sr.Vector, index, len(emb.Vectors[0])); err != nil {
		return nil, err
	}
	matches, err := sr.Vector.Query(ctx, index, vector.Query{Vector: emb.Vectors[0], TopK: sr.topK(), Filter: filter})
	if err != nil {
		return nil, err
	}
	if sr.Threshold != 0 {
		matches = slices.DeleteFunc(matches, func(m vector.Match) bool { return m.Score < sr.Threshold })
	}
	return a.messagesAround(ctx, matches, span, skip)
}

// messagesAround reads the matched messages with span's messages
// before and after each (within its thread), without those of skip, in
// the order they were said (compareRecalled).
func (a *Agent) messagesAround(ctx context.Context, matches []vector.Match, span MessageRange, skip []string) ([]storage.Message, error) {
	seen := map[string]bool{}
	for _, id := range skip {
		seen[id] = true
	}
	var out []storage.Message
	for _, m := range matches {
		id, _ := m.Metadata["message_id"].(string)
		threadID, _ := m.Metadata["thread_id"].(string)
		if id == "" || threadID == "" {
			continue
		}
		window, _, err := a.messageWindow(ctx, threadID, id, span)
		if err != nil {
			return nil, err
		}
		for _, s := range window {
			if !seen[s.ID] {
				seen[s.ID] = true
				out = append(out, s)
			}
		}
	}
	slices.SortStableFunc(out, compareRecalled)
	return out, nil
}

// messageWindow reads the message id of the thread with span.Before
// messages before it and span.After after it, in the thread's order
// (one query: storage.Messages.ListMessagesAround), and returns them
// with id's index among them; none and -1 when id is not a message of
// the thread (deleted since it was embedded).
func (a *Agent) messageWindow(ctx context.Context, threadID, id string, span MessageRange) ([]storage.Message, int, error) {
	window, err := a.cfg.Storage.ListMessagesAround(ctx, threadID, id, span.Before, span.After)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, -1, nil
	}
	if err != nil {
		return nil, -1, err
	}
	return window, slices.IndexFunc(window, func(s storage.Message) bool { return s.ID == id }), nil
}

var roleOrder = map[string]int{"system": 0, "user": 1, "assistant": 2, "tool": 3}

// compareRecalled orders recalled messages as Mastra does: by time, then
// thread, role (system, user, assistant, tool) and id.
func compareRecalled(a, b storage.Message) int {
	return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ThreadID, b.ThreadID),
		cmp.Compare(roleRank(a.Role), roleRank(b.Role)), cmp.Compare(a.ID, b.ID))
}

func roleRank(role string) int {
	if n, ok := roleOrder[role]; ok {
		return n
	}
	return 99
}

// rememberedFromOtherThreads is Mastra's system message for messages
// recalled from the resource's other threads: their text under a line
// for each day, each with its time (UTC) and author. Mastra runs the
// messages together; here each has a line of its own. Messages without
// text (tool calls and results) are left out.
func rememberedFromOtherThreads(msgs []storage.Message) string {
	var b strings.Builder
	lastDay := ""
	for _, m := range msgs {
		text := messageText(m.Content, " ")
		if text == "" {
			continue
		}
		t := m.CreatedAt.UTC()
		if day := fmt.Sprintf("%d, %s, %d", t.Year(), t.Format("Jan"), t.Day()); day != lastDay {
			fmt.Fprintf(&b, "\nthe following messages are from %s\n", day)
			lastDay = day
		} else {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "Message from previous conversation at %s: %s: %s", t.Format("3:04 PM"), strings.ToUpper(m.Role[:1])+m.Role[1:], text)
	}
	if b.Len() == 0 {
		return ""
	}
	return "The following messages were remembered from a different conversation:\n<remembered_from_other_conversation>\n" +
		b.String() + "\n<end_remembered_from_other_conversation>"
}

// messageText is the text parts of a stored message, joined by sep.
func messageText(content json.RawMessage, sep string) string {
	var msg model.Message
	if json.Unmarshal(content, &msg) != nil {
		return ""
	}
	return joinedText(msg, sep)
}

// joinedText is m's non-empty text parts joined by sep.
func joinedText(m model.Message, sep string) string {
	var texts []string
	for _, p := range m.Content {
		if p.Type == model.MessageText && p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, sep)
}

// lastUserText is the text of the latest user message, its text parts
// joined by spaces ("" when there is none).
func lastUserText(msgs []model.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != model.RoleUser {
			continue
		}
		if text := joinedText(msgs[i], " "); text != "" {
			return text
		}
	}
	return ""
}

// embedMessages stores the embeddings of the saved messages that hold
// text (users' and the assistant's), for semantic recall. Its failures
// are logged, never the save's.
func (a *Agent) embedMessages(ctx context.Context, msgs []storage.Message) {
	sr := a.recallOptions()
	if sr == nil {
		return
	}
	var texts []string
	var keep []storage.Message
	for _, m := range msgs {
		if m.Role != string(model.RoleUser) && m.Role != string(model.RoleAssistant) {
			continue
		}
		if text := messageText(m.Content, "\n"); text != "" {
			texts, keep = append(texts, text), append(keep, m)
		}
	}
	if len(texts) == 0 {
		return
	}
	if err := a.upsertEmbeddings(ctx, sr, keep, texts); err != nil {
		a.cfg.Logger.Error("agent: embedding messages for semantic recall failed", "agent", a.ID(), "error", err)
	}
}

func (a *Agent) upsertEmbeddings(ctx context.Context, sr *SemanticRecall, msgs []storage.Message, texts []string) error {
	emb, err := model.EmbedMany(ctx, sr.Embedder, texts, nil)
	if err != nil {
		return err
	}
	index := sr.indexName(len(emb.Vectors[0]))
	if err := a.recallIndexes.ensure(ctx, sr.Vector, index, len(emb.Vectors[0])); err != nil {
		return err
	}
	recs := make([]vector.Record, len(msgs))
	for i, m := range msgs {
		recs[i] = vector.Record{ID: m.ID, Vector: emb.Vectors[i], Metadata: map[string]any{
			"message_id": m.ID, "thread_id": m.ThreadID, "resource_id": m.ResourceID, "role": m.Role,
			"content": texts[i], "created_at": m.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"),
		}}
	}
	return sr.Vector.Upsert(ctx, index, recs)
}

// recallOptions is the agent's semantic recall, or nil.
func (a *Agent) recallOptions() *SemanticRecall {
	if a.cfg.Memory == nil || a.cfg.Storage == nil {
		return nil
	}
	return a.cfg.Memory.SemanticRecall
}

// DeleteThread removes a memory thread, its messages and its state, and
// with semantic recall the thread's embeddings (whose removal, like
// Mastra's, is logged when it fails and does not fail the delete).
func (a *Agent) DeleteThread(ctx context.Context, threadID string) error {
	if a.cfg.Storage == nil {
		return fmt.Errorf("agent %s: no storage", a.ID())
	}
	if err := a.cfg.Storage.DeleteThread(ctx, threadID); err != nil {
		return err
	}
	a.forgetEmbeddings(ctx, func(store vector.Store, index string) error {
		return store.DeleteByFilter(ctx, index, vector.Filter{"thread_id": threadID})
	})
	return nil
}

// DeleteMessages removes memory messages by id and, with semantic
// recall, their embeddings (see DeleteThread).
func (a *Agent) DeleteMessages(ctx context.Context, ids []string) error {
	if a.cfg.Storage == nil {
		return fmt.Errorf("agent %s: no storage", a.ID())
	}
	if err := a.cfg.Storage.DeleteMessages(ctx, ids); err != nil {
		return err
	}
	if len(ids) > 0 {
		a.forgetEmbeddings(ctx, func(store vector.Store, index string) error { return store.DeleteVectors(ctx, index, ids) })
	}
	return nil
}

// forgetEmbeddings runs del on each of the recall's message indexes.
func (a *Agent) forgetEmbeddings(ctx context.Context, del func(vector.Store, string) error) {
	sr := a.recallOptions()
	if sr == nil {
		return
	}
	names, err := sr.Vector.ListIndexes(ctx)
	if err != nil {
		a.cfg.Logger.Warn("agent: cannot list the vector indexes to delete embeddings", "agent", a.ID(), "error", err)
		return
	}
	for _, name := range names {
		if name != sr.IndexName && (sr.IndexName != "" || !strings.HasPrefix(name, messageIndexPrefix)) {
			continue
		}
		if err := del(sr.Vector, name); err != nil {
			a.cfg.Logger.Warn("agent: cannot delete embeddings", "agent", a.ID(), "index", name, "error", err)
		}
	}
}
