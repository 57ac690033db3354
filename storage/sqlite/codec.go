package sqlite

import (
	"encoding/json"
	"time"
)

// Times are stored as INTEGER microseconds since the Unix epoch, UTC.

// toMicros is t in stored form.
func toMicros(t time.Time) int64 { return t.UnixMicro() }

// ceilMicros is t in stored form, rounded up: the first stored time not
// before t.
func ceilMicros(t time.Time) int64 {
	us := t.UnixMicro()
	if time.UnixMicro(us).Before(t) {
		us++
	}
	return us
}

// fromMicros is a stored time, in UTC.
func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// now is the current time, to the microsecond, in UTC.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// orNow is t, or now when t is zero.
func orNow(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return t
}

// JSON values are stored as text, byte for byte; an empty value is NULL
// (see internal/sqlstore).

// jsonValue is a stored JSON value: nil for NULL.
func jsonValue(b []byte) json.RawMessage {
	if b == nil {
		return nil
	}
	return json.RawMessage(b)
}
