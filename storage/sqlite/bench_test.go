package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/gomastra/mastra/storage/storagetest"
)

// BenchmarkSaveRunAndClaim is the storage part of a suspend and resume
// (see storagetest.BenchSaveRunAndClaim), on a file and in memory.
func BenchmarkSaveRunAndClaim(b *testing.B) {
	for _, tc := range []struct{ name, dsn string }{
		{"file", ""}, // a new file in the sub-benchmark's directory
		{"memory", Memory},
	} {
		b.Run(tc.name, func(b *testing.B) {
			dsn := tc.dsn
			if dsn == "" {
				dsn = filepath.Join(b.TempDir(), "mastra.db")
			}
			s, err := Open(b.Context(), dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storagetest.BenchSaveRunAndClaim(b, s)
		})
	}
}
