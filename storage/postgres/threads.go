package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

const threadColumns = `id, resource_id, title, metadata, created_at, updated_at`

// SaveThread creates the thread or replaces its title, metadata and
// UpdatedAt (CreatedAt and ResourceID are kept; zero times are set to
// now). The ID must not be empty.
func (s *Store) SaveThread(ctx context.Context, t storage.Thread) error {
	if err := storage.CheckThread(t); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	meta, err := sqlstore.MetadataArg(t.Metadata)
	if err != nil {
		return fmt.Errorf("postgres: save thread %s: metadata: %w", t.ID, err)
	}
	n := now()
	_, err = s.pool.Exec(ctx, `INSERT INTO mastra_threads (`+threadColumns+`) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, metadata = excluded.metadata, updated_at = excluded.updated_at`,
		t.ID, t.ResourceID, t.Title, meta, orNow(t.CreatedAt, n), orNow(t.UpdatedAt, n))
	if err != nil {
		return storage.DatabaseFailure("save thread", fmt.Errorf("postgres: save thread %s: %w", t.ID, err))
	}
	return nil
}

// GetThread returns the thread, or an error wrapping storage.ErrNotFound.
func (s *Store) GetThread(ctx context.Context, id string) (*storage.Thread, error) {
	t, err := scanThread(s.pool.QueryRow(ctx, `SELECT `+threadColumns+` FROM mastra_threads WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: get thread %s: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("get thread", fmt.Errorf("postgres: get thread %s: %w", id, err))
	}
	return &t, nil
}

// ListThreads returns the resource's threads (every thread for ""), newest CreatedAt first
// (ties: last created first).
func (s *Store) ListThreads(ctx context.Context, resourceID string) ([]storage.Thread, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+threadColumns+` FROM mastra_threads WHERE $1 = '' OR resource_id = $1
		ORDER BY created_at DESC, seq DESC`, resourceID)
	if err != nil {
		return nil, storage.DatabaseFailure("list threads", fmt.Errorf("postgres: list threads of %s: %w", resourceID, err))
	}
	threads, err := pgx.CollectRows(rows, rowTo(scanThread))
	if err != nil {
		return nil, storage.DatabaseFailure("list threads", fmt.Errorf("postgres: list threads of %s: %w", resourceID, err))
	}
	return threads, nil
}

// DeleteThread removes the thread, its messages and its state, in one
// transaction. Deleting a missing thread is not an error.
func (s *Store) DeleteThread(ctx context.Context, id string) error {
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		for _, q := range []string{
			`DELETE FROM mastra_messages WHERE thread_id = $1`,
			`DELETE FROM mastra_thread_state WHERE thread_id = $1`,
			`DELETE FROM mastra_threads WHERE id = $1`,
		} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return storage.DatabaseFailure("delete thread", fmt.Errorf("postgres: delete thread %s: %w", id, err))
	}
	return nil
}

func scanThread(row pgx.Row) (storage.Thread, error) {
	var (
		t                storage.Thread
		meta             *string
		created, updated time.Time
	)
	if err := row.Scan(&t.ID, &t.ResourceID, &t.Title, &meta, &created, &updated); err != nil {
		return t, err
	}
	if meta != nil {
		if err := json.Unmarshal([]byte(*meta), &t.Metadata); err != nil {
			return t, fmt.Errorf("thread %s: metadata: %w", t.ID, err)
		}
	}
	t.CreatedAt, t.UpdatedAt = created.UTC(), updated.UTC()
	return t, nil
}
