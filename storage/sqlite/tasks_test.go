package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/bgtasks/bgtaskstest"
)

func TestBackgroundTasksFile(t *testing.T) {
	bgtaskstest.Run(t, func(t *testing.T) bgtasks.Store {
		return openT(t, filepath.Join(t.TempDir(), "mastra.db"))
	})
}

func TestBackgroundTasksMemory(t *testing.T) {
	bgtaskstest.Run(t, func(t *testing.T) bgtasks.Store { return openT(t, Memory) })
}

// TestBackgroundTasksAcrossStores: claims through two Stores of one file
// (two processes) take each task once, within one global limit.
func TestBackgroundTasksAcrossStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	a, b := openT(t, path), openT(t, path)
	bgtaskstest.RunShared(t, a, b)
}
