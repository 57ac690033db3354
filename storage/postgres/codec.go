package postgres

import (
	"encoding/json"
	"time"
)

// Times are timestamptz (microseconds); they are truncated to the
// microsecond before they are sent, and returned in UTC.

// ts is t as stored.
func ts(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// ceil is t rounded up to the microsecond: the first stored time not
// before t.
func ceil(t time.Time) time.Time {
	if c := ts(t); c.Before(t) {
		return c.Add(time.Microsecond)
	}
	return ts(t)
}

// now is the current time as stored.
func now() time.Time { return ts(time.Now()) }

// orNow is t, or now when t is zero.
func orNow(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return ts(t)
}

// JSON values are stored as text, byte for byte; an empty value is NULL
// (see internal/sqlstore).

// jsonValue is a stored JSON value: nil for NULL.
func jsonValue(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}
