package model

import (
	"errors"
	"fmt"
	"testing"
)

type statusError struct{ status int }

func (e statusError) Error() string   { return fmt.Sprintf("HTTP %d", e.status) }
func (e statusError) Transient() bool { return TransientStatus(e.status) }

// TestIsTransient: rate limits, timeouts and server errors are
// transient, through wrapping too; client errors and errors that do not
// say are not.
func TestIsTransient(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{statusError{429}, true},
		{statusError{503}, true},
		{statusError{500}, true},
		{statusError{408}, true},
		{fmt.Errorf("step 2: %w", statusError{502}), true},
		{statusError{400}, false},
		{statusError{401}, false},
		{statusError{404}, false},
		{errors.New("connection reset"), false},
		{nil, false},
	} {
		if got := IsTransient(c.err); got != c.want {
			t.Errorf("IsTransient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
