package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

// messageArgs validates m and returns its stored form: id, thread_id,
// resource_id, role, content, metadata, created_at.
func messageArgs(m storage.Message, n int64) ([]any, error) {
	if err := storage.CheckMessage(m); err != nil {
		return nil, err
	}
	content, meta := sqlstore.JSONArg(m.Content), sqlstore.JSONArg(m.Metadata)
	created := n
	if !m.CreatedAt.IsZero() {
		created = toMicros(m.CreatedAt)
	}
	return []any{m.ID, m.ThreadID, m.ResourceID, m.Role, content, meta, created}, nil
}

// SaveMessages inserts the messages, or replaces the role, content and
// metadata of those whose id exists (thread, resource, CreatedAt and
// place in the thread are kept), in one transaction: all or none. Every
// message needs an ID and a ThreadID, and Content and Metadata must be
// empty or valid JSON; otherwise nothing is saved. A zero CreatedAt is
// set to now.
func (s *Store) SaveMessages(ctx context.Context, msgs []storage.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	n := toMicros(now())
	args := make([][]any, len(msgs))
	for i, m := range msgs {
		a, err := messageArgs(m, n)
		if err != nil {
			return fmt.Errorf("sqlite: save messages: message %d: %w", i, err)
		}
		args[i] = a
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO mastra_messages (id, thread_id, resource_id, role, content, metadata, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET role = excluded.role, content = excluded.content, metadata = excluded.metadata`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, a := range args {
			if _, err := stmt.ExecContext(ctx, a...); err != nil {
				return fmt.Errorf("message %s: %w", a[0], err)
			}
		}
		return nil
	})
	if err != nil {
		return storage.DatabaseFailure("save messages", fmt.Errorf("sqlite: save messages: %w", err))
	}
	return nil
}

// ListMessages returns the thread's last n messages (all when n <= 0),
// oldest first: by CreatedAt, then in the order they were first saved.
func (s *Store) ListMessages(ctx context.Context, threadID string, n int) ([]storage.Message, error) {
	limit := int64(n)
	if n <= 0 {
		limit = -1 // no limit
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, thread_id, resource_id, role, content, metadata, created_at FROM (
			SELECT seq, id, thread_id, resource_id, role, content, metadata, created_at
			FROM mastra_messages WHERE thread_id = ?
			ORDER BY created_at DESC, seq DESC LIMIT ?
		) ORDER BY created_at, seq`, threadID, limit)
	if err != nil {
		return nil, storage.DatabaseFailure("list messages", fmt.Errorf("sqlite: list messages of %s: %w", threadID, err))
	}
	msgs, err := collect(rows, scanMessage)
	if err != nil {
		return nil, storage.DatabaseFailure("list messages", fmt.Errorf("sqlite: list messages of %s: %w", threadID, err))
	}
	return msgs, nil
}

// GetMessage returns one message, or an error wrapping
// storage.ErrNotFound.
func (s *Store) GetMessage(ctx context.Context, id string) (*storage.Message, error) {
	row := s.r.QueryRowContext(ctx, `SELECT id, thread_id, resource_id, role, content, metadata, created_at
		FROM mastra_messages WHERE id = ?`, id)
	m, err := scanMessage(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: get message %s: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("get message", fmt.Errorf("sqlite: get message %s: %w", id, err))
	}
	return &m, nil
}

// GetMessages returns the messages with the given ids, in the order of
// ids (an id given twice gives its message twice), skipping ids with no
// message. It is one query, whatever the number of ids: they go as one
// parameter, a JSON array, which json_each unrolls and the messages'
// id index is probed with.
func (s *Store) GetMessages(ctx context.Context, ids []string) ([]storage.Message, error) {
	if len(ids) == 0 {
		return []storage.Message{}, nil
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return nil, storage.DatabaseFailure("get messages", fmt.Errorf("sqlite: get messages: %w", err))
	}
	rows, err := s.r.QueryContext(ctx, `SELECT m.id, m.thread_id, m.resource_id, m.role, m.content, m.metadata, m.created_at
		FROM json_each(?) AS want JOIN mastra_messages AS m ON m.id = want.value
		ORDER BY want.key`, string(idList))
	if err != nil {
		return nil, storage.DatabaseFailure("get messages", fmt.Errorf("sqlite: get messages: %w", err))
	}
	msgs, err := collect(rows, scanMessage)
	if err != nil {
		return nil, storage.DatabaseFailure("get messages", fmt.Errorf("sqlite: get messages: %w", err))
	}
	return msgs, nil
}

func scanMessage(sc scanner) (storage.Message, error) {
	var (
		m             storage.Message
		content, meta []byte
		created       int64
	)
	if err := sc.Scan(&m.ID, &m.ThreadID, &m.ResourceID, &m.Role, &content, &meta, &created); err != nil {
		return m, err
	}
	m.Content, m.Metadata, m.CreatedAt = jsonValue(content), jsonValue(meta), fromMicros(created)
	return m, nil
}

// DeleteMessages removes the messages with the given ids in one
// statement; ids with no message are skipped.
func (s *Store) DeleteMessages(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return storage.DatabaseFailure("delete messages", fmt.Errorf("sqlite: delete messages: %w", err))
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM mastra_messages WHERE id IN (SELECT value FROM json_each(?))`, string(idList))
		return err
	})
	if err != nil {
		return storage.DatabaseFailure("delete messages", fmt.Errorf("sqlite: delete messages: %w", err))
	}
	return nil
}
