package storage_test

import (
	"errors"
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// A store returns its database's errors through DatabaseFailure: the
// error's text is generic, for clients; ErrorDetail is for the log.
func ExampleDatabaseFailure() {
	driver := errors.New("sql: database is closed")
	err := storage.DatabaseFailure("get run", fmt.Errorf("sqlite: get run r1: %w", driver))
	err = fmt.Errorf("agent: load run: %w", err)

	fmt.Println(err)
	fmt.Println(storage.ErrorDetail(err))
	fmt.Println(storage.IsDatabaseError(err), errors.Is(err, driver))

	notFound := fmt.Errorf("sqlite: get run r2: %w", storage.ErrNotFound)
	fmt.Println(storage.DatabaseFailure("get run", notFound))
	// Output:
	// agent: load run: storage: get run failed
	// agent: load run: sqlite: get run r1: sql: database is closed
	// true true
	// sqlite: get run r2: storage: not found
}
