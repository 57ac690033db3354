package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gomastra/mastra/storage"
)

// eventPoll is how often WaitEvents checks the log without news: a
// safety net, as appends of any process sharing the database wake it
// through LISTEN/NOTIFY.
const eventPoll = 5 * time.Second

// AppendEvents appends events to the run's log and returns the first
// index, in one statement: an upsert of the log's row takes the next
// indexes (concurrent appends to one run, from any process, wait for its
// row lock, so their indexes are contiguous and distinct) and feeds the
// INSERT of the events, and a NOTIFY on eventChannel, sent when it
// commits, wakes the followers of every Store of the database. An
// append to an ended log fails with storage.ErrConflict.
func (s *Store) AppendEvents(ctx context.Context, runID string, events ...storage.Event) (int64, error) {
	if err := storage.CheckEvents(runID, events); err != nil {
		return 0, fmt.Errorf("postgres: %w", err)
	}
	types := make([]string, len(events))
	data := make([]*string, len(events))
	for i, e := range events {
		types[i] = e.Type
		if len(e.Data) > 0 {
			d := string(e.Data)
			data[i] = &d
		}
	}
	ended := events[len(events)-1].Type == storage.EventEnd
	var first int64
	err := s.pool.QueryRow(ctx, `WITH head AS (
			INSERT INTO mastra_run_event_logs AS l (run_id, length, ended, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (run_id) DO UPDATE SET length = l.length + excluded.length, ended = excluded.ended, updated_at = excluded.updated_at
			WHERE NOT l.ended
			RETURNING l.length - $2 AS first
		), added AS (
			INSERT INTO mastra_run_events (run_id, idx, type, data, created_at)
			SELECT $1, head.first + e.ord - 1, e.type, e.data, $4
			FROM head, unnest($5::text[], $6::text[]) WITH ORDINALITY AS e(type, data, ord)
		)
		SELECT head.first FROM head, LATERAL (SELECT pg_notify('`+eventChannel+`', $1)) AS notified`,
		runID, int64(len(events)), ended, now(), types, data).Scan(&first)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("postgres: append events to run %s: the log has ended: %w", runID, storage.ErrConflict)
	}
	if err != nil {
		return 0, storage.DatabaseFailure("append events", fmt.Errorf("postgres: append events to run %s: %w", runID, err))
	}
	s.events.Notify(runID)
	return first, nil
}

// ReadEvents returns the run's events from index from on, in order, at
// most limit (all when limit <= 0).
func (s *Store) ReadEvents(ctx context.Context, runID string, from int64, limit int) ([]storage.Event, error) {
	if err := storage.CheckReadEvents(runID, from); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	var n *int64 // NULL: no limit
	if limit > 0 {
		l := int64(limit)
		n = &l
	}
	rows, err := s.pool.Query(ctx, `SELECT idx, type, data, created_at FROM mastra_run_events
		WHERE run_id = $1 AND idx >= $2 ORDER BY idx LIMIT $3::bigint`, runID, from, n)
	var events []storage.Event
	if err == nil {
		events, err = pgx.CollectRows(rows, rowTo(scanEvent))
	}
	if err != nil {
		return nil, storage.DatabaseFailure("read events", fmt.Errorf("postgres: read events of run %s: %w", runID, err))
	}
	if len(events) == 0 {
		return nil, nil
	}
	return events, nil
}

func scanEvent(row pgx.Row) (storage.Event, error) {
	var (
		e    storage.Event
		data *string
	)
	err := row.Scan(&e.Index, &e.Type, &data, &e.CreatedAt)
	e.Data, e.CreatedAt = jsonValue(data), e.CreatedAt.UTC()
	return e, err
}

// WaitEvents returns nil once the run's log holds an event of index
// above after or has ended, or ctx's error. Appends of any Store of the
// database wake it (the Store's listening connection, which its first
// WaitEvents opens, turns their NOTIFY into wakeups); it also checks
// every few seconds, in case a notification was lost.
func (s *Store) WaitEvents(ctx context.Context, runID string, after int64) error {
	if err := storage.CheckReadEvents(runID, after+1); err != nil {
		return fmt.Errorf("postgres: wait: %w", err)
	}
	s.listen.start(s.pool.Config().ConnConfig, &s.events)
	err := s.events.Wait(ctx, runID, eventPoll, func() (bool, error) {
		var length int64
		var ended bool
		err := s.pool.QueryRow(ctx, `SELECT length, ended FROM mastra_run_event_logs WHERE run_id = $1`, runID).Scan(&length, &ended)
		if errors.Is(err, pgx.ErrNoRows) {
			return false, nil
		}
		return err == nil && (ended || length > after+1), err
	})
	if err != nil && ctx.Err() == nil {
		return storage.DatabaseFailure("wait for events", fmt.Errorf("postgres: wait for events of run %s: %w", runID, err))
	}
	return err
}

// DeleteEvents removes the logs old selects, their events with them
// (the foreign key's cascade), in one statement an index on the logs'
// last append serves.
func (s *Store) DeleteEvents(ctx context.Context, old storage.OldEvents) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM mastra_run_event_logs WHERE updated_at < $1 OR (ended AND updated_at < $2)`,
		bound(old.IdleBefore), bound(old.EndedBefore))
	if err != nil {
		return 0, storage.DatabaseFailure("delete events", fmt.Errorf("postgres: delete events: %w", err))
	}
	return int(tag.RowsAffected()), nil
}

// bound is an upper time bound as sent: t rounded up, or NULL (no time
// is below it) for a zero t.
func bound(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	c := ceil(t)
	return &c
}
