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

// SaveResource creates the resource or replaces its working memory,
// metadata and UpdatedAt (CreatedAt is kept; zero times are set to
// now). The ID must not be empty.
func (s *Store) SaveResource(ctx context.Context, r storage.Resource) error {
	if err := storage.CheckResource(r); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	meta, err := sqlstore.MetadataArg(r.Metadata)
	if err != nil {
		return fmt.Errorf("postgres: save resource %s: metadata: %w", r.ID, err)
	}
	n := now()
	_, err = s.pool.Exec(ctx, `INSERT INTO mastra_resources (id, working_memory, metadata, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (id) DO UPDATE SET working_memory = excluded.working_memory, metadata = excluded.metadata, updated_at = excluded.updated_at`,
		r.ID, r.WorkingMemory, meta, orNow(r.CreatedAt, n), orNow(r.UpdatedAt, n))
	if err != nil {
		return storage.DatabaseFailure("save resource", fmt.Errorf("postgres: save resource %s: %w", r.ID, err))
	}
	return nil
}

// GetResource returns the resource, or an error wrapping
// storage.ErrNotFound.
func (s *Store) GetResource(ctx context.Context, id string) (*storage.Resource, error) {
	var (
		r                storage.Resource
		meta             *string
		created, updated time.Time
	)
	err := s.pool.QueryRow(ctx, `SELECT id, working_memory, metadata, created_at, updated_at
		FROM mastra_resources WHERE id = $1`, id).Scan(&r.ID, &r.WorkingMemory, &meta, &created, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: get resource %s: %w", id, storage.ErrNotFound)
	}
	if err == nil && meta != nil {
		err = json.Unmarshal([]byte(*meta), &r.Metadata)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("get resource", fmt.Errorf("postgres: get resource %s: %w", id, err))
	}
	r.CreatedAt, r.UpdatedAt = created.UTC(), updated.UTC()
	return &r, nil
}
