package anthropic

import (
	"testing"

	"github.com/gomastra/mastra/model"
)

// TestAPIErrorsSayWhetherTheyAreTransient: a rate limit or server error
// may pass if the call is made again, a bad request may not.
func TestAPIErrorsSayWhetherTheyAreTransient(t *testing.T) {
	for status, want := range map[int]bool{429: true, 500: true, 503: true, 400: false, 401: false, 404: false} {
		if got := model.IsTransient(&APIError{StatusCode: status, Type: "error"}); got != want {
			t.Errorf("HTTP %d: transient %v, want %v", status, got, want)
		}
	}
}

// TestStreamErrorEventsAreTransientByType: an error event in a stream
// (status 200) is transient when Anthropic's type says overload, rate
// limit or a server error.
func TestStreamErrorEventsAreTransientByType(t *testing.T) {
	for typ, want := range map[string]bool{"overloaded_error": true, "rate_limit_error": true, "api_error": true, "invalid_request_error": false, "": false} {
		if got := model.IsTransient(&APIError{StatusCode: 200, Type: typ}); got != want {
			t.Errorf("stream error %q: transient %v, want %v", typ, got, want)
		}
	}
}
