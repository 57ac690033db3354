package storage_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// A run appends its chunks to its event log as it streams them; a
// reader attaches at an offset (here 1, a reconnecting client that had
// the first chunk) and follows the log until its end.
func ExampleNewMemoryEvents() {
	ctx := context.Background()
	log := storage.NewMemoryEvents()
	go func() {
		for _, text := range []string{"Hel", "lo", "!"} {
			data, _ := json.Marshal(map[string]string{"text": text})
			log.AppendEvents(ctx, "run-1", storage.Event{Type: "text-delta", Data: data})
		}
		log.AppendEvents(ctx, "run-1", storage.Event{Type: storage.EventEnd})
	}()

	next := int64(1)
	for {
		events, err := log.ReadEvents(ctx, "run-1", next, 100)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, e := range events {
			if e.Type == storage.EventEnd {
				fmt.Println("end at", e.Index)
				return
			}
			fmt.Println(e.Index, e.Type, string(e.Data))
			next = e.Index + 1
		}
		if len(events) == 0 {
			if err := log.WaitEvents(ctx, "run-1", next-1); err != nil {
				fmt.Println(err)
				return
			}
		}
	}
	// Output:
	// 1 text-delta {"text":"lo"}
	// 2 text-delta {"text":"!"}
	// end at 3
}
