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

// GetThreadState returns the thread's value of type typ, or ok == false
// when none is set.
func (s *Store) GetThreadState(ctx context.Context, threadID, typ string) (json.RawMessage, bool, error) {
	var v []byte
	err := s.r.QueryRowContext(ctx, `SELECT value FROM mastra_thread_state WHERE thread_id = ? AND type = ?`,
		threadID, typ).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, storage.DatabaseFailure("get thread state", fmt.Errorf("sqlite: get thread state %s/%s: %w", threadID, typ, err))
	}
	return jsonValue(v), true, nil
}

// SetThreadState replaces the thread's value of type typ. The value must
// be empty or valid JSON; the thread need not exist (DeleteThread removes
// its state all the same).
func (s *Store) SetThreadState(ctx context.Context, threadID, typ string, value json.RawMessage) error {
	if err := storage.CheckJSON(value); err != nil {
		return fmt.Errorf("sqlite: set thread state %s/%s: %w", threadID, typ, err)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO mastra_thread_state (thread_id, type, value, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (thread_id, type) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		threadID, typ, sqlstore.JSONArg(value), toMicros(now()))
	if err != nil {
		return storage.DatabaseFailure("set thread state", fmt.Errorf("sqlite: set thread state %s/%s: %w", threadID, typ, err))
	}
	return nil
}
