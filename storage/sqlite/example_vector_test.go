package sqlite_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/storage/vector"
)

// Semantic recall's side of a store: messages' embeddings kept in an
// index with their thread and resource, then the nearest ones to a new
// message's embedding, among one resource's. Real embeddings come from
// an embedding model (1536 dimensions for OpenAI's
// text-embedding-3-small); these have 3.
func ExampleStore_Query() {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, sqlite.Memory) // or a file, as for the rest of storage
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	// Idempotent: call it at every start.
	if err := s.CreateIndex(ctx, "memory_messages", 3); err != nil {
		log.Fatal(err)
	}
	meta := func(msg, thread, resource string) map[string]any {
		return map[string]any{vector.KeyMessageID: msg, vector.KeyThreadID: thread, vector.KeyResourceID: resource}
	}
	err = s.Upsert(ctx, "memory_messages", []vector.Record{
		{ID: "msg-1", Vector: []float32{0.9, 0.1, 0}, Metadata: meta("msg-1", "thread-a", "user-1")}, // "my dog is called Rex"
		{ID: "msg-2", Vector: []float32{0, 1, 0.2}, Metadata: meta("msg-2", "thread-a", "user-1")},   // "book a flight to Oslo"
		{ID: "msg-3", Vector: []float32{0.8, 0.3, 0}, Metadata: meta("msg-3", "thread-b", "user-1")}, // "Rex needs a vet"
		{ID: "msg-4", Vector: []float32{1, 0, 0}, Metadata: meta("msg-4", "thread-c", "user-2")},     // another user's
	})
	if err != nil {
		log.Fatal(err)
	}

	// "what is my dog's name?", across the resource's threads.
	matches, err := s.Query(ctx, "memory_messages", vector.Query{
		Vector: []float32{1, 0.05, 0},
		TopK:   2,
		Filter: vector.Filter{vector.KeyResourceID: "user-1"},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range matches {
		fmt.Printf("%s %.3f %s\n", m.Metadata[vector.KeyMessageID], m.Score, m.Metadata[vector.KeyThreadID])
	}
	// Output:
	// msg-1 0.998 thread-a
	// msg-3 0.953 thread-b
}
