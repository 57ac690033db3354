package storage_test

import (
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/storagetest"
)

func TestMemoryEventsConformance(t *testing.T) {
	storagetest.RunEventLog(t, func(*testing.T) storage.RunEvents { return storage.NewMemoryEvents() })
}

func BenchmarkMemoryAppendEvents(b *testing.B) {
	storagetest.BenchAppendEvents(b, storage.NewMemoryEvents())
}
