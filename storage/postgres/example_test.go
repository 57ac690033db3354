package postgres_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres"
)

// Several processes open the same database; each run's versions and
// resume claims hold across all of them.
func ExampleOpen() {
	ctx := context.Background()
	s, err := postgres.Open(ctx, os.Getenv("DATABASE_URL")) // postgres://user:pass@host:5432/db
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	runs, total, err := s.ListRuns(ctx, storage.RunFilter{Status: storage.RunSuspended, PerPage: 20})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d suspended runs, first page: %d\n", total, len(runs))
}
