package storage

import (
	"encoding/json"
	"errors"
	"strings"
)

// DatabaseError is an error of a store's database or its driver: a
// statement the database refused, a connection lost or closed, stored
// data that cannot be read back. The stores of this module (SQLite,
// PostgreSQL, the memory runs) return every such error as one; their
// sentinel errors ([ErrNotFound], [ErrConflict]), which callers match,
// and the errors of their argument checks are not.
//
// Its text is generic, "storage: <Op> failed", so that whatever shows an
// error to a client — an HTTP answer, a stream's error chunk, an MCP tool
// result — shows none of the database's text, which may quote stored
// data, table names or a server's address. Err, the database's own error
// with the store's context, is for the log: [ErrorDetail] gives it.
// errors.Is and errors.As see through it (context.DeadlineExceeded, a
// driver's error type).
type DatabaseError struct {
	// Op is the store's call that failed, without its arguments: "get
	// run", "save messages".
	Op string
	// Err is the database's or driver's error, wrapped with the call's
	// arguments by the store.
	Err error
}

// Error is the generic text, "storage: <Op> failed".
func (e *DatabaseError) Error() string { return "storage: " + e.Op + " failed" }

// Unwrap returns Err.
func (e *DatabaseError) Unwrap() error { return e.Err }

// MarshalJSON writes the generic text as {"message": ...}, so that an
// error rendered as JSON does not show Err either.
func (e *DatabaseError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Message string `json:"message"`
	}{e.Error()})
}

// DatabaseFailure is what a store returns for err, met during op (see
// [DatabaseError.Op]): nil when err is nil; err itself when it wraps
// ErrNotFound or ErrConflict, the outcomes callers match; otherwise a
// *DatabaseError{Op: op, Err: err}.
func DatabaseFailure(op string, err error) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) {
		return err
	}
	var de *DatabaseError
	if errors.As(err, &de) {
		return err
	}
	return &DatabaseError{Op: op, Err: err}
}

// IsDatabaseError reports whether err's chain holds a database's own
// error: a *DatabaseError, or an error with an SQLSTATE code
// (SQLState() string), as PostgreSQL's driver returns for a failed
// statement, from a store that does not wrap its errors. A server
// answers it with a generic 500 and logs its [ErrorDetail].
func IsDatabaseError(err error) bool {
	var de *DatabaseError
	if errors.As(err, &de) {
		return true
	}
	var e interface{ SQLState() string }
	return errors.As(err, &e)
}

// ErrorDetail is err's text for a log: err.Error() with the generic text
// of the first *DatabaseError in its chain replaced by that error's
// detail (its Err's text, itself detailed). It is "" for nil.
func ErrorDetail(err error) string {
	if err == nil {
		return ""
	}
	text := err.Error()
	var de *DatabaseError
	if !errors.As(err, &de) || de.Err == nil {
		return text
	}
	detail := ErrorDetail(de.Err)
	if generic := de.Error(); strings.Contains(text, generic) {
		return strings.Replace(text, generic, detail, 1)
	}
	return text + ": " + detail
}
