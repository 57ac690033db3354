package google

import (
	"testing"

	"github.com/gomastra/mastra/model"
)

// TestAPIErrorsSayWhetherTheyAreTransient: a rate limit or server error
// may pass if the call is made again, a bad request may not.
func TestAPIErrorsSayWhetherTheyAreTransient(t *testing.T) {
	for status, want := range map[int]bool{429: true, 500: true, 503: true, 400: false, 401: false, 404: false} {
		if got := model.IsTransient(&APIError{StatusCode: status}); got != want {
			t.Errorf("HTTP %d: transient %v, want %v", status, got, want)
		}
	}
}
