package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
)

// A suspended run is saved, and its resume claimed once: the second
// claim, from this or any other process, loses.
func ExampleOpen() {
	ctx := context.Background()
	// A file path (".mastra/mastra.db") keeps the data; ":memory:" is
	// gone when the store is closed.
	s, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	v, err := s.SaveRun(ctx, storage.Run{
		RunID: "run-1", Kind: storage.KindAgent, Name: "weather-agent",
		Status: storage.RunSuspended, Snapshot: []byte(`{"step":1}`),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("saved version", v)

	fmt.Println("first claim:", s.ClaimResume(ctx, "run-1", "call-1", "process-a"))
	err = s.ClaimResume(ctx, "run-1", "call-1", "process-b")
	fmt.Println("second claim conflicts:", errors.Is(err, storage.ErrConflict))
	// Output:
	// saved version 1
	// first claim: <nil>
	// second claim conflicts: true
}
