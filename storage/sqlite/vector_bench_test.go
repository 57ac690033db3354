package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/gomastra/mastra/storage/vector/vectortest"
)

// BenchmarkVectorQuery is a semantic recall query among 1,000, 10,000
// and 100,000 vectors of one resource, of 384 and 1536 dimensions (see
// vectortest.BenchQuery), in a file.
func BenchmarkVectorQuery(b *testing.B) {
	s, err := Open(b.Context(), filepath.Join(b.TempDir(), "mastra.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	vectortest.BenchQuery(b, s, nil)
}
