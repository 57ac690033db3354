package workflows_test

import (
	"testing"

	"github.com/gomastra/mastra/internal/pgtest"
)

// TestMain stops the scratch PostgreSQL the durable-run tests start.
func TestMain(m *testing.M) { pgtest.Main(m) }
