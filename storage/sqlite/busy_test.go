package sqlite

import (
	"database/sql"
	"errors"
	"net/url"
	"path/filepath"
	"testing"
)

// TestIsBusyTellsSQLiteBusy: the error of a write refused at once because
// another connection holds the database's write lock is SQLITE_BUSY to
// isBusy; other errors are not.
func TestIsBusyTellsSQLiteBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	open := func() *sql.DB {
		q := url.Values{}
		q.Add("_pragma", "busy_timeout(0)")
		db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { db.Close() })
		return db
	}
	holder, other := open(), open()
	if _, err := holder.Exec(`CREATE TABLE t (x INTEGER)`); err != nil {
		t.Fatal(err)
	}
	tx, err := holder.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	_, err = other.Exec(`INSERT INTO t VALUES (2)`)
	if err == nil || !isBusy(err) {
		t.Errorf("a write while another holds the lock: %v, isBusy false", err)
	}
	if isBusy(errors.New("database is locked")) {
		t.Error("isBusy of an error without an SQLite code")
	}
}
