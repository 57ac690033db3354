package postgres

import (
	"testing"

	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/storage/storagetest"
)

// BenchmarkSaveRunAndClaim is the storage part of a suspend and resume
// (see storagetest.BenchSaveRunAndClaim). The scratch cluster runs with
// fsync off.
func BenchmarkSaveRunAndClaim(b *testing.B) {
	s, err := Open(b.Context(), pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	storagetest.BenchSaveRunAndClaim(b, s)
}
