package storage_test

import (
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/storagetest"
)

// TestMemoryRuns runs the conformance checks of storage.Runs (snapshots,
// appends, journals, claims) on NewMemoryRuns.
func TestMemoryRuns(t *testing.T) {
	storagetest.RunRuns(t, func(t *testing.T) storage.Runs { return storage.NewMemoryRuns() })
}
