package enginetest_test

import (
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/enginetest"
)

func TestLocalEngine(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, m *mastra.Mastra) enginetest.Runner { return enginetest.Local(m) })
}

func TestLocalWorkflows(t *testing.T) {
	enginetest.RunWorkflows(t, func(*testing.T, *mastra.Mastra) {})
}
