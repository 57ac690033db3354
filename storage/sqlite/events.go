package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gomastra/mastra/internal/sqlstore"
	"github.com/gomastra/mastra/storage"
)

// eventPoll is how often WaitEvents checks the log without news: appends
// through this Store wake it at once; those of another process sharing
// the file are seen at the next check.
const eventPoll = time.Second

// AppendEvents appends events to the run's log in one IMMEDIATE
// transaction, which takes the log's next indexes from its row
// (creating it at 0) and inserts the events, and returns the first
// index. The database's write lock orders concurrent appends, in this
// process or another. An append to an ended log fails with
// storage.ErrConflict. It wakes this Store's WaitEvents on the run.
func (s *Store) AppendEvents(ctx context.Context, runID string, events ...storage.Event) (int64, error) {
	if err := storage.CheckEvents(runID, events); err != nil {
		return 0, fmt.Errorf("sqlite: %w", err)
	}
	var first int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		n := int64(len(events))
		ended := events[n-1].Type == storage.EventEnd
		at := toMicros(now())
		var length int64
		err := tx.QueryRowContext(ctx, `INSERT INTO mastra_run_event_logs (run_id, length, ended, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (run_id) DO UPDATE SET length = length + excluded.length, ended = excluded.ended, updated_at = excluded.updated_at
			WHERE ended = 0
			RETURNING length`, runID, n, ended, at).Scan(&length)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("the log has ended: %w", storage.ErrConflict)
		}
		if err != nil {
			return err
		}
		first = length - n
		return insertEvents(ctx, tx, runID, first, at, events)
	})
	if err != nil {
		return 0, storage.DatabaseFailure("append events", fmt.Errorf("sqlite: append events to run %s: %w", runID, err))
	}
	s.events.Notify(runID)
	return first, nil
}

// eventsPerInsert bounds the rows of one INSERT: 5 parameters each,
// well under SQLite's limit of 32766 parameters per statement.
const eventsPerInsert = 1000

// insertEvents inserts events at indexes from first on, with one
// multi-row INSERT per eventsPerInsert events.
func insertEvents(ctx context.Context, tx *sql.Tx, runID string, first, at int64, events []storage.Event) error {
	for len(events) > 0 {
		batch := events[:min(len(events), eventsPerInsert)]
		var q strings.Builder
		q.WriteString(`INSERT INTO mastra_run_events (run_id, idx, type, data, created_at) VALUES `)
		args := make([]any, 0, 5*len(batch))
		for i, e := range batch {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?)")
			args = append(args, runID, first+int64(i), e.Type, sqlstore.JSONArg(e.Data), at)
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return err
		}
		events, first = events[len(batch):], first+int64(len(batch))
	}
	return nil
}

// ReadEvents returns the run's events from index from on, in order, at
// most limit (all when limit <= 0).
func (s *Store) ReadEvents(ctx context.Context, runID string, from int64, limit int) ([]storage.Event, error) {
	if err := storage.CheckReadEvents(runID, from); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	n := int64(-1) // no limit
	if limit > 0 {
		n = int64(limit)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT idx, type, data, created_at FROM mastra_run_events
		WHERE run_id = ? AND idx >= ? ORDER BY idx LIMIT ?`, runID, from, n)
	var events []storage.Event
	if err == nil {
		events, err = collect(rows, scanEvent)
	}
	if err != nil {
		return nil, storage.DatabaseFailure("read events", fmt.Errorf("sqlite: read events of run %s: %w", runID, err))
	}
	if len(events) == 0 {
		return nil, nil
	}
	return events, nil
}

func scanEvent(row scanner) (storage.Event, error) {
	var (
		e    storage.Event
		data []byte
		at   int64
	)
	err := row.Scan(&e.Index, &e.Type, &data, &at)
	e.Data, e.CreatedAt = jsonValue(data), fromMicros(at)
	return e, err
}

// WaitEvents returns nil once the run's log holds an event of index
// above after or has ended, or ctx's error. Appends through this Store
// wake it at once; it checks the database every second too, for
// appends of other processes.
func (s *Store) WaitEvents(ctx context.Context, runID string, after int64) error {
	if err := storage.CheckReadEvents(runID, after+1); err != nil {
		return fmt.Errorf("sqlite: wait: %w", err)
	}
	err := s.events.Wait(ctx, runID, eventPoll, func() (bool, error) {
		var length int64
		var ended bool
		err := s.r.QueryRowContext(ctx, `SELECT length, ended FROM mastra_run_event_logs WHERE run_id = ?`, runID).Scan(&length, &ended)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil && (ended || length > after+1), err
	})
	if err != nil && ctx.Err() == nil {
		return storage.DatabaseFailure("wait for events", fmt.Errorf("sqlite: wait for events of run %s: %w", runID, err))
	}
	return err
}

// DeleteEvents removes the logs old selects, their events with them
// (the foreign key's cascade), in one statement an index on the logs'
// last append serves.
func (s *Store) DeleteEvents(ctx context.Context, old storage.OldEvents) (int, error) {
	var removed int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM mastra_run_event_logs WHERE updated_at < ? OR (ended = 1 AND updated_at < ?)`,
			bound(old.IdleBefore), bound(old.EndedBefore))
		if err == nil {
			removed, err = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return 0, storage.DatabaseFailure("delete events", fmt.Errorf("sqlite: delete events: %w", err))
	}
	return int(removed), nil
}

// bound is the stored form of an upper time bound: t rounded up, or,
// for a zero t, a bound no time is below.
func bound(t time.Time) int64 {
	if t.IsZero() {
		return math.MinInt64
	}
	return ceilMicros(t)
}
