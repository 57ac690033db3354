package sqlite

import (
	"errors"
	"os"
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

// BenchmarkAppend compares appending a change to a run with saving its
// whole snapshot (see storagetest.BenchAppend), on a file (WAL,
// synchronous=FULL, as Open sets it: each write is fsynced), with the
// bytes each write adds to the WAL, and in memory.
func BenchmarkAppend(b *testing.B) {
	b.Run("file", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "mastra.db")
		s, err := Open(b.Context(), path)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		written := walMeter(b, s, path)
		storagetest.BenchAppend(b, s, func() (int64, error) { return written(), nil })
	})
	b.Run("memory", func(b *testing.B) {
		s, err := Open(b.Context(), Memory)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storagetest.BenchAppend(b, s, nil)
	})
}

// walMeter turns automatic checkpoints of s, a file database at path,
// off and returns a function that tells how many bytes its writes have
// added to the WAL since it was last called (each call empties the WAL:
// a TRUNCATE checkpoint).
func walMeter(tb testing.TB, s *Store, path string) func() int64 {
	tb.Helper()
	ctx := tb.Context()
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
		tb.Fatal(err)
	}
	checkpoint := func() {
		var busy, frames, done int
		if err := s.w.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &frames, &done); err != nil {
			tb.Fatal(err)
		}
		if busy != 0 {
			tb.Fatal("wal_checkpoint(TRUNCATE) could not finish")
		}
	}
	checkpoint()
	return func() int64 {
		fi, err := os.Stat(path + "-wal")
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			tb.Fatal(err)
		}
		var size int64
		if fi != nil {
			size = fi.Size()
		}
		checkpoint()
		return size
	}
}

// BenchmarkListFinishedRuns lists a workflow's runs among 10,000 stored
// finished ones (see storagetest.BenchListFinished), in a file.
func BenchmarkListFinishedRuns(b *testing.B) {
	s, err := Open(b.Context(), filepath.Join(b.TempDir(), "mastra.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	storagetest.BenchListFinished(b, s, 10000)
}
