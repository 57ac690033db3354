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

// SaveThread creates the thread or replaces its title, metadata and
// UpdatedAt (CreatedAt and ResourceID are kept; zero times are set to
// now). The ID must not be empty.
func (s *Store) SaveThread(ctx context.Context, t storage.Thread) error {
	if err := storage.CheckThread(t); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	meta, err := sqlstore.MetadataArg(t.Metadata)
	if err != nil {
		return fmt.Errorf("sqlite: save thread %s: metadata: %w", t.ID, err)
	}
	n := now()
	_, err = s.w.ExecContext(ctx, `INSERT INTO mastra_threads (id, resource_id, title, metadata, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, metadata = excluded.metadata, updated_at = excluded.updated_at`,
		t.ID, t.ResourceID, t.Title, meta, toMicros(orNow(t.CreatedAt, n)), toMicros(orNow(t.UpdatedAt, n)))
	if err != nil {
		return storage.DatabaseFailure("save thread", fmt.Errorf("sqlite: save thread %s: %w", t.ID, err))
	}
	return nil
}

// GetThread returns the thread, or an error wrapping storage.ErrNotFound.
func (s *Store) GetThread(ctx context.Context, id string) (*storage.Thread, error) {
	row := s.r.QueryRowContext(ctx, `SELECT id, resource_id, title, metadata, created_at, updated_at
		FROM mastra_threads WHERE id = ?`, id)
	t, err := scanThread(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: get thread %s: %w", id, storage.ErrNotFound)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("get thread", fmt.Errorf("sqlite: get thread %s: %w", id, err))
	}
	return &t, nil
}

// ListThreads returns the resource's threads (every thread for ""), newest CreatedAt first
// (ties: last created first).
func (s *Store) ListThreads(ctx context.Context, resourceID string) ([]storage.Thread, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, resource_id, title, metadata, created_at, updated_at
		FROM mastra_threads WHERE ? = '' OR resource_id = ? ORDER BY created_at DESC, rowid DESC`, resourceID, resourceID)
	if err != nil {
		return nil, storage.DatabaseFailure("list threads", fmt.Errorf("sqlite: list threads of %s: %w", resourceID, err))
	}
	threads, err := collect(rows, scanThread)
	if err != nil {
		return nil, storage.DatabaseFailure("list threads", fmt.Errorf("sqlite: list threads of %s: %w", resourceID, err))
	}
	return threads, nil
}

// DeleteThread removes the thread, its messages and its state, in one
// transaction. Deleting a missing thread is not an error.
func (s *Store) DeleteThread(ctx context.Context, id string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM mastra_messages WHERE thread_id = ?`,
			`DELETE FROM mastra_thread_state WHERE thread_id = ?`,
			`DELETE FROM mastra_threads WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return storage.DatabaseFailure("delete thread", fmt.Errorf("sqlite: delete thread %s: %w", id, err))
	}
	return nil
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// collect scans every row of rows with scan, then closes rows. With no
// rows it returns an empty slice, not nil.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func scanThread(sc scanner) (storage.Thread, error) {
	var (
		t                storage.Thread
		meta             []byte
		created, updated int64
	)
	if err := sc.Scan(&t.ID, &t.ResourceID, &t.Title, &meta, &created, &updated); err != nil {
		return t, err
	}
	if meta != nil {
		if err := json.Unmarshal(meta, &t.Metadata); err != nil {
			return t, fmt.Errorf("thread %s: metadata: %w", t.ID, err)
		}
	}
	t.CreatedAt, t.UpdatedAt = fromMicros(created), fromMicros(updated)
	return t, nil
}
