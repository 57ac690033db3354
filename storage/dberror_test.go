package storage_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/storage"
)

// sqlStateError is a driver error with an SQLSTATE, as pgx's.
type sqlStateError struct{}

func (sqlStateError) Error() string    { return "relation \"mastra_runs\" does not exist" }
func (sqlStateError) SQLState() string { return "42P01" }

func TestDatabaseFailure(t *testing.T) {
	driver := errors.New(`dial tcp 10.0.0.5:5432: connect: connection refused`)
	err := storage.DatabaseFailure("get run", fmt.Errorf("postgres: get run r1: %w", driver))
	if err.Error() != "storage: get run failed" {
		t.Errorf("text %q", err)
	}
	if !errors.Is(err, driver) || !storage.IsDatabaseError(err) {
		t.Errorf("%v does not wrap the driver's error", err)
	}
	wrapped := fmt.Errorf("agent: load run: %w", err)
	if got, want := storage.ErrorDetail(wrapped), "agent: load run: postgres: get run r1: "+driver.Error(); got != want {
		t.Errorf("ErrorDetail = %q, want %q", got, want)
	}
	if b, _ := json.Marshal(err); string(b) != `{"message":"storage: get run failed"}` {
		t.Errorf("JSON %s", b)
	}
	if again := storage.DatabaseFailure("list runs", wrapped); again != wrapped {
		t.Errorf("a DatabaseError wrapped twice: %v", again)
	}
	for _, keep := range []error{nil, fmt.Errorf("sqlite: get run r1: %w", storage.ErrNotFound), fmt.Errorf("x: %w", storage.ErrConflict)} {
		if got := storage.DatabaseFailure("get run", keep); got != keep {
			t.Errorf("DatabaseFailure(%v) = %v, want it unchanged", keep, got)
		}
	}
	deadline := storage.DatabaseFailure("list runs", fmt.Errorf("sqlite: list runs: %w", context.DeadlineExceeded))
	if !errors.Is(deadline, context.DeadlineExceeded) {
		t.Errorf("%v hides its deadline", deadline)
	}
}

func TestIsDatabaseError(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("boom"), false},
		{storage.ErrNotFound, false},
		{fmt.Errorf("postgres: %w", sqlStateError{}), true},
		{&storage.DatabaseError{Op: "get run", Err: errors.New("sql: database is closed")}, true},
	} {
		if got := storage.IsDatabaseError(c.err); got != c.want {
			t.Errorf("IsDatabaseError(%v) = %v", c.err, got)
		}
	}
	if got := storage.ErrorDetail(errors.New("plain")); got != "plain" {
		t.Errorf("ErrorDetail of a plain error = %q", got)
	}
	if got := storage.ErrorDetail(nil); got != "" {
		t.Errorf("ErrorDetail(nil) = %q", got)
	}
}
