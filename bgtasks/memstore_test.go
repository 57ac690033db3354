package bgtasks_test

import (
	"testing"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/bgtasks/bgtaskstest"
)

func TestMemoryStore(t *testing.T) {
	bgtaskstest.Run(t, func(*testing.T) bgtasks.Store { return bgtasks.NewMemoryStore() })
}
