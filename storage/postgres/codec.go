package postgres

import (
	"encoding/json"
	"errors"
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

// JSON values are stored as text, byte for byte; an empty value is NULL.

// jsonArg is the stored form of raw (nil, NULL, when empty), or an error
// when raw is not valid JSON.
func jsonArg(raw []byte) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if !json.Valid(raw) {
		return nil, errors.New("invalid JSON")
	}
	return string(raw), nil
}

// jsonValue is a stored JSON value: nil for NULL.
func jsonValue(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}
