package storage_test

import (
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// A server checks the ids a client sends before any storage sees them.
func ExampleCheckID() {
	fmt.Println(storage.CheckID("run-1"))
	fmt.Println(storage.CheckID("run\x00"))
	// Output:
	// <nil>
	// must not contain a NUL character (U+0000)
}
