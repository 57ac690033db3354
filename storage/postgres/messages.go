package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

const messageColumns = `id, thread_id, resource_id, role, content, metadata, created_at`

// messageArgs validates m and returns its stored form, in the order of
// messageColumns.
func messageArgs(m storage.Message, n time.Time) ([]any, error) {
	if err := storage.CheckMessage(m); err != nil {
		return nil, err
	}
	content, meta := sqlstore.JSONArg(m.Content), sqlstore.JSONArg(m.Metadata)
	return []any{m.ID, m.ThreadID, m.ResourceID, m.Role, content, meta, orNow(m.CreatedAt, n)}, nil
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
	n := now()
	args := make([][]any, len(msgs))
	for i, m := range msgs {
		a, err := messageArgs(m, n)
		if err != nil {
			return fmt.Errorf("postgres: save messages: message %d: %w", i, err)
		}
		args[i] = a
	}
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		batch := &pgx.Batch{}
		for _, a := range args {
			batch.Queue(`INSERT INTO mastra_messages (`+messageColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)
				ON CONFLICT (id) DO UPDATE SET role = excluded.role, content = excluded.content, metadata = excluded.metadata`, a...)
		}
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return storage.DatabaseFailure("save messages", fmt.Errorf("postgres: save messages: %w", err))
	}
	return nil
}

// ListMessages returns the thread's last n messages (all when n <= 0),
// oldest first: by CreatedAt, then in the order they were first saved.
func (s *Store) ListMessages(ctx context.Context, threadID string, n int) ([]storage.Message, error) {
	var limit *int64 // NULL: no limit
	if n > 0 {
		l := int64(n)
		limit = &l
	}
	rows, err := s.pool.Query(ctx, `SELECT `+messageColumns+` FROM (
			SELECT seq, `+messageColumns+` FROM mastra_messages WHERE thread_id = $1
			ORDER BY created_at DESC, seq DESC LIMIT $2::bigint
		) last ORDER BY created_at, seq`, threadID, limit)
	if err != nil {
		return nil, storage.DatabaseFailure("list messages", fmt.Errorf("postgres: list messages of %s: %w", threadID, err))
	}
	msgs, err := pgx.CollectRows(rows, rowTo(scanMessage))
	if err != nil {
		return nil, storage.DatabaseFailure("list messages", fmt.Errorf("postgres: list messages of %s: %w", threadID, err))
	}
	return msgs, nil
}

// GetMessage returns one message, or an error wrapping
// storage.ErrNotFound.
func (s *Store) GetMessage(ctx context.Context, id string) (*storage.Message, error) {
	m, err := scanMessage(s.pool.QueryRow(ctx, `SELECT `+messageColumns+` FROM mastra_messages WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: get message %s: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("get message", fmt.Errorf("postgres: get message %s: %w", id, err))
	}
	return &m, nil
}

// GetMessages returns the messages with the given ids, in the order of
// ids (an id given twice gives its message twice), skipping ids with no
// message. It is one query, whatever the number of ids: they go as one
// text[] parameter, unnested with their places.
func (s *Store) GetMessages(ctx context.Context, ids []string) ([]storage.Message, error) {
	if len(ids) == 0 {
		return []storage.Message{}, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT m.id, m.thread_id, m.resource_id, m.role, m.content, m.metadata, m.created_at
		FROM unnest($1::text[]) WITH ORDINALITY AS want (id, place) JOIN mastra_messages m ON m.id = want.id
		ORDER BY want.place`, ids)
	if err != nil {
		return nil, storage.DatabaseFailure("get messages", fmt.Errorf("postgres: get messages: %w", err))
	}
	msgs, err := pgx.CollectRows(rows, rowTo(scanMessage))
	if err != nil {
		return nil, storage.DatabaseFailure("get messages", fmt.Errorf("postgres: get messages: %w", err))
	}
	return msgs, nil
}

func scanMessage(row pgx.Row) (storage.Message, error) {
	var (
		m             storage.Message
		content, meta *string
		created       time.Time
	)
	if err := row.Scan(&m.ID, &m.ThreadID, &m.ResourceID, &m.Role, &content, &meta, &created); err != nil {
		return m, err
	}
	m.Content, m.Metadata, m.CreatedAt = jsonValue(content), jsonValue(meta), created.UTC()
	return m, nil
}

// DeleteMessages removes the messages with the given ids in one
// statement; ids with no message are skipped.
func (s *Store) DeleteMessages(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM mastra_messages WHERE id = ANY($1::text[])`, ids); err != nil {
		return storage.DatabaseFailure("delete messages", fmt.Errorf("postgres: delete messages: %w", err))
	}
	return nil
}
