package sqlite

import (
	"context"

	"github.com/gomastra/mastra/storage"
)

// Driver opens SQLite stores from file paths and ":memory:" (see Open):
// the storage.Driver of paths without a URL scheme.
var Driver = storage.Driver{
	Name: "SQLite",
	Open: open,
}

// open is Open as a storage.Driver's Open: no store (nil, not a nil
// *Store) on error.
func open(ctx context.Context, path string) (storage.Store, error) {
	s, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return s, nil
}
