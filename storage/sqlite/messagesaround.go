package sqlite

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// aroundQuery reads a message of a thread (?1 its id, ?2 the thread) with
// up to ?3 messages before it and ?4 after it, in the thread's order.
// Each side is a range scan of the thread's index from the message's
// place, (created_at, seq); no row comes back when the thread holds no
// such message.
const aroundQuery = `WITH target AS (
		SELECT created_at, seq FROM mastra_messages WHERE id = ?1 AND thread_id = ?2
	)
	SELECT id, thread_id, resource_id, role, content, metadata, created_at FROM (
		SELECT * FROM (
			SELECT m.seq, m.id, m.thread_id, m.resource_id, m.role, m.content, m.metadata, m.created_at
			FROM mastra_messages AS m, target AS t
			WHERE m.thread_id = ?2 AND (m.created_at, m.seq) < (t.created_at, t.seq)
			ORDER BY m.created_at DESC, m.seq DESC LIMIT ?3
		)
		UNION ALL
		SELECT * FROM (
			SELECT m.seq, m.id, m.thread_id, m.resource_id, m.role, m.content, m.metadata, m.created_at
			FROM mastra_messages AS m, target AS t
			WHERE m.thread_id = ?2 AND (m.created_at, m.seq) >= (t.created_at, t.seq)
			ORDER BY m.created_at, m.seq LIMIT ?4 + 1
		)
	) ORDER BY created_at, seq`

// ListMessagesAround returns the thread's message messageID with up to
// before messages before it and up to after after it, oldest first (by
// CreatedAt, then in the order they were first saved), in one query; an
// error wrapping storage.ErrNotFound when the thread holds no message
// messageID. Negative counts are 0.
func (s *Store) ListMessagesAround(ctx context.Context, threadID, messageID string, before, after int) ([]storage.Message, error) {
	rows, err := s.r.QueryContext(ctx, aroundQuery, messageID, threadID, max(before, 0), max(after, 0))
	if err != nil {
		return nil, storage.DatabaseFailure("list messages", fmt.Errorf("sqlite: list messages around %s: %w", messageID, err))
	}
	msgs, err := collect(rows, scanMessage)
	if err != nil {
		return nil, storage.DatabaseFailure("list messages", fmt.Errorf("sqlite: list messages around %s: %w", messageID, err))
	}
	if len(msgs) == 0 {
		return nil, fmt.Errorf("sqlite: message %s of thread %s: %w", messageID, threadID, storage.ErrNotFound)
	}
	return msgs, nil
}
