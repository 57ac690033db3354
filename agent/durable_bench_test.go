package agent_test

import (
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/internal/crashtest/agentcrash"
)

// BenchmarkSuspendResume measures a suspend→resume round trip on SQLite
// (see agentcrash.BenchSuspendResume; the storage/postgres module has
// the PostgreSQL one).
func BenchmarkSuspendResume(b *testing.B) { agentcrash.BenchSuspendResume(b, crashtest.SQLite) }
