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

// BenchmarkAppend compares appending a change to a run with saving its
// whole snapshot (see storagetest.BenchAppend), with the bytes of WAL
// each write adds (pg_current_wal_insert_lsn; the whole server's, so
// other work on it counts too). The scratch cluster runs with fsync off.
func BenchmarkAppend(b *testing.B) {
	s, err := Open(b.Context(), pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var last int64
	lsn := func() (int64, error) {
		var at int64
		err := s.pool.QueryRow(b.Context(), `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint`).Scan(&at)
		return at, err
	}
	if last, err = lsn(); err != nil {
		b.Fatal(err)
	}
	storagetest.BenchAppend(b, s, func() (int64, error) {
		at, err := lsn()
		n := at - last
		last = at
		return n, err
	})
}
