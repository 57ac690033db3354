package postgres

import (
	"context"

	"github.com/gomastra/mastra/storage"
)

// Driver opens PostgreSQL stores from postgres:// and postgresql:// URLs
// (see Open). Give it to an app's server to accept such URLs:
//
//	serve.Main(build, serve.WithStorage(postgres.Driver))
var Driver = storage.Driver{
	Name:    "PostgreSQL",
	Schemes: []string{"postgres", "postgresql"},
	Open:    open,
}

// open is Open as a storage.Driver's Open: no store (nil, not a nil
// *Store) on error.
func open(ctx context.Context, url string) (storage.Store, error) {
	s, err := Open(ctx, url)
	if err != nil {
		return nil, err
	}
	return s, nil
}
